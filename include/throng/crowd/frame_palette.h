// The CPU twin of the instanced vertex shader's palette blend: what the GPU must reproduce.
#pragma once

#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
#include "throng/core/math.h"
#include "throng/crowd/playback.h"

namespace throng {

// The palette entry of `joint` for `frames`, blended as shaders/gles3/instanced.vert does:
//   (1 - fade) * mix(P[a], P[b], blend) + fade * mix(S[a], S[b], blend2)
// (mixRows, row by row), with texels read by loadJointRows (halves widened exactly). Like the
// shader it reads only the primary pair when fade <= 0, which gives the same value. Requires
// joint < joint_count and the frame indices it reads < frame_count (asserted).
JointRows blendedJointRows(const AnimationTexture& texture, const InstanceFrames& frames,
                           uint32_t joint);

// palette[j] = blendedJointRows(*texture, frames, j) for every joint: exactly the arithmetic of
// shaders/gles3/instanced.vert, so the GPU's skinned vertices can be compared with SkinJob over
// this palette. palette.size() must equal texture->joint_count; every frame index must be
// < texture->frame_count.
struct FramePaletteJob {
  const AnimationTexture* texture = nullptr;
  InstanceFrames frames;
  std::span<JointRows> palette;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
