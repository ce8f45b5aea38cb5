// The viewer's camera: orbits a target point on the ground, pans across it and zooms.
#pragma once

#include <glm/glm.hpp>

#include "throng/render/frame_view.h"

namespace throng::viewer {

struct OrbitCamera {
  glm::vec3 target{0.0f};  // the point looked at (world)
  float yaw = 0.5f;        // radians about +Y; 0 puts the camera on the +Z side
  float pitch = 0.5f;      // radians above the ground plane, kept in kMinPitch..kMaxPitch
  float distance = 20.0f;  // world units from the target
  float fov_y = 0.8f;      // radians

  glm::vec3 eye() const;
  // Turns by a mouse move of `pixels` (x: yaw, y: pitch).
  void orbit(const glm::vec2& pixels);
  // Slides the target along the ground so the point under the mouse follows a move of `pixels`
  // in a view `viewport_height` pixels tall.
  void pan(const glm::vec2& pixels, float viewport_height);
  // Moves in (steps > 0) or out by mouse-wheel steps.
  void zoom(float steps);
  // Looks at a disc of `radius` world units around `center` (world x, z), objects `height` tall,
  // from the current angles.
  void frame(const glm::vec2& center, float radius, float height, float aspect);
  // The frame's view: `aspect` = width / height, the far plane at `far_plane` world units.
  render::FrameView view(float aspect, float far_plane) const;
};

}  // namespace throng::viewer
