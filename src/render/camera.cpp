// Camera framing of a world-space box: bounding sphere fitted into the narrower field of view.
#include "throng/render/camera.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace throng::render {

FrameView framingView(const Bounds& bounds, float aspect, const CameraFraming& framing) {
  const glm::vec3 center = 0.5f * (bounds.min + bounds.max);
  float radius = 0.5f * glm::length(bounds.max - bounds.min);
  if (!(radius > 0.0f)) radius = 1.0f;
  radius *= std::max(framing.margin, 1.0f);
  // The sphere fits when it fits the narrower of the vertical and horizontal fields of view.
  const float half_y = 0.5f * framing.fov_y;
  const float half_x = std::atan(std::tan(half_y) * std::max(aspect, 1e-3f));
  const float distance = radius / std::sin(std::min(half_x, half_y));
  const glm::vec3 direction(std::cos(framing.pitch) * std::sin(framing.yaw),
                            std::sin(framing.pitch),
                            std::cos(framing.pitch) * std::cos(framing.yaw));
  auto viewAt = [&](float d) {
    const glm::vec3 eye = center + d * direction;
    const glm::mat4 view = glm::lookAt(eye, center, glm::vec3(0.0f, 1.0f, 0.0f));
    const float near_plane = std::max(d - radius, d * 1e-3f);
    const float far_plane = d + radius;
    return frameViewFromMatrices(view,
                                 glm::perspective(framing.fov_y, aspect, near_plane, far_plane));
  };
  if (!framing.fit_corners) return viewAt(distance);
  // Bisect the distance: the sphere's distance always fits; the nearest fitting one is wanted.
  const float inset = 1.0f / std::max(framing.margin, 1.0f);
  auto fits = [&](float d) {
    const glm::mat4 m = viewAt(d).view_projection;
    for (int c = 0; c < 8; ++c) {
      const glm::vec3 corner((c & 1) ? bounds.max.x : bounds.min.x,
                             (c & 2) ? bounds.max.y : bounds.min.y,
                             (c & 4) ? bounds.max.z : bounds.min.z);
      const glm::vec4 clip = m * glm::vec4(corner, 1.0f);
      if (!(clip.w > 0.0f) || std::abs(clip.x) > inset * clip.w ||
          std::abs(clip.y) > inset * clip.w) {
        return false;
      }
    }
    return true;
  };
  float lo = 0.0f, hi = distance;
  for (int i = 0; i < 32; ++i) {
    const float mid = 0.5f * (lo + hi);
    (fits(mid) ? hi : lo) = mid;
  }
  return viewAt(hi);
}

glm::mat4 framingViewProjection(const Bounds& bounds, float aspect, const CameraFraming& framing) {
  return framingView(bounds, aspect, framing).view_projection;
}

}  // namespace throng::render
