// Morph targets: the glTF blend of per-vertex deltas, weights sampled from clips, validation.
#include "throng/core/morph.h"

#include <fmt/core.h>

#include "throng/core/excerpt.h"

namespace throng {

bool MorphJob::validate() const {
  const size_t n = positions.size();
  if (weights.size() != targets.size() || out_positions.size() != n) return false;
  if (normals.size() != out_normals.size() || (!normals.empty() && normals.size() != n)) {
    return false;
  }
  if (tangents.size() != out_tangents.size() || (!tangents.empty() && tangents.size() != n)) {
    return false;
  }
  for (const MorphTarget& t : targets) {
    if (t.positions.size() != n) return false;
    if (!t.normals.empty() && t.normals.size() != n) return false;
    if (!t.tangents.empty() && t.tangents.size() != n) return false;
  }
  return true;
}

namespace {

glm::vec3 normalizedOr(const glm::vec3& v, const glm::vec3& fallback) {
  const float length = glm::length(v);
  return length > 0.0f ? v / length : fallback;
}

}  // namespace

bool MorphJob::run() const {
  if (!validate()) return false;
  const size_t n = positions.size();
  for (size_t v = 0; v < n; ++v) {
    glm::vec3 p = positions[v];
    glm::vec3 nsum = normals.empty() ? glm::vec3(0.0f) : normals[v];
    glm::vec3 tsum = tangents.empty() ? glm::vec3(0.0f) : glm::vec3(tangents[v]);
    for (size_t t = 0; t < targets.size(); ++t) {
      const float w = weights[t];
      if (w == 0.0f) continue;  // most targets rest at most times
      const MorphTarget& target = targets[t];
      p += w * target.positions[v];
      if (!normals.empty() && !target.normals.empty()) nsum += w * target.normals[v];
      if (!tangents.empty() && !target.tangents.empty()) tsum += w * target.tangents[v];
    }
    out_positions[v] = p;
    if (!normals.empty()) out_normals[v] = normalizedOr(nsum, normals[v]);
    if (!tangents.empty()) {
      const glm::vec4 base = tangents[v];
      out_tangents[v] = glm::vec4(normalizedOr(tsum, glm::vec3(base)), base.w);
    }
  }
  return true;
}

void sampleMorphWeights(std::span<const MorphTarget> targets, const Clip* clip, float time,
                        std::span<float> weights) {
  for (size_t t = 0; t < targets.size(); ++t) {
    const bool animated = clip != nullptr && t < clip->weights.size() && !clip->weights[t].empty();
    weights[t] = animated ? sampleTrack(clip->weights[t], time) : targets[t].default_weight;
  }
}

Status validateMorphTargets(std::span<const MorphTarget> targets, size_t vertex_count,
                            std::string_view source) {
  for (size_t t = 0; t < targets.size(); ++t) {
    const MorphTarget& target = targets[t];
    const std::string where =
        fmt::format("{}: morph target {} ('{}')", source, t, excerpt(target.name));
    if (!std::isfinite(target.default_weight)) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: default weight {} is not finite",
                                                         where, target.default_weight));
    }
    const std::pair<const char*, const std::vector<glm::vec3>*> streams[] = {
        {"position", &target.positions},
        {"normal", &target.normals},
        {"tangent", &target.tangents}};
    for (const auto& [name, stream] : streams) {
      const bool optional = stream != &target.positions;
      if (stream->size() != vertex_count && !(optional && stream->empty())) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: {} {} deltas for {} vertices", where, stream->size(), name,
                                  vertex_count));
      }
      for (size_t v = 0; v < stream->size(); ++v) {
        if (!isFinite((*stream)[v])) {
          return Status(ErrorCode::kInvalidData,
                        fmt::format("{}: {} delta of vertex {} is not finite", where, name, v));
        }
      }
    }
  }
  return {};
}

}  // namespace throng
