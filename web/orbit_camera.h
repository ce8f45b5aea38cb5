// The page's orbit camera: yaw, pitch and distance around a target point, mouse-driven.
#pragma once

#include <glm/glm.hpp>

#include "throng/render/frame_view.h"

namespace throng::web {

struct OrbitCamera {
  glm::vec3 target{0.0f};    // world point the camera circles and looks at
  float yaw = 0.6f;          // radians about +Y; 0 puts the camera on the +Z side
  float pitch = 0.55f;       // radians above the horizon, kept inside (kMinPitch, kMaxPitch)
  float distance = 10.0f;    // world units from the target
  float fov_y = 0.7853982f;  // radians (45 degrees)

  // Drag: radians of yaw and pitch to add (pitch is clamped).
  void orbit(float yaw_delta, float pitch_delta);
  // Wheel: multiplies the distance by `factor` (> 0), clamped to [min_distance, max_distance].
  void zoom(float factor, float min_distance, float max_distance);
  glm::vec3 eye() const;
  // The view for a viewport of `aspect` = width / height; the near and far planes bracket a scene
  // of `scene_radius` world units around the target.
  render::FrameView frameView(float aspect, float scene_radius) const;
  // The distance at which a sphere of `radius` around the target fills the view's height.
  float framingDistance(float radius) const;
};

}  // namespace throng::web
