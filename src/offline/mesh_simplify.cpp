// Mesh LOD with meshoptimizer's edge-collapse simplifier (Garland & Heckbert quadrics).
#include "throng/offline/mesh_simplify.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/core.h>
#include <meshoptimizer.h>

namespace throng {

Result<SimplifiedMesh> simplifyMesh(const SkinnedMesh& mesh, const SimplifyOptions& options) {
  if (!(options.triangle_ratio > 0.0f && options.triangle_ratio <= 1.0f)) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("simplify: triangle ratio {} is outside (0, 1]", options.triangle_ratio));
  }
  if (!(options.max_relative_error >= 0.0f) || !std::isfinite(options.max_relative_error)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("simplify: error target {} is not a non-negative number",
                              options.max_relative_error));
  }
  // Joint indices are palette slots or skeleton joints depending on the caller: not checked.
  if (Status s = validateMesh(mesh, std::numeric_limits<uint16_t>::max() + 1, "simplify");
      !s.ok()) {
    return s;
  }
  const size_t vertex_count = mesh.vertexCount();
  const float* positions = vertex_count > 0 ? &mesh.positions[0].x : nullptr;
  const float scale =
      vertex_count > 0 ? meshopt_simplifyScale(positions, vertex_count, sizeof(glm::vec3)) : 0.0f;

  std::vector<SubMesh> ranges = mesh.submeshes;
  if (ranges.empty()) ranges.push_back({"", 0, static_cast<uint32_t>(mesh.indices.size())});

  SimplifiedMesh out;
  std::vector<uint32_t> indices;
  std::vector<uint32_t> simplified;
  for (const SubMesh& range : ranges) {
    const uint32_t* source = mesh.indices.data() + range.first_index;
    simplified.resize(range.index_count);
    size_t count = range.index_count;
    float error = 0.0f;
    if (options.triangle_ratio < 1.0f && range.index_count > 0) {
      const size_t target =
          static_cast<size_t>(static_cast<double>(range.index_count / 3) * options.triangle_ratio) *
          3;
      count =
          meshopt_simplify(simplified.data(), source, range.index_count, positions, vertex_count,
                           sizeof(glm::vec3), target, options.max_relative_error, 0, &error);
    } else {
      std::copy(source, source + range.index_count, simplified.begin());
    }
    out.geometric_error = std::max(out.geometric_error, error * scale);
    SubMesh sub = range;
    sub.first_index = static_cast<uint32_t>(indices.size());
    sub.index_count = static_cast<uint32_t>(count);
    out.mesh.submeshes.push_back(sub);
    indices.insert(indices.end(), simplified.begin(), simplified.begin() + count);
  }
  if (mesh.submeshes.empty()) out.mesh.submeshes.clear();

  // Keep only referenced vertices, in first-use order (also good for the vertex cache).
  std::vector<uint32_t> remap(vertex_count);
  const size_t kept =
      meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), indices.size(), vertex_count);
  SkinnedMesh& m = out.mesh;
  m.positions.resize(kept);
  m.normals.resize(kept);
  m.uvs.resize(mesh.uvs.empty() ? 0 : kept);
  m.uvs1.resize(mesh.uvs1.empty() ? 0 : kept);
  m.colors.resize(mesh.colors.empty() ? 0 : kept);
  m.joints.resize(kept);
  m.weights.resize(kept);
  for (size_t v = 0; v < vertex_count; ++v) {
    const uint32_t to = remap[v];
    if (to == ~0u) continue;
    m.positions[to] = mesh.positions[v];
    m.normals[to] = mesh.normals[v];
    if (!mesh.uvs.empty()) m.uvs[to] = mesh.uvs[v];
    if (!mesh.uvs1.empty()) m.uvs1[to] = mesh.uvs1[v];
    if (!mesh.colors.empty()) m.colors[to] = mesh.colors[v];
    m.joints[to] = mesh.joints[v];
    m.weights[to] = mesh.weights[v];
  }
  m.indices.resize(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) m.indices[i] = remap[indices[i]];
  return out;
}

}  // namespace throng
