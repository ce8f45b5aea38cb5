// OrbitCamera: spherical coordinates around a target, mouse moves mapped to angles and distances.
#include "orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace throng::cli {
namespace {

constexpr float kMinPitch = 0.03f;  // just above the ground
constexpr float kMaxPitch = 1.50f;  // just short of straight down (lookAt needs a horizon)
constexpr float kTurn = 6.2831853f;

}  // namespace

glm::vec3 OrbitCamera::eye() const {
  const float c = std::cos(pitch);
  return target + distance * glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

void OrbitCamera::orbit(const glm::vec2& pixels, float radians_per_pixel) {
  yaw = std::remainder(yaw - pixels.x * radians_per_pixel, kTurn);
  pitch = std::clamp(pitch + pixels.y * radians_per_pixel, kMinPitch, kMaxPitch);
}

void OrbitCamera::pan(const glm::vec2& pixels, float viewport_height) {
  // World units per pixel at the target's distance.
  const float scale = 2.0f * distance * std::tan(0.5f * fov_y) / std::max(viewport_height, 1.0f);
  const glm::vec3 right(std::cos(yaw), 0.0f, -std::sin(yaw));
  const glm::vec3 forward(-std::sin(yaw), 0.0f, -std::cos(yaw));  // along the ground
  // Dragging right pulls the world right: the target moves left. Dragging down (screen y+)
  // pulls the world towards the viewer: the target moves forward, faster the flatter the view.
  target += scale * (-pixels.x * right + pixels.y * forward / std::max(std::sin(pitch), 0.2f));
}

void OrbitCamera::zoom(float factor, float min_distance, float max_distance) {
  if (!(factor > 0.0f)) return;
  distance = std::clamp(distance * factor, min_distance, max_distance);
}

float OrbitCamera::framingDistance(float radius, float height, float aspect) const {
  const float half = 0.5f * fov_y;
  const float half_x = std::atan(std::tan(half) * std::max(aspect, 0.1f));
  return std::max(radius, height) / std::sin(std::min(half, half_x));
}

void OrbitCamera::frame(const glm::vec2& center, float radius, float height, float aspect) {
  target = glm::vec3(center.x, 0.4f * height, center.y);
  distance =
      std::clamp(framingDistance(radius, height, aspect), kMinOrbitDistance, kMaxOrbitDistance);
}

float OrbitCamera::nearPlane() const {
  return std::max(near_share * distance, 1e-3f);
}

render::FrameView OrbitCamera::view(float aspect, float far_plane) const {
  const float near_plane = nearPlane();
  return render::lookAtView(eye(), target, fov_y, aspect, near_plane,
                            std::max(far_plane, 2.0f * near_plane));
}

}  // namespace throng::cli
