// FrameView constructors from camera matrices and look-at parameters.
#include "throng/render/frame_view.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace throng::render {

float fogAmount(const Fog& fog, float distance) {
  if (!fog.enabled()) return 0.0f;
  return std::clamp((distance - fog.start) / (fog.end - fog.start), 0.0f, 1.0f);
}

FrameView frameViewFromMatrices(const glm::mat4& view, const glm::mat4& projection) {
  FrameView out;
  out.view_projection = projection * view;
  out.eye = glm::vec3(glm::inverse(view)[3]);
  out.fov_y = projection[1][1] > 0.0f ? 2.0f * std::atan(1.0f / projection[1][1]) : 0.0f;
  return out;
}

FrameView lookAtView(const glm::vec3& eye, const glm::vec3& target, float fov_y, float aspect,
                     float near_plane, float far_plane) {
  return frameViewFromMatrices(glm::lookAt(eye, target, glm::vec3(0.0f, 1.0f, 0.0f)),
                               glm::perspective(fov_y, aspect, near_plane, far_plane));
}

Ray viewRay(const FrameView& view, const glm::vec2& ndc) {
  const glm::mat4 inverse = glm::inverse(view.view_projection);
  glm::vec4 near_point = inverse * glm::vec4(ndc, -1.0f, 1.0f);
  glm::vec4 far_point = inverse * glm::vec4(ndc, 1.0f, 1.0f);
  near_point /= near_point.w;
  far_point /= far_point.w;
  return {glm::vec3(near_point), glm::vec3(far_point - near_point)};
}

LodView lodViewOf(const FrameView& view, int frame_height, float threshold_pixels) {
  LodView out;
  out.eye = view.eye;
  out.fov_y = view.fov_y;
  out.viewport_height =
      view.viewport_height > 0.0f ? view.viewport_height : static_cast<float>(frame_height);
  out.threshold_pixels = threshold_pixels;
  return out;
}

}  // namespace throng::render
