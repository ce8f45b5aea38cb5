// The CPU twin of the instanced vertex shader's palette blend: what the GPU must reproduce.
#pragma once

#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
#include "throng/core/math.h"
#include "throng/crowd/playback.h"

namespace throng {

// Rows of joint `joint` at texture frame `frame`, as the shader's texelFetch reads them (half
// floats widened exactly). Requires frame < frame_count, joint < joint_count and texel storage
// of width * height * 4 values for the texture's format.
JointRows textureJoint(const AnimationTexture& texture, uint32_t frame, uint32_t joint);

// palette[j] = (1 - fade) * mix(P[a], P[b], blend) + fade * mix(S[a], S[b], blend2), row by row,
// where P/S are the primary/secondary frames of `frames` and mix(x, y, t) = x * (1 - t) + y * t
// (GLSL's mix). This is exactly the arithmetic of shaders/gles3/instanced.vert, so the GPU's
// skinned vertices can be compared with SkinJob over this palette. palette.size() must equal
// texture->joint_count; every frame index must be < texture->frame_count.
struct FramePaletteJob {
  const AnimationTexture* texture = nullptr;
  InstanceFrames frames;
  std::span<JointRows> palette;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
