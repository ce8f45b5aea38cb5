// Reading and writing one palette entry of an animation texture in either texel format.
#include "throng/core/animation_texture.h"

#include <algorithm>
#include <cassert>

#include "throng/core/half.h"

namespace throng {

AnimationTextureLayout chooseAnimationTextureLayout(uint32_t joint_count, uint64_t frame_count,
                                                    uint32_t max_width) {
  assert(joint_count >= 1 && frame_count >= 1 && max_width >= 3);
  const uint64_t texels_per_frame = 3ull * joint_count;
  AnimationTextureLayout layout;
  if (texels_per_frame <= max_width) {
    const uint64_t per_row = std::min<uint64_t>(max_width / texels_per_frame, frame_count);
    layout.frames_per_row = static_cast<uint32_t>(per_row);
    layout.width = static_cast<uint32_t>(per_row * texels_per_frame);
    layout.height = (frame_count + per_row - 1) / per_row;
    return layout;
  }
  const uint64_t widest = max_width / 3;  // joints in the widest row allowed
  const uint64_t rows = (joint_count + widest - 1) / widest;
  layout.frames_per_row = 1;
  const uint64_t per_row = (joint_count + rows - 1) / rows;
  layout.width = static_cast<uint32_t>(3 * per_row);
  layout.height = frame_count * ((joint_count + per_row - 1) / per_row);
  return layout;
}

JointRows loadJointRows(const AnimationTexture& texture, uint32_t frame, uint32_t joint) {
  assert(frame < texture.frame_count && joint < texture.joint_count);
  JointRows out;
  for (uint32_t r = 0; r < kVec4PerJoint; ++r) {
    const size_t at = texture.channelIndex(frame, joint, r);
    for (int c = 0; c < 4; ++c) {
      if (texture.format == TexelFormat::kRgba32F) {
        assert(at + 3 < texture.texels32.size());
        out.rows[r][c] = texture.texels32[at + c];
      } else {
        assert(at + 3 < texture.texels16.size());
        out.rows[r][c] = halfToFloat(texture.texels16[at + c]);
      }
    }
  }
  return out;
}

void storeJointRows(AnimationTexture& texture, uint32_t frame, uint32_t joint,
                    const JointRows& rows) {
  assert(frame < texture.frame_count && joint < texture.joint_count);
  for (uint32_t r = 0; r < kVec4PerJoint; ++r) {
    const size_t at = texture.channelIndex(frame, joint, r);
    for (int c = 0; c < 4; ++c) {
      if (texture.format == TexelFormat::kRgba32F) {
        assert(at + 3 < texture.texels32.size());
        texture.texels32[at + c] = rows.rows[r][c];
      } else {
        assert(at + 3 < texture.texels16.size());
        texture.texels16[at + c] = floatToHalf(rows.rows[r][c]);
      }
    }
  }
}

}  // namespace throng
