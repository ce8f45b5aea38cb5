// EXT_meshopt_compression: decodes compressed buffer views into plain buffers after loading.
#pragma once

#include <cstdint>

#include "offline/gltf_read_document.h"
#include "throng/core/status.h"

namespace throng::gltf {

// Decoded bytes of all meshopt views of one file. meshopt shrinks vertex and key data 2-10x (far
// more for constant data), so a few crafted bytes could otherwise ask for gigabytes; no character
// throng can draw needs more than 1 GiB of vertex and animation data.
inline constexpr uint64_t kMaxMeshoptDecodedBytes = uint64_t{1} << 30;

// Replaces every buffer view carrying EXT_meshopt_compression by its decoded bytes (in a new
// buffer of its own; fallback data is never read): mode ATTRIBUTES (meshopt_decodeVertexBuffer,
// then the OCTAHEDRAL / QUATERNION / EXPONENTIAL filter), TRIANGLES (meshopt_decodeIndexBuffer)
// or INDICES (meshopt_decodeIndexSequence). Errors name the file and the view: kInvalidData for
// missing or bad fields, ranges and strides, or data that does not decode (corrupt, or a codec
// version newer than the meshoptimizer throng links); kLimitExceeded above
// kMaxMeshoptDecodedBytes.
Status decodeMeshoptViews(Document& doc);

}  // namespace throng::gltf
