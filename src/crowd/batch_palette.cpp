// Merged-batch palettes: skeleton-tree evaluation or baked-frame copy, placed in the world.
#include "throng/crowd/batch_palette.h"

#include <cassert>

#include "throng/crowd/frame_palette.h"

namespace throng {

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

void bakedPalette(const AnimationTexture& texture, const InstanceFrames& frames,
                  const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                  std::span<JointRows> out) {
  assert(out.size() == (palette_joints.empty() ? texture.joint_count : palette_joints.size()));
  assert(frames.primary.frame_a < texture.frame_count &&
         frames.primary.frame_b < texture.frame_count);
  for (size_t s = 0; s < out.size(); ++s) {
    const uint32_t j = palette_joints.empty() ? static_cast<uint32_t>(s) : palette_joints[s];
    assert(j < texture.joint_count);
    out[s] = placeRows(placement, blendedJointRows(texture, frames, j));
  }
}

}  // namespace throng
