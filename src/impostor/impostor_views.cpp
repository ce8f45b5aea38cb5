// The bake's orthographic row cameras (docs/lods.md, "Impostors").
#include "throng/impostor/impostor_views.h"

#include <glm/gtc/matrix_transform.hpp>

namespace throng::impostor {
namespace {

struct RowBasis {
  glm::vec3 toward{0.0f};  // from the model to the camera
  glm::vec3 right{0.0f};
  glm::vec3 up{0.0f};
};

RowBasis rowBasis(glm::vec3 toward) {
  RowBasis b;
  b.toward = toward;
  // Band centres and the measured directions stay below 90 degrees, so +Y is never parallel to
  // the view.
  b.up = glm::normalize(glm::vec3(0.0f, 1.0f, 0.0f) - b.toward * b.toward.y);
  b.right = glm::cross(b.up, b.toward);
  return b;
}

// The camera stands this many bounding sizes away: far enough that no part of the model is
// behind it, near enough that depth keeps its precision.
constexpr float kEyeDistanceSizes = 4.0f;

float reach(const Impostor& m) {
  return glm::length(m.size) + 1e-6f;
}

glm::vec3 viewDirection(const Impostor& m, uint32_t view) {
  return impostorViewDirection(m.azimuths, m.elevations, view / m.azimuths, view % m.azimuths);
}

}  // namespace

glm::mat4 impostorRowViewProjection(const Impostor& m, uint32_t view) {
  return impostorRowViewProjection(m, viewDirection(m, view));
}

render::FrameView impostorRowView(const Impostor& m, uint32_t view) {
  return impostorRowView(m, viewDirection(m, view));
}

glm::vec3 impostorAgentPosition(const Impostor& m, uint32_t view, uint32_t column) {
  return impostorAgentPosition(m, viewDirection(m, view), column);
}

glm::mat4 impostorRowViewProjection(const Impostor& m, glm::vec3 toward) {
  const RowBasis b = rowBasis(toward);
  const float d = kEyeDistanceSizes * reach(m);
  const glm::mat4 look = glm::lookAt(m.center + b.toward * d, m.center, b.up);
  const float half_width = 0.5f * m.size.x * static_cast<float>(m.frameCount());
  const float half_height = 0.5f * m.size.y;
  // The row's first tile starts at the left edge: agents stand at right * (column centre).
  const glm::mat4 ortho = glm::ortho(-half_width, half_width, -half_height, half_height,
                                     d - 2.0f * reach(m), d + 2.0f * reach(m));
  return ortho * look;
}

render::FrameView impostorRowView(const Impostor& m, glm::vec3 toward) {
  render::FrameView v;
  v.view_projection = impostorRowViewProjection(m, toward);
  v.eye = m.center + toward * kEyeDistanceSizes * reach(m);
  v.fov_y = 0.0f;
  v.viewport_height = static_cast<float>(m.tile_height);
  return v;
}

glm::vec3 impostorAgentPosition(const Impostor& m, glm::vec3 toward, uint32_t column) {
  const float x =
      (static_cast<float>(column) + 0.5f - 0.5f * static_cast<float>(m.frameCount())) * m.size.x;
  return rowBasis(toward).right * x;
}

}  // namespace throng::impostor
