// The page's orbit camera.
#include "orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace throng::web {
namespace {

// Pitch stays a little off the poles, where lookAt's up vector would be degenerate.
constexpr float kMinPitch = 0.02f;
constexpr float kMaxPitch = 1.5f;
// Near plane as a fraction of the distance: keeps depth precision for a 16-bit WebGL 1 buffer.
constexpr float kNearFraction = 0.02f;

}  // namespace

void OrbitCamera::orbit(float yaw_delta, float pitch_delta) {
  yaw = std::remainder(yaw + yaw_delta, 6.2831853f);
  pitch = std::clamp(pitch + pitch_delta, kMinPitch, kMaxPitch);
}

void OrbitCamera::zoom(float factor, float min_distance, float max_distance) {
  if (!(factor > 0.0f)) return;
  distance = std::clamp(distance * factor, min_distance, max_distance);
}

glm::vec3 OrbitCamera::eye() const {
  const float c = std::cos(pitch);
  return target + distance * glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

render::FrameView OrbitCamera::frameView(float aspect, float scene_radius) const {
  const float near_plane = std::max(kNearFraction * distance, 1e-3f);
  const float far_plane = distance + 2.0f * scene_radius + near_plane;
  return render::lookAtView(eye(), target, fov_y, aspect, near_plane, far_plane);
}

float OrbitCamera::framingDistance(float radius) const {
  return radius / std::sin(0.5f * fov_y);
}

}  // namespace throng::web
