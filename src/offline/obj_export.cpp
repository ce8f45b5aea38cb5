// Wavefront OBJ export of a posed mesh.
#include "throng/offline/obj_export.h"

#include <cassert>

#include <fmt/core.h>

#include "throng/core/file_io.h"

namespace throng {

std::string formatObj(const SkinnedMesh& topology, std::span<const glm::vec3> positions,
                      std::span<const glm::vec3> normals) {
  assert(positions.size() == topology.vertexCount());
  assert(normals.empty() || normals.size() == positions.size());
  std::string out = "# written by throng\n";
  for (const glm::vec3& p : positions) out += fmt::format("v {} {} {}\n", p.x, p.y, p.z);
  for (const glm::vec3& n : normals) out += fmt::format("vn {} {} {}\n", n.x, n.y, n.z);
  for (const glm::vec2& t : topology.uvs) out += fmt::format("vt {} {}\n", t.x, 1.0f - t.y);
  const bool has_uv = !topology.uvs.empty();
  const bool has_n = !normals.empty();
  auto corner = [&](uint32_t i) {
    const uint32_t k = i + 1;  // OBJ indices are 1-based
    if (has_uv && has_n) return fmt::format("{}/{}/{}", k, k, k);
    if (has_uv) return fmt::format("{}/{}", k, k);
    if (has_n) return fmt::format("{}//{}", k, k);
    return fmt::format("{}", k);
  };
  std::vector<SubMesh> groups = topology.submeshes;
  if (groups.empty()) groups.push_back({"mesh", 0, static_cast<uint32_t>(topology.indices.size())});
  for (size_t g = 0; g < groups.size(); ++g) {
    out += fmt::format("g {}\n",
                       groups[g].name.empty() ? fmt::format("submesh{}", g) : groups[g].name);
    const uint32_t end = groups[g].first_index + groups[g].index_count;
    for (uint32_t i = groups[g].first_index; i + 3 <= end; i += 3) {
      out += fmt::format("f {} {} {}\n", corner(topology.indices[i]),
                         corner(topology.indices[i + 1]), corner(topology.indices[i + 2]));
    }
  }
  return out;
}

Status writeObj(const SkinnedMesh& topology, std::span<const glm::vec3> positions,
                std::span<const glm::vec3> normals, const std::string& path) {
  return writeFileAtomically(path, formatObj(topology, positions, normals));
}

}  // namespace throng
