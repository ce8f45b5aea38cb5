// FrameMorphJob: the morph fetch and blend of the vertex shaders, on the CPU.
#include "throng/crowd/frame_morph.h"

#include <algorithm>
#include <array>

namespace throng {
namespace {

// Targets whose blended weights run() holds at once: a stack array of 1 KiB.
constexpr size_t kWeightChunk = 256;

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
  if (lod >= m.lods.size()) return false;
  // A hand-built package is not validated on read: every block and weight run() reads must exist.
  const VertexTexture& t = m.lods[lod];
  const bool frames_kind = m.kind == MorphBakeKind::kVertexFrames;
  const uint64_t blocks = frames_kind ? count : m.targets.size();
  if (t.vertex_count != n || t.block_count != blocks) return false;
  if (!frames_kind && m.frame_weights.size() != static_cast<uint64_t>(count) * blocks) return false;
  const uint64_t channels = blocks * n * kVertexTexelsPerVertex * 4;
  const size_t stored = t.format == TexelFormat::kRgba32F ? t.texels32.size() : t.texels16.size();
  return stored >= channels;
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
  // Weights are blended a chunk of targets at a time into a fixed array (a job allocates
  // nothing); each vertex still sums its targets in target order, as documented.
  const size_t targets = m.targets.size();
  std::copy(mesh.positions.begin(), mesh.positions.end(), out_positions.begin());
  std::copy(mesh.normals.begin(), mesh.normals.end(), out_normals.begin());
  std::array<float, kWeightChunk> weights;
  for (size_t first = 0; first < targets; first += kWeightChunk) {
    const size_t chunk = std::min(kWeightChunk, targets - first);
    for (size_t i = 0; i < chunk; ++i) {
      const size_t t = first + i;
      weights[i] =
          blendFrames(frames, [&](uint32_t f) { return m.frame_weights[f * targets + t]; });
    }
    for (uint32_t v = 0; v < n; ++v) {
      for (size_t i = 0; i < chunk; ++i) {
        if (weights[i] == 0.0f) continue;  // adds nothing; the shader may skip it too
        const auto t = static_cast<uint32_t>(first + i);
        out_positions[v] += weights[i] * loadVertexTexel(texture, t, v, 0);
        out_normals[v] += weights[i] * loadVertexTexel(texture, t, v, 1);
      }
    }
  }
  return true;
}

}  // namespace throng
