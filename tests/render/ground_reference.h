// The ground's colour as the render tests expect it (ground.frag and blob_shadow.frag's formula,
// written from GroundDesc's and FrameView's documentation): a Lambert plane facing up under the
// sky's light and the directional light, which a shadow map takes away where the crowd shadows
// it, darkened by blob shadows. No grid lines, no fog (the callers add it).
#pragma once

#include <algorithm>

#include <glm/glm.hpp>

#include "throng/render/frame_view.h"
#include "throng/render/ground.h"

namespace throng::test {

// base x (sky + light colour x intensity x max(-l.y, 0) x lit), written as it is (no encoding);
// `lit` is 1 in the light, 0 in the shadow map's shadow.
inline glm::vec3 groundColour(const render::FrameView& view, const glm::vec3& base,
                              float lit = 1.0f) {
  const float diffuse = std::max(-glm::normalize(view.light_direction).y, 0.0f);
  return base * (view.sky_color + view.light_color * view.light_intensity * diffuse * lit);
}

// The share of the ground's colour a blob shadow of `opacity` keeps `r` of its radii from the
// agent: 1 - opacity (1 - r^2)^2 inside the disc, 1 outside.
inline float blobShadowKept(float r, float opacity) {
  const float r2 = r * r;
  const float falloff = r2 < 1.0f ? (1.0f - r2) * (1.0f - r2) : 0.0f;
  return 1.0f - opacity * falloff;
}

}  // namespace throng::test
