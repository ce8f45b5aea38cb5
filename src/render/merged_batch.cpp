// Merged batches: capacity from the uniform and 16-bit index budgets, and the K-copy mesh.
#include "render/merged_batch.h"

#include <algorithm>

#include <fmt/core.h>

namespace throng::render {

glm::vec4 packMergedAgent(const glm::vec4& tint, const glm::vec4& agent) {
  const glm::vec4 bytes = glm::round(glm::clamp(tint, 0.0f, 1.0f) * 255.0f);
  const float appearance = std::min(agent.z, kMaxPackedAppearance);
  return {agent.x, bytes.r + 256.0f * bytes.g + 65536.0f * bytes.b,
          bytes.a + 256.0f * agent.y + 2048.0f * appearance, agent.w};
}

Result<BatchCapacity> computeBatchCapacity(int max_uniform_vectors, int other_uniform_vectors,
                                           int joints_per_character, size_t vertices_per_character,
                                           JointEncoding encoding) {
  if (joints_per_character < 1 || vertices_per_character == 0) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("merged batch: {} joints and {} vertices per character",
                              joints_per_character, vertices_per_character));
  }
  BatchCapacity capacity;
  const int per_joint = vec4PerJoint(encoding);
  const int per_character = joints_per_character * per_joint + kVec4PerCharacter;
  const int budget = max_uniform_vectors - other_uniform_vectors;
  capacity.by_uniforms = budget > 0 ? budget / per_character : 0;
  capacity.by_vertices = static_cast<int>(kMaxBatchVertices / vertices_per_character);
  if (capacity.by_uniforms < 1) {
    return Status(
        ErrorCode::kLimitExceeded,
        fmt::format("merged batch: {} joints need {} vertex uniform vectors, but only "
                    "{} of GL_MAX_VERTEX_UNIFORM_VECTORS = {} are left after the "
                    "shader's other {}; use a LOD with at most {} joints",
                    joints_per_character, per_character, std::max(budget, 0), max_uniform_vectors,
                    other_uniform_vectors, std::max(budget - kVec4PerCharacter, 0) / per_joint));
  }
  if (capacity.by_vertices < 1) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("merged batch: a character of {} vertices exceeds the {}-vertex "
                              "limit of 16-bit indices",
                              vertices_per_character, kMaxBatchVertices));
  }
  capacity.characters = std::min(capacity.by_uniforms, capacity.by_vertices);
  capacity.palette_vectors = capacity.characters * per_character;
  return capacity;
}

Result<MergedBatchMesh> buildMergedBatchMesh(const SkinnedMesh& lod, int joints_per_copy,
                                             int copies, std::span<const Material> materials) {
  if (copies < 1 || joints_per_copy < 1) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("merged batch: {} copies of {} joints", copies, joints_per_copy));
  }
  if (Status s = validateMesh(lod, joints_per_copy, "merged batch LOD"); !s.ok()) return s;

  // Indices of every sub-mesh, grouped by material (the whole buffer when there are none).
  std::vector<uint32_t> source;
  MergedBatchMesh out;
  Result<std::vector<MaterialRange>> ranges =
      groupIndicesByMaterial(lod, materials, source, &out.looks);
  if (!ranges.ok()) return ranges.status();
  out.ranges = std::move(ranges).value();
  const bool copied = !out.looks.vertex_source.empty();
  const size_t n = copied ? out.looks.vertex_source.size() : lod.vertexCount();
  if (n * static_cast<size_t>(copies) > kMaxBatchVertices) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("merged batch: {} copies of {} vertices exceed the {}-vertex limit "
                              "of 16-bit indices",
                              copies, n, kMaxBatchVertices));
  }
  out.copies = copies;
  out.joints_per_copy = joints_per_copy;
  out.vertices_per_copy = static_cast<uint32_t>(n);
  out.indices_per_copy = static_cast<uint32_t>(source.size());
  out.vertices.resize(n * copies);
  out.indices.resize(source.size() * copies);
  for (int k = 0; k < copies; ++k) {
    const float offset = static_cast<float>(k * joints_per_copy);
    for (size_t o = 0; o < n; ++o) {
      const size_t v = copied ? out.looks.vertex_source[o] : o;
      BatchVertex& bv = out.vertices[k * n + o];
      const float group = lod.attachments.empty() ? 0.0f : static_cast<float>(lod.attachments[v]);
      bv.position = glm::vec4(lod.positions[v], (copied ? out.looks.vertex_row[o] : 0.0f) +
                                                    kMergedPropGroupScale * group);
      bv.normal = lod.normals[v];
      bv.tangent = meshTangent(lod, v);
      const glm::vec2 uv0 = lod.uvs.empty() ? glm::vec2(0.0f) : lod.uvs[v];
      const glm::vec2 uv1 = lod.uvs1.empty() ? glm::vec2(0.0f) : lod.uvs1[v];
      bv.uv = glm::vec4(uv0, uv1);
      bv.color = lod.colors.empty() ? glm::vec4(1.0f) : lod.colors[v];
      // Unused influences (weight 0) still point into this copy's own palette range.
      bv.joints = glm::vec4(lod.joints[v]) + offset;
      bv.weights = lod.weights[v];
      bv.vertex = static_cast<float>(v);
    }
  }
  size_t at = 0;
  for (MaterialRange& range : out.ranges) {
    const uint32_t first = range.first_index;
    range.first_index = static_cast<uint32_t>(at);
    for (int k = 0; k < copies; ++k) {
      for (uint32_t i = first; i < first + range.index_count; ++i) {
        out.indices[at++] = static_cast<uint16_t>(k * n + source[i]);
      }
    }
  }
  return out;
}

}  // namespace throng::render
