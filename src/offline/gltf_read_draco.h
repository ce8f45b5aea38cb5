// KHR_draco_mesh_compression: decodes Draco primitives into plain accessors after loading.
#pragma once

#include <cstdint>

#include "offline/gltf_read_document.h"
#include "throng/core/status.h"

namespace throng::gltf {

// Decoded bytes of all Draco primitives of one file (floats and indices as throng stores them).
// Draco shrinks meshes 5-20x; the cap keeps a crafted stream from asking for gigabytes, and no
// character throng can draw needs more than 1 GiB of vertex data.
inline constexpr uint64_t kMaxDracoDecodedBytes = uint64_t{1} << 30;

// Decodes every primitive carrying KHR_draco_mesh_compression with Debian's libdraco and points
// its accessors at the result (each in a new buffer): the attributes the extension maps (by
// their Draco unique id) become FLOAT accessors (normalised integers divided out), JOINTS_n
// UNSIGNED_SHORT, and the indices UNSIGNED_INT; the glTF accessors keep their type and count,
// which must match what Draco decodes. Errors name the file, mesh and primitive: kInvalidData for
// a malformed extension, data that does not decode, or counts that disagree; kLimitExceeded
// above kMaxDracoDecodedBytes.
Status decodeDracoPrimitives(Document& doc);

}  // namespace throng::gltf
