// Wavefront OBJ export of a posed mesh, so a pose can be checked in any 3D tool.
#pragma once

#include <span>
#include <string>

#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

// Writes `positions` and `normals` (one per vertex of `topology`; normals may be empty) with the
// topology's UVs and triangles, one OBJ group per sub-mesh. Floats are written with round-trip
// precision. Written atomically (see writeFileAtomically); errors: kIoError.
std::string formatObj(const SkinnedMesh& topology, std::span<const glm::vec3> positions,
                      std::span<const glm::vec3> normals);
Status writeObj(const SkinnedMesh& topology, std::span<const glm::vec3> positions,
                std::span<const glm::vec3> normals, const std::string& path);

}  // namespace throng
