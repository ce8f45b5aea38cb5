// FrameView constructors from camera matrices and look-at parameters.
#include "throng/render/frame_view.h"

#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace throng::render {

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
