// Influence reduction, mesh validation and bounds.
#include "throng/core/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include <fmt/core.h>

namespace throng {
namespace {

// Weights are accepted as normalised when their sum is within this of 1 (normalised-byte input
// quantises each weight to 1/255).
constexpr float kWeightSumTolerance = 1e-3f;

}  // namespace

bool reduceInfluences(const Influence* influences, int count, glm::u16vec4& joints,
                      glm::vec4& weights) {
  // Merge repeated joints first, so a joint split over two slots keeps its whole weight.
  Influence merged[16];
  int n = 0;
  for (int i = 0; i < count; ++i) {
    const Influence& in = influences[i];
    if (!(in.weight > 0.0f)) continue;
    int slot = 0;
    while (slot < n && merged[slot].joint != in.joint) ++slot;
    if (slot < n) {
      merged[slot].weight += in.weight;
    } else if (n < 16) {
      merged[n++] = in;
    }
  }
  std::stable_sort(merged, merged + n,
                   [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
  n = std::min(n, kMaxInfluences);
  float sum = 0.0f;
  for (int i = 0; i < n; ++i) sum += merged[i].weight;
  joints = glm::u16vec4(0);
  weights = glm::vec4(0.0f);
  if (!(sum > 0.0f) || !std::isfinite(sum)) return false;
  for (int i = 0; i < n; ++i) {
    joints[i] = static_cast<uint16_t>(merged[i].joint);
    weights[i] = merged[i].weight / sum;
  }
  return true;
}

const char* tangentSourceName(TangentSource source) {
  switch (source) {
    case TangentSource::kNone:
      return "none";
    case TangentSource::kFile:
      return "from the file";
    case TangentSource::kGenerated:
      return "generated (MikkTSpace rules)";
    case TangentSource::kMixed:
      return "from the file where it has them, else generated (MikkTSpace rules)";
  }
  return "unknown";
}

namespace {

template <typename T>
void copyStream(const std::vector<T>& from, std::span<const uint32_t> sources, std::vector<T>& to) {
  to.resize(from.empty() ? 0 : sources.size());
  if (from.empty()) return;
  for (size_t i = 0; i < sources.size(); ++i) to[i] = from[sources[i]];
}

// The problem with the tangent stream of `mesh`, or empty.
std::string tangentProblem(const SkinnedMesh& mesh) {
  const size_t n = mesh.vertexCount();
  const auto source = static_cast<uint8_t>(mesh.tangent_source);
  if (source > static_cast<uint8_t>(TangentSource::kMixed)) {
    return fmt::format("unknown tangent source {}", source);
  }
  if (mesh.tangents.empty() != (mesh.tangent_source == TangentSource::kNone)) {
    return fmt::format("tangent source is '{}' but the mesh has {} tangents",
                       tangentSourceName(mesh.tangent_source), mesh.tangents.size());
  }
  if (!mesh.tangents.empty() && mesh.tangents.size() != n) {
    return fmt::format("mesh has {} tangents for {} vertices", mesh.tangents.size(), n);
  }
  for (size_t v = 0; v < mesh.tangents.size(); ++v) {
    const glm::vec4& t = mesh.tangents[v];
    if (!isFinite(t)) return fmt::format("vertex {} tangent is not finite", v);
    const float length = glm::length(glm::vec3(t));
    if (!(std::abs(length - 1.0f) <= kUnitLengthTolerance)) {
      return fmt::format("vertex {} tangent has length {}, not 1", v, length);
    }
    if (t.w != 1.0f && t.w != -1.0f) {
      return fmt::format("vertex {} tangent handedness (w) is {}, not +1 or -1", v, t.w);
    }
  }
  return {};
}

}  // namespace

void copyVertices(const SkinnedMesh& from, std::span<const uint32_t> sources, SkinnedMesh& to) {
  copyStream(from.positions, sources, to.positions);
  copyStream(from.normals, sources, to.normals);
  copyStream(from.uvs, sources, to.uvs);
  copyStream(from.uvs1, sources, to.uvs1);
  copyStream(from.colors, sources, to.colors);
  copyStream(from.joints, sources, to.joints);
  copyStream(from.weights, sources, to.weights);
  copyStream(from.tangents, sources, to.tangents);
  copyStream(from.attachments, sources, to.attachments);
  to.tangent_source = from.tangent_source;
  to.morph_targets.resize(from.morph_targets.size());
  for (size_t t = 0; t < from.morph_targets.size(); ++t) {
    const MorphTarget& a = from.morph_targets[t];
    MorphTarget& b = to.morph_targets[t];
    b.name = a.name;
    b.group = a.group;
    b.default_weight = a.default_weight;
    copyStream(a.positions, sources, b.positions);
    copyStream(a.normals, sources, b.normals);
    copyStream(a.tangents, sources, b.tangents);
  }
}

Status validateMesh(const SkinnedMesh& mesh, int joint_count, std::string_view source) {
  const size_t n = mesh.vertexCount();
  auto sizeError = [&](const char* stream, size_t size) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: mesh has {} {} for {} vertices", source, size, stream, n));
  };
  if (mesh.normals.size() != n) return sizeError("normals", mesh.normals.size());
  if (!mesh.uvs.empty() && mesh.uvs.size() != n) return sizeError("uvs", mesh.uvs.size());
  if (!mesh.uvs1.empty() && mesh.uvs1.size() != n) return sizeError("uvs1", mesh.uvs1.size());
  if (!mesh.colors.empty() && mesh.colors.size() != n)
    return sizeError("colors", mesh.colors.size());
  if (mesh.joints.size() != n) return sizeError("joint sets", mesh.joints.size());
  if (mesh.weights.size() != n) return sizeError("weight sets", mesh.weights.size());
  if (!mesh.attachments.empty() && mesh.attachments.size() != n) {
    return sizeError("prop groups", mesh.attachments.size());
  }
  if (std::string problem = tangentProblem(mesh); !problem.empty()) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: {}", source, problem));
  }
  if (Status s = validateMorphTargets(mesh.morph_targets, n, source); !s.ok()) return s;
  if (mesh.indices.size() % 3 != 0) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: {} indices is not a whole number of triangles", source,
                              mesh.indices.size()));
  }
  auto finite2 = [](const std::vector<glm::vec2>& uvs, size_t v) {
    return uvs.empty() || (std::isfinite(uvs[v].x) && std::isfinite(uvs[v].y));
  };
  for (size_t v = 0; v < n; ++v) {
    if (!isFinite(mesh.positions[v]) || !isFinite(mesh.normals[v]) || !finite2(mesh.uvs, v) ||
        !finite2(mesh.uvs1, v)) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: vertex {} has a non-finite attribute", source, v));
    }
    // Comparisons are false for NaN, so a NaN colour fails too.
    if (!mesh.colors.empty() &&
        !(glm::all(glm::greaterThanEqual(mesh.colors[v], glm::vec4(0.0f))) &&
          glm::all(glm::lessThanEqual(mesh.colors[v], glm::vec4(1.0f))))) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: vertex {} colour is outside [0, 1]", source, v));
    }
    float sum = 0.0f;
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      if (!(w >= 0.0f) || !std::isfinite(w)) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: vertex {} weight {} is {}", source, v, i, w));
      }
      if (w > 0.0f && mesh.joints[v][i] >= joint_count) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: vertex {} uses joint {}, the skeleton has {}", source, v,
                                  mesh.joints[v][i], joint_count));
      }
      sum += w;
    }
    if (std::abs(sum - 1.0f) > kWeightSumTolerance) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: vertex {} weights sum to {}, not 1", source, v, sum));
    }
    for (int i = 0; i < kMaxInfluences; ++i) {
      if (mesh.joints[v][i] >= joint_count) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: vertex {} uses joint {}, the skeleton has {}", source, v,
                                  mesh.joints[v][i], joint_count));
      }
    }
  }
  for (size_t i = 0; i < mesh.indices.size(); ++i) {
    if (mesh.indices[i] >= n) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: index {} is {}, the mesh has {} vertices", source, i,
                                mesh.indices[i], n));
    }
  }
  for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
    const SubMesh& sm = mesh.submeshes[s];
    if (sm.index_count % 3 != 0 ||
        static_cast<uint64_t>(sm.first_index) + sm.index_count > mesh.indices.size()) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: sub-mesh {} ('{}') range [{}, +{}) is outside the {} indices", source, s,
                      sm.name, sm.first_index, sm.index_count, mesh.indices.size()));
    }
  }
  return {};
}

float Bounds::largestExtent() const {
  const glm::vec3 s = size();
  return std::max({s.x, s.y, s.z});
}

Bounds computeBounds(const std::vector<glm::vec3>& points) {
  if (points.empty()) return {};
  Bounds b{glm::vec3(std::numeric_limits<float>::max()),
           glm::vec3(-std::numeric_limits<float>::max())};
  for (const glm::vec3& p : points) {
    b.min = glm::min(b.min, p);
    b.max = glm::max(b.max, p);
  }
  return b;
}

}  // namespace throng
