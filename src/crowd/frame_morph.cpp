// FrameMorphJob: the morph fetch and blend of the vertex shaders, on the CPU.
#include "throng/crowd/frame_morph.h"

#include <algorithm>

namespace throng {
namespace {

// GLSL mix.
template <typename T>
T mixed(const T& x, const T& y, float t) {
  return x * (1.0f - t) + y * t;
}

// The blend of one per-frame quantity `at(frame)` over the frame pairs and the cross-fade.
template <typename At>
auto blendFrames(const InstanceFrames& frames, At at) {
  const FrameSample& p = frames.primary;
  const auto primary = mixed(at(p.frame_a), at(p.frame_b), p.blend);
  if (!(frames.fade > 0.0f)) return primary;
  const FrameSample& s = frames.secondary;
  return mixed(primary, mixed(at(s.frame_a), at(s.frame_b), s.blend), frames.fade);
}

}  // namespace

bool FrameMorphJob::validate() const {
  if (package == nullptr || lod >= package->lods.size()) return false;
  const size_t n = package->lods[lod].mesh.vertexCount();
  if (out_positions.size() != n || out_normals.size() != n) return false;
  const uint32_t count = package->animation.frame_count;
  if (!(frames.primary.frame_a < count && frames.primary.frame_b < count &&
        frames.secondary.frame_a < count && frames.secondary.frame_b < count)) {
    return false;
  }
  const MorphAnimation& m = package->morph;
  if (m.kind == MorphBakeKind::kNone) return true;
  return lod < m.lods.size() && m.lods[lod].vertex_count == n;
}

bool FrameMorphJob::run() const {
  if (!validate()) return false;
  const SkinnedMesh& mesh = package->lods[lod].mesh;
  const MorphAnimation& m = package->morph;
  const size_t n = mesh.vertexCount();
  if (m.kind == MorphBakeKind::kNone) {
    std::copy(mesh.positions.begin(), mesh.positions.end(), out_positions.begin());
    std::copy(mesh.normals.begin(), mesh.normals.end(), out_normals.begin());
    return true;
  }
  const VertexTexture& texture = m.lods[lod];
  if (m.kind == MorphBakeKind::kVertexFrames) {
    for (uint32_t v = 0; v < n; ++v) {
      out_positions[v] =
          blendFrames(frames, [&](uint32_t f) { return loadVertexTexel(texture, f, v, 0); });
      out_normals[v] =
          blendFrames(frames, [&](uint32_t f) { return loadVertexTexel(texture, f, v, 1); });
    }
    return true;
  }
  const size_t targets = m.targets.size();
  std::vector<float> weights(targets);
  for (size_t t = 0; t < targets; ++t) {
    weights[t] = blendFrames(frames, [&](uint32_t f) { return m.frame_weights[f * targets + t]; });
  }
  for (uint32_t v = 0; v < n; ++v) {
    glm::vec3 p = mesh.positions[v];
    glm::vec3 normal = mesh.normals[v];
    for (uint32_t t = 0; t < targets; ++t) {
      if (weights[t] == 0.0f) continue;  // adds nothing; the shader may skip it too
      p += weights[t] * loadVertexTexel(texture, t, v, 0);
      normal += weights[t] * loadVertexTexel(texture, t, v, 1);
    }
    out_positions[v] = p;
    out_normals[v] = normal;
  }
  return true;
}

}  // namespace throng
