// An independent C++ implementation of the built-in look as docs/shaders.md writes it (glTF
// metallic-roughness under FrameView's light): what render tests compare the shaders' pixels with.
// Written from the document, not from shaders/common/pbr.glsl, in double precision.
#pragma once

#include <glm/glm.hpp>

#include "throng/render/frame_view.h"

namespace throng::test {

// One shaded point: the material's values there and the geometry (world space, unit vectors).
struct PbrPoint {
  glm::dvec3 base_color{1.0};  // linear RGB: factor x texture x vertex colour x tint
  double metallic = 0.0;
  double roughness = 1.0;  // perceptual
  double occlusion = 1.0;
  glm::dvec3 emissive{0.0};
  glm::dvec3 normal{0.0, 0.0, 1.0};  // the shading normal
  glm::dvec3 view{0.0, 0.0, 1.0};    // towards the eye
  double shadow = 1.0;               // 1 lit .. 0 shadowed
};

// The linear colour docs/shaders.md gives for `p` under `light`'s light (its light_direction,
// light_color, light_intensity, sky_color, ground_color).
glm::dvec3 shadePbr(const PbrPoint& p, const render::FrameView& light);

// The 8-bit value throng writes for linear colour `c` (clamped, sRGB-encoded, no fog).
glm::ivec3 encodedColour(const glm::dvec3& c);

// The sRGB decoding of an 8-bit channel (colour textures).
double srgbToLinear(double c);

}  // namespace throng::test
