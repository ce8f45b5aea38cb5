// A LOD's error: bind-pose correspondences between the two surfaces, followed through every
// skinned frame.
#include "offline/lod_error.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "offline/surface_distance.h"
#include "throng/core/morph.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

// The percentile of correspondences LodError::p99 reports.
constexpr double kLodErrorPercentile = 0.99;

// The mesh morphed by `weights` (one per morph target; ignored without targets), then skinned.
void skin(const SkinnedMesh& mesh, std::span<const float> weights,
          std::span<const JointRows> palette, std::span<glm::vec3> out) {
  std::span<const glm::vec3> positions = mesh.positions;
  std::vector<glm::vec3> morphed;
  if (!mesh.morph_targets.empty()) {
    morphed.resize(mesh.vertexCount());
    [[maybe_unused]] const bool morph_ok =
        MorphJob{mesh.morph_targets, weights, mesh.positions, {}, {}, morphed, {}, {}}.run();
    assert(morph_ok);
    positions = morphed;
  }
  [[maybe_unused]] const bool ok =
      SkinJob{positions, {}, mesh.joints, mesh.weights, palette, out, {}}.run();
  assert(ok);
}

}  // namespace

std::vector<JointRows> sampleClipPalettes(const Character& character, float fps,
                                          size_t* frame_count, std::vector<float>* morph_weights) {
  const Skeleton& skeleton = character.skeleton;
  const size_t joints = static_cast<size_t>(skeleton.jointCount());
  const std::span<const MorphTarget> targets = character.mesh.morph_targets;
  std::vector<JointRows> palettes;
  PoseScratch scratch;
  if (morph_weights != nullptr) morph_weights->clear();
  auto add = [&](const Clip* clip, float time) {
    if (morph_weights != nullptr) {
      morph_weights->resize(morph_weights->size() + targets.size());
      sampleMorphWeights(
          targets, clip, time,
          std::span<float>(morph_weights->data() + morph_weights->size() - targets.size(),
                           targets.size()));
    }
    palettes.resize(palettes.size() + joints);
    evaluatePalette(skeleton, clip, time, scratch,
                    std::span<JointRows>(palettes.data() + palettes.size() - joints, joints));
  };
  for (const Clip& clip : character.clips) {
    const int steps = static_cast<int>(std::ceil(clip.duration() * fps - 1e-4f));
    for (int i = 0; i <= steps; ++i) {
      add(&clip, std::min(clip.start_time + static_cast<float>(i) / fps, clip.end_time));
    }
  }
  if (palettes.empty()) add(nullptr, 0.0f);
  *frame_count = joints == 0 ? 0 : palettes.size() / joints;
  return palettes;
}

LodErrorMeter::LodErrorMeter(const Character& character) : character_(character) {
  palettes_ = sampleClipPalettes(character, kReductionSampleFps, &frame_count_, &weights_);
  const size_t stride = std::max<size_t>(
      1, (frame_count_ + kMaxReductionSearchFrames - 1) / kMaxReductionSearchFrames);
  for (size_t f = 0; f < frame_count_; f += stride) search_frames_.push_back(f);
  const SkinnedMesh& full = character.mesh;
  const size_t joints = static_cast<size_t>(character.skeleton.jointCount());
  search_posed_.resize(search_frames_.size() * full.vertexCount());
  for (size_t i = 0; i < search_frames_.size(); ++i) {
    skin(full, frameWeights(search_frames_[i]),
         std::span<const JointRows>(palettes_.data() + search_frames_[i] * joints, joints),
         std::span<glm::vec3>(search_posed_.data() + i * full.vertexCount(), full.vertexCount()));
  }
}

LodError LodErrorMeter::measure(const SkinnedMesh& lod, std::span<const uint16_t> palette_joints,
                                bool every_frame) const {
  const SkinnedMesh& full = character_.mesh;
  if (full.indices.size() < 3 || lod.indices.size() < 3) return {};
  // Parts: the full mesh's connected pieces; a LOD vertex (a copy of a full one) is in the part
  // of the full vertex at its position, a triangle in its first corner's.
  const std::vector<uint32_t> full_parts = surfaceParts(full.positions, full.indices);
  std::unordered_map<uint64_t, uint32_t> part_at;  // hashed position -> part
  auto positionKey = [](const glm::vec3& p) {
    uint32_t bits[3];
    std::memcpy(bits, &p, sizeof(bits));
    return (static_cast<uint64_t>(bits[0]) * 0x9E3779B97F4A7C15ull) ^
           (static_cast<uint64_t>(bits[1]) * 0xC2B2AE3D27D4EB4Full) ^ bits[2];
  };
  for (size_t v = 0; v < full.vertexCount(); ++v) {
    part_at.emplace(positionKey(full.positions[v]), full_parts[v]);
  }
  const uint32_t no_part = static_cast<uint32_t>(full.vertexCount());  // matches nothing known
  std::vector<uint32_t> lod_triangle_parts(lod.triangleCount());
  for (size_t t = 0; t < lod_triangle_parts.size(); ++t) {
    const auto it = part_at.find(positionKey(lod.positions[lod.indices[3 * t]]));
    lod_triangle_parts[t] = it == part_at.end() ? no_part : it->second;
  }
  std::vector<uint32_t> full_triangle_parts(full.triangleCount());
  for (size_t t = 0; t < full_triangle_parts.size(); ++t) {
    full_triangle_parts[t] = full_parts[full.indices[3 * t]];
  }

  // Each part's facing sign: -1 when its winding disagrees with its normals (a piece exported
  // inside out, as props often are), so that its points are matched by their winding's facing;
  // else a point of a closed piece would skip its own triangles for the far side's.
  std::vector<float> part_sign(full.vertexCount(), 0.0f);
  for (size_t t = 0; t < full_triangle_parts.size(); ++t) {
    const uint32_t* corner = full.indices.data() + 3 * t;
    const glm::vec3 a = full.positions[corner[0]], b = full.positions[corner[1]];
    const glm::vec3 c = full.positions[corner[2]];
    part_sign[full_triangle_parts[t]] +=
        glm::dot(glm::cross(b - a, c - a),
                 full.normals[corner[0]] + full.normals[corner[1]] + full.normals[corner[2]]);
  }
  auto facing = [&](const glm::vec3& normal, uint32_t part) {
    return part < part_sign.size() && part_sign[part] < 0.0f ? -normal : normal;
  };

  // Full mesh vertices -> nearest points of the LOD surface (same part, facing the same way).
  std::vector<uint32_t> full_vertices;
  {
    std::vector<bool> used(full.vertexCount(), false);
    for (uint32_t i : full.indices) used[i] = true;
    for (uint32_t v = 0; v < used.size(); ++v) {
      if (used[v]) full_vertices.push_back(v);
    }
  }
  std::vector<glm::vec3> points(full_vertices.size()), normals(full_vertices.size());
  std::vector<uint32_t> parts(full_vertices.size());
  for (size_t i = 0; i < points.size(); ++i) {
    points[i] = full.positions[full_vertices[i]];
    parts[i] = full_parts[full_vertices[i]];
    normals[i] = facing(full.normals[full_vertices[i]], parts[i]);
  }
  const std::vector<SurfacePoint> on_lod = closestSurfacePoints(
      points, lod.positions, lod.indices, {normals, parts, lod_triangle_parts});
  // LOD surface samples -> nearest points of the full surface (same part, same facing).
  const std::vector<SurfacePoint> lod_samples = sampleSurface(lod.indices, lod.vertexCount());
  points.resize(lod_samples.size());
  normals.resize(lod_samples.size());
  parts.resize(lod_samples.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const SurfacePoint& s = lod_samples[i];
    points[i] = surfacePosition(s, lod.positions, lod.indices);
    // The interpolated vertex normal: a sliver triangle's own normal is unreliable.
    parts[i] = lod_triangle_parts[s.triangle];
    normals[i] = facing(surfacePosition(s, lod.normals, lod.indices), parts[i]);
  }
  const std::vector<SurfacePoint> on_full = closestSurfacePoints(
      points, full.positions, full.indices, {normals, parts, full_triangle_parts});

  const size_t joints = static_cast<size_t>(character_.skeleton.jointCount());
  const size_t frames = every_frame ? frame_count_ : search_frames_.size();
  std::vector<JointRows> slots(palette_joints.size());
  std::vector<glm::vec3> full_posed(every_frame ? full.vertexCount() : 0);
  std::vector<glm::vec3> lod_posed(lod.vertexCount());
  std::vector<float> worst(on_lod.size() + on_full.size(), 0.0f);
  for (size_t i = 0; i < frames; ++i) {
    const size_t f = every_frame ? i : search_frames_[i];
    const std::span<const JointRows> pose(palettes_.data() + f * joints, joints);
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = pose[palette_joints[s]];
    std::span<const glm::vec3> full_at;
    if (every_frame) {
      skin(full, frameWeights(f), pose, full_posed);
      full_at = full_posed;
    } else {
      full_at = std::span<const glm::vec3>(search_posed_.data() + i * full.vertexCount(),
                                           full.vertexCount());
    }
    skin(lod, frameWeights(f), palette_joints.empty() ? pose : std::span<const JointRows>(slots),
         lod_posed);
    for (size_t c = 0; c < on_lod.size(); ++c) {
      const float d = glm::distance(full_at[full_vertices[c]],
                                    surfacePosition(on_lod[c], lod_posed, lod.indices));
      worst[c] = std::max(worst[c], d);
    }
    for (size_t c = 0; c < on_full.size(); ++c) {
      const float d = glm::distance(surfacePosition(lod_samples[c], lod_posed, lod.indices),
                                    surfacePosition(on_full[c], full_at, full.indices));
      worst[on_lod.size() + c] = std::max(worst[on_lod.size() + c], d);
    }
  }
  LodError out;
  for (float e : worst) out.max = std::max(out.max, e);
  // The nearest-rank percentile.
  const size_t rank =
      static_cast<size_t>(std::ceil(kLodErrorPercentile * static_cast<double>(worst.size())));
  const size_t k = std::min(worst.size() - 1, std::max<size_t>(rank, 1) - 1);
  std::nth_element(worst.begin(), worst.begin() + static_cast<std::ptrdiff_t>(k), worst.end());
  out.p99 = worst[k];
  return out;
}

LodError measureLodError(const Character& character, const SkinnedMesh& lod,
                         std::span<const uint16_t> palette_joints) {
  return LodErrorMeter(character).measure(lod, palette_joints);
}

}  // namespace throng
