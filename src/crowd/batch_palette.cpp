// Merged-batch palettes: skeleton-tree evaluation or baked-frame copy, placed in the world.
#include "throng/crowd/batch_palette.h"

#include <cassert>

#include "throng/core/simd.h"
#include "throng/crowd/layer_palette.h"

namespace throng {

using simd::F4;

JointRows placeRows(const glm::mat4& placement, const JointRows& m) {
  // Row r of P*M: sum_k P[k][r] * M.rows[k] for the 3 linear rows, plus P's translation on w.
  JointRows out;
  for (int r = 0; r < kVec4PerJoint; ++r) {
    out.rows[r] = placement[0][r] * m.rows[0] + placement[1][r] * m.rows[1] +
                  placement[2][r] * m.rows[2] + glm::vec4(0.0f, 0.0f, 0.0f, placement[3][r]);
  }
  return out;
}

void treePalette(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& placement,
                 std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                 std::span<JointRows> out) {
  assert(out.size() == (palette_joints.empty() ? static_cast<size_t>(skeleton.jointCount())
                                               : palette_joints.size()));
  // The tree walk (parents first) with the placement as the root: world-space joint matrices.
  evaluateModels(skeleton, clip, time, placement, scratch);
  const std::span<const glm::mat4> inverse_binds = skeleton.inverseBinds();
  for (size_t s = 0; s < out.size(); ++s) {
    const size_t j = palette_joints.empty() ? s : palette_joints[s];
    out[s] = packRows(scratch.models[j] * inverse_binds[j]);
  }
}

void treePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                 SamplingContext& context, const glm::mat4& placement,
                 std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                 std::span<JointRows> out) {
  evaluatePalette(skeleton, clip, time, context, placement, palette_joints, scratch, out);
}

namespace {

// A frame's texels: 3 per joint, contiguous within one texture row.
template <typename Texel>
const Texel* frameTexels(const AnimationTexture& texture, const std::vector<Texel>& texels,
                         uint32_t frame) {
  return texels.data() + texture.channelIndex(frame, 0, 0);
}

// Row r of joint j: 4 channels at texel 3j + r of the frame.
THRONG_INLINE F4 loadRow(const float* frame, uint32_t joint, int r) {
  return simd::load(frame + (3 * joint + r) * 4);
}
THRONG_INLINE F4 loadRow(const uint16_t* frame, uint32_t joint, int r) {
  return simd::loadHalf4(frame + (3 * joint + r) * 4);
}

// out[s] = placement * sum_f weight[f] * frame_f(joint): kFrames frames blended, then placed.
// kUpright: the placement keeps +Y up (a crowd placement: a turn about Y, a uniform scale and a
// translation), so row 1 needs only M's row 1 and rows 0 and 2 skip it.
template <int kFrames, bool kUpright, typename Texel>
THRONG_HOT_LOOP void blendAndPlace(const Texel* const (&frame_texels)[kFrames],
                                   const float (&weights)[kFrames], const glm::mat4& placement,
                                   std::span<const uint16_t> palette_joints,
                                   std::span<JointRows> out) {
  // Row r of P * M is sum_k P[k][r] * M.row(k) + (0, 0, 0, P[3][r]): the placement's elements
  // are the same for every joint, so they are broadcast once.
  F4 p[3][3], t[3];
  for (int r = 0; r < 3; ++r) {
    for (int k = 0; k < 3; ++k) p[r][k] = simd::splat(placement[k][r]);
    t[r] = simd::set(0.0f, 0.0f, 0.0f, placement[3][r]);
  }
  F4 w[kFrames];
  const Texel* frames[kFrames];
  for (int f = 0; f < kFrames; ++f) {
    w[f] = simd::splat(weights[f]);
    frames[f] = frame_texels[f];
  }
  const size_t slots = out.size();
  JointRows* const rows = out.data();
  for (size_t s = 0; s < slots; ++s) {
    const uint32_t j = palette_joints.empty() ? static_cast<uint32_t>(s) : palette_joints[s];
    F4 m[3];
    for (int k = 0; k < 3; ++k) {
      m[k] = loadRow(frames[0], j, k) * w[0];
      for (int f = 1; f < kFrames; ++f) m[k] = m[k] + loadRow(frames[f], j, k) * w[f];
    }
    if constexpr (kUpright) {
      simd::store(&rows[s].rows[0].x, p[0][0] * m[0] + p[0][2] * m[2] + t[0]);
      simd::store(&rows[s].rows[1].x, p[1][1] * m[1] + t[1]);
      simd::store(&rows[s].rows[2].x, p[2][0] * m[0] + p[2][2] * m[2] + t[2]);
    } else {
      for (int r = 0; r < 3; ++r) {
        simd::store(&rows[s].rows[r].x, p[r][0] * m[0] + p[r][1] * m[1] + p[r][2] * m[2] + t[r]);
      }
    }
  }
}

template <int kFrames, typename Texel>
void blendAndPlace(const Texel* const (&frames)[kFrames], const float (&weights)[kFrames],
                   const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                   std::span<JointRows> out) {
  // Row 1 of P is (0, P[1][1], 0, ty) and column 1 is (0, P[1][1], 0, 0).
  const bool upright = placement[0][1] == 0.0f && placement[2][1] == 0.0f &&
                       placement[1][0] == 0.0f && placement[1][2] == 0.0f;
  if (upright) {
    blendAndPlace<kFrames, true>(frames, weights, placement, palette_joints, out);
  } else {
    blendAndPlace<kFrames, false>(frames, weights, placement, palette_joints, out);
  }
}

template <typename Texel>
void bakedPaletteOf(const AnimationTexture& texture, const std::vector<Texel>& texels,
                    const InstanceFrames& frames, const glm::mat4& placement,
                    std::span<const uint16_t> palette_joints, std::span<JointRows> out) {
  const float fade = frames.fade;
  const float pb = frames.primary.blend, sb = frames.secondary.blend;
  const Texel* a = frameTexels(texture, texels, frames.primary.frame_a);
  const Texel* b = frameTexels(texture, texels, frames.primary.frame_b);
  if (fade > 0.0f) {
    assert(frames.secondary.frame_a < texture.frame_count &&
           frames.secondary.frame_b < texture.frame_count);
    const Texel* c = frameTexels(texture, texels, frames.secondary.frame_a);
    const Texel* d = frameTexels(texture, texels, frames.secondary.frame_b);
    const Texel* const four[4] = {a, b, c, d};
    const float weights[4] = {(1.0f - fade) * (1.0f - pb), (1.0f - fade) * pb, fade * (1.0f - sb),
                              fade * sb};
    blendAndPlace(four, weights, placement, palette_joints, out);
  } else {
    const Texel* const two[2] = {a, b};
    const float weights[2] = {1.0f - pb, pb};
    blendAndPlace(two, weights, placement, palette_joints, out);
  }
}

}  // namespace

void bakedPalette(const AnimationTexture& texture, const InstanceFrames& frames,
                  const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                  std::span<JointRows> out) {
  assert(out.size() == (palette_joints.empty() ? texture.joint_count : palette_joints.size()));
  assert(frames.primary.frame_a < texture.frame_count &&
         frames.primary.frame_b < texture.frame_count);
#ifndef NDEBUG
  for (const uint16_t j : palette_joints) assert(j < texture.joint_count);
#endif
  if (texture.format == TexelFormat::kRgba32F) {
    bakedPaletteOf(texture, texture.texels32, frames, placement, palette_joints, out);
  } else {
    bakedPaletteOf(texture, texture.texels16, frames, placement, palette_joints, out);
  }
}

void layeredBakedPalette(const AnimationTexture& texture, const InstanceFrames& frames,
                         const LayerSample& layer, std::span<const glm::vec3> pivots,
                         const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                         std::span<JointRows> out) {
  bakedPalette(texture, frames, placement, palette_joints, out);
  if (!(layer.weight > 0.0f)) return;
  for (size_t s = 0; s < out.size(); ++s) {
    const uint32_t j = palette_joints.empty() ? static_cast<uint32_t>(s) : palette_joints[s];
    if (!layer.range.contains(j)) continue;
    out[s] = placeRows(placement, layeredJointRows(texture, frames, layer, pivots, j));
  }
}

}  // namespace throng
