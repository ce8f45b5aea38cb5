// Reading and writing one palette entry of an animation texture in either texel format.
#include "throng/core/animation_texture.h"

#include <cassert>

#include "throng/core/half.h"

namespace throng {

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
