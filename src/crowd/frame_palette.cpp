// FramePaletteJob: the instanced shader's frame/cross-fade palette blend, on the CPU.
#include "throng/crowd/frame_palette.h"

#include <glm/gtc/packing.hpp>

namespace throng {

JointRows textureJoint(const AnimationTexture& texture, uint32_t frame, uint32_t joint) {
  JointRows rows;
  const size_t first = texture.channelIndex(frame, joint, 0);  // a joint's rows are consecutive
  for (uint32_t r = 0; r < 3; ++r) {
    const size_t texel = first + 4 * r;
    for (int c = 0; c < 4; ++c) {
      rows.rows[r][c] = texture.format == TexelFormat::kRgba32F
                            ? texture.texels32[texel + c]
                            : glm::unpackHalf1x16(texture.texels16[texel + c]);
    }
  }
  return rows;
}

bool FramePaletteJob::validate() const {
  if (!texture || palette.size() != texture->joint_count || texture->frames_per_row == 0)
    return false;
  const size_t texels = static_cast<size_t>(texture->width) * texture->height * 4;
  if (texture->format == TexelFormat::kRgba32F ? texture->texels32.size() != texels
                                               : texture->texels16.size() != texels)
    return false;
  const uint32_t count = texture->frame_count;
  return frames.primary.frame_a < count && frames.primary.frame_b < count &&
         frames.secondary.frame_a < count && frames.secondary.frame_b < count;
}

bool FramePaletteJob::run() const {
  if (!validate()) return false;
  const auto mix = [](const glm::vec4& x, const glm::vec4& y, float t) {
    return x * (1.0f - t) + y * t;
  };
  const float fade = frames.fade;
  for (uint32_t j = 0; j < texture->joint_count; ++j) {
    const JointRows pa = textureJoint(*texture, frames.primary.frame_a, j);
    const JointRows pb = textureJoint(*texture, frames.primary.frame_b, j);
    const JointRows sa = textureJoint(*texture, frames.secondary.frame_a, j);
    const JointRows sb = textureJoint(*texture, frames.secondary.frame_b, j);
    for (int r = 0; r < kVec4PerJoint; ++r) {
      palette[j].rows[r] = (1.0f - fade) * mix(pa.rows[r], pb.rows[r], frames.primary.blend) +
                           fade * mix(sa.rows[r], sb.rows[r], frames.secondary.blend);
    }
  }
  return true;
}

}  // namespace throng
