// Tests of the FrameView helpers: the view ray through a point of the picture, and fogAmount.
#include "throng/render/frame_view.h"

#include <gtest/gtest.h>

namespace throng::render {
namespace {

TEST(FrameView, TheViewRayGoesThroughWhatThePointShows) {
  const FrameView view =
      lookAtView(glm::vec3(2.0f, 5.0f, 9.0f), glm::vec3(0.0f, 1.0f, 0.0f), 0.8f, 1.5f, 0.1f, 50.0f);
  for (const glm::vec3& p :
       {glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(3.0f, 0.0f, -4.0f), glm::vec3(-2.0f, 2.0f, 1.0f)}) {
    const glm::vec4 clip = view.view_projection * glm::vec4(p, 1.0f);
    const Ray ray = viewRay(view, glm::vec2(clip) / clip.w);
    // The ray starts on the near plane (0.1 from the eye) and passes through p.
    EXPECT_NEAR(glm::distance(ray.origin, view.eye), 0.1f, 0.05f);
    const glm::vec3 to_p = p - ray.origin;
    const float t = glm::dot(to_p, ray.direction) / glm::dot(ray.direction, ray.direction);
    EXPECT_GT(t, 0.0f);
    EXPECT_LT(t, 1.0f) << "before the far plane";
    EXPECT_LT(glm::distance(ray.origin + t * ray.direction, p), 1e-3f);
  }
}

TEST(FrameView, FogAmountRisesLinearlyFromStartToEnd) {
  Fog fog;
  EXPECT_FALSE(fog.enabled());
  EXPECT_EQ(fogAmount(fog, 1000.0f), 0.0f);
  fog.start = 10.0f;
  fog.end = 30.0f;
  EXPECT_TRUE(fog.enabled());
  EXPECT_EQ(fogAmount(fog, 5.0f), 0.0f);
  EXPECT_FLOAT_EQ(fogAmount(fog, 15.0f), 0.25f);
  EXPECT_EQ(fogAmount(fog, 31.0f), 1.0f);
  fog.end = fog.start;  // empty range: no fog rather than a division by zero
  EXPECT_EQ(fogAmount(fog, 100.0f), 0.0f);
}

}  // namespace
}  // namespace throng::render
