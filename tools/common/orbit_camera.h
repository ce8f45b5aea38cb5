// The orbit camera of the viewer and the web page: it circles a target point on the ground,
// pans across it and zooms, driven by the mouse.
#pragma once

#include <glm/glm.hpp>

#include "throng/render/frame_view.h"

namespace throng::cli {

// Mouse-drag radians per pixel the viewer turns by (the page turns faster: its canvas is smaller).
inline constexpr float kOrbitRadiansPerPixel = 0.006f;
// Distances the camera keeps to its target (world units): near enough to see a hand, far
// enough for a million agents.
inline constexpr float kMinOrbitDistance = 0.05f;
inline constexpr float kMaxOrbitDistance = 1.0e5f;

struct OrbitCamera {
  glm::vec3 target{0.0f};  // the point looked at (world)
  float yaw = 0.5f;        // radians about +Y; 0 puts the camera on the +Z side
  float pitch = 0.5f;      // radians above the ground plane, kept in kMinPitch..kMaxPitch
  float distance = 20.0f;  // world units from the target
  float fov_y = 0.8f;      // radians
  // Near plane as a share of the distance to the target: near enough to see what is looked at,
  // far enough for the depth buffer's precision (a 16-bit WebGL 1 buffer wants more).
  float near_share = 0.01f;

  glm::vec3 eye() const;
  // Turns by a mouse move of `pixels` (x: yaw, y: pitch, clamped), `radians_per_pixel` each.
  void orbit(const glm::vec2& pixels, float radians_per_pixel = kOrbitRadiansPerPixel);
  // Slides the target along the ground so the point under the mouse follows a move of `pixels`
  // in a view `viewport_height` pixels tall.
  void pan(const glm::vec2& pixels, float viewport_height);
  // Multiplies the distance by `factor` (> 0; < 1 moves in), kept in [min_distance,
  // max_distance].
  void zoom(float factor, float min_distance = kMinOrbitDistance,
            float max_distance = kMaxOrbitDistance);
  // The distance from which a disc of `radius` world units, objects `height` tall, fills a view
  // of `aspect` = width / height.
  float framingDistance(float radius, float height, float aspect) const;
  // Looks at a disc of `radius` world units around `center` (world x, z), objects `height` tall,
  // from the current angles.
  void frame(const glm::vec2& center, float radius, float height, float aspect);
  // World units from the eye to the near plane.
  float nearPlane() const;
  // The frame's view: `aspect` = width / height, the far plane at `far_plane` world units.
  render::FrameView view(float aspect, float far_plane) const;
};

}  // namespace throng::cli
