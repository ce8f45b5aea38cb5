// OrbitCamera: spherical coordinates around a target, mouse moves mapped to angles and distances.
#include "orbit_camera.h"

#include <algorithm>
#include <cmath>

namespace throng::viewer {
namespace {

constexpr float kRadiansPerPixel = 0.006f;
constexpr float kMinPitch = 0.03f;  // just above the ground
constexpr float kMaxPitch = 1.50f;  // just short of straight down (lookAt needs a horizon)
constexpr float kZoomPerStep = 0.88f;
constexpr float kMinDistance = 0.05f;
constexpr float kMaxDistance = 1.0e5f;
// Near plane as a share of the distance to the target: near enough to see what is looked at.
constexpr float kNearShare = 0.01f;

}  // namespace

glm::vec3 OrbitCamera::eye() const {
  const float c = std::cos(pitch);
  return target + distance * glm::vec3(c * std::sin(yaw), std::sin(pitch), c * std::cos(yaw));
}

void OrbitCamera::orbit(const glm::vec2& pixels) {
  yaw -= pixels.x * kRadiansPerPixel;
  pitch = std::clamp(pitch + pixels.y * kRadiansPerPixel, kMinPitch, kMaxPitch);
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

void OrbitCamera::zoom(float steps) {
  distance = std::clamp(distance * std::pow(kZoomPerStep, steps), kMinDistance, kMaxDistance);
}

void OrbitCamera::frame(const glm::vec2& center, float radius, float height, float aspect) {
  target = glm::vec3(center.x, 0.4f * height, center.y);
  const float half = 0.5f * fov_y;
  const float half_x = std::atan(std::tan(half) * std::max(aspect, 0.1f));
  const float fit = std::max(radius, height) / std::sin(std::min(half, half_x));
  distance = std::clamp(fit, kMinDistance, kMaxDistance);
}

render::FrameView OrbitCamera::view(float aspect, float far_plane) const {
  const float near_plane = std::max(kNearShare * distance, 1e-3f);
  return render::lookAtView(eye(), target, fov_y, aspect, near_plane,
                            std::max(far_plane, 2.0f * near_plane));
}

}  // namespace throng::viewer
