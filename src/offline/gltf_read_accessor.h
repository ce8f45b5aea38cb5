// Bounds-checked reading of glTF accessors (strided, normalised, sparse) into flat arrays.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/status.h"

namespace throng::gltf {

// One accepted storage of an accessor's components: a TINYGLTF_COMPONENT_TYPE_* and whether the
// integer form must be flagged `normalized` (ignored for FLOAT).
struct ComponentForm {
  int component_type = TINYGLTF_COMPONENT_TYPE_FLOAT;
  bool normalized = false;
};

inline constexpr ComponentForm kFloatForm{TINYGLTF_COMPONENT_TYPE_FLOAT, false};
inline constexpr ComponentForm kUByteForm{TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, false};
inline constexpr ComponentForm kUShortForm{TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, false};
inline constexpr ComponentForm kUIntForm{TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT, false};
inline constexpr ComponentForm kByteForm{TINYGLTF_COMPONENT_TYPE_BYTE, false};
inline constexpr ComponentForm kShortForm{TINYGLTF_COMPONENT_TYPE_SHORT, false};
inline constexpr ComponentForm kNormUByteForm{TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE, true};
inline constexpr ComponentForm kNormUShortForm{TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT, true};
inline constexpr ComponentForm kNormByteForm{TINYGLTF_COMPONENT_TYPE_BYTE, true};
inline constexpr ComponentForm kNormShortForm{TINYGLTF_COMPONENT_TYPE_SHORT, true};

// Guards allocations against a corrupt `count` on accessors without a buffer view (all zeros)
// or with sparse storage: no character needs more elements in one accessor.
inline constexpr uint64_t kMaxAccessorElements = uint64_t{1} << 24;

// What a reader wants from an accessor: its index, its TINYGLTF_TYPE_*, the accepted forms, and
// `what` for messages ("mesh 0 primitive 1 POSITION").
struct AccessorRequest {
  int index = -1;
  int type = TINYGLTF_TYPE_SCALAR;
  std::vector<ComponentForm> forms;
  std::string what;
};

// Reads every element as `componentCount(type)` floats, normalised integers mapped to [0,1] or
// [-1,1] (glTF 2.0, "Animation" / "Meshes"), plain integers converted exactly. Applies sparse
// substitution. Checks the accessor, its buffer view and buffer ranges, stride, type and component
// form, and that every value is finite. Errors (kInvalidData / kUnsupported / kLimitExceeded)
// read "<file>: accessor 3 (<what>): ...".
Result<std::vector<float>> readFloats(const Document& doc, const AccessorRequest& request);

// As readFloats for integer data (indices, joints): the exact unsigned values.
Result<std::vector<uint32_t>> readUints(const Document& doc, const AccessorRequest& request);

// Number of elements of accessor `index` (which must have been read successfully).
size_t accessorCount(const Document& doc, int index);

// Components per element of a TINYGLTF_TYPE_* (0 for an unknown type).
int componentCount(int type);

}  // namespace throng::gltf
