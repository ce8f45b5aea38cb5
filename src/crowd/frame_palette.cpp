// FramePaletteJob: the instanced shader's frame/cross-fade palette blend, on the CPU.
#include "throng/crowd/frame_palette.h"

#include <cassert>

namespace throng {

JointRows blendedJointRows(const AnimationTexture& texture, const InstanceFrames& frames,
                           uint32_t joint) {
  const FrameSample& p = frames.primary;
  const JointRows primary = mixRows(loadJointRows(texture, p.frame_a, joint),
                                    loadJointRows(texture, p.frame_b, joint), p.blend);
  // With no fade the formula gives the primary pair exactly; the shader skips the other too.
  if (!(frames.fade > 0.0f)) return primary;
  const FrameSample& s = frames.secondary;
  const JointRows secondary = mixRows(loadJointRows(texture, s.frame_a, joint),
                                      loadJointRows(texture, s.frame_b, joint), s.blend);
  return mixRows(primary, secondary, frames.fade);
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
  for (uint32_t j = 0; j < texture->joint_count; ++j)
    palette[j] = blendedJointRows(*texture, frames, j);
  return true;
}

}  // namespace throng
