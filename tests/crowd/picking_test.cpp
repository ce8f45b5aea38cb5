// Tests of picking: the nearest agent a ray meets through its turned and scaled bounds, misses,
// and agents inside a screen rectangle (in front of the camera only).
#include "throng/crowd/picking.h"

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

namespace throng {
namespace {

// One clip whose bounds are a thin wall: 2 wide (x), 2 tall (y), 0.2 deep (z).
std::vector<BakedClip> wallClip() {
  BakedClip clip;
  clip.name = "stand";
  clip.bounds = {glm::vec3(-1.0f, 0.0f, -0.1f), glm::vec3(1.0f, 2.0f, 0.1f)};
  return {clip};
}

TEST(Picking, TheRayPicksTheNearestAgentItMeets) {
  const std::vector<BakedClip> clips = wallClip();
  std::vector<Placement> placements(3);
  placements[0].position = glm::vec3(0.0f, 0.0f, -10.0f);
  placements[1].position = glm::vec3(0.0f, 0.0f, -5.0f);
  placements[2].position = glm::vec3(5.0f, 0.0f, -5.0f);
  const std::vector<AgentPlayback> playback(3);
  float t = -1.0f;
  const Ray forward{glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, forward, &t), 1);
  EXPECT_NEAR(t, 4.9f, 1e-4f);
  const Ray above{glm::vec3(0.0f, 3.0f, 0.0f), glm::vec3(0.0f, 0.0f, -1.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, above), -1) << "over their heads";
  const Ray backwards{glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 0.0f, 1.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, backwards), -1) << "behind the ray";
  const Ray right{glm::vec3(5.0f, 1.0f, 0.0f), glm::vec3(0.0f, 0.0f, -2.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, right, &t), 2);
  EXPECT_NEAR(t, 2.45f, 1e-4f) << "t counts in units of the direction";
}

TEST(Picking, BoundsTurnAndScaleWithThePlacement) {
  const std::vector<BakedClip> clips = wallClip();
  std::vector<Placement> placements(1);
  placements[0].position = glm::vec3(0.0f, 0.0f, -5.0f);
  const std::vector<AgentPlayback> playback(1);
  // A ray along x, 0.5 in front of the wall's centre: misses the 0.2-deep wall...
  const Ray sideways{glm::vec3(-10.0f, 1.0f, -4.5f), glm::vec3(1.0f, 0.0f, 0.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, sideways), -1);
  // ...but meets it turned a quarter (its 2-unit width now along z)...
  placements[0].heading = 1.5707964f;
  EXPECT_EQ(pickAgent(clips, placements, playback, sideways), 0);
  // ...and a ray at height 3 meets it only when it is scaled twice as tall.
  const Ray high{glm::vec3(-10.0f, 3.0f, -5.0f), glm::vec3(1.0f, 0.0f, 0.0f)};
  EXPECT_EQ(pickAgent(clips, placements, playback, high), -1);
  placements[0].scale = 2.0f;
  float t = 0.0f;
  EXPECT_EQ(pickAgent(clips, placements, playback, high, &t), 0);
  EXPECT_NEAR(t, 10.0f - 0.2f, 1e-4f) << "the turned, scaled wall is 0.4 thick along x";
  // An agent playing a clip the crowd lacks is skipped, not read out of bounds.
  std::vector<AgentPlayback> bad(1);
  bad[0].clip = 3;
  EXPECT_EQ(pickAgent(clips, placements, bad, high), -1);
}

TEST(Picking, TheRectangleHoldsTheAgentsWhoseCentresProjectIntoIt) {
  const std::vector<BakedClip> clips = wallClip();
  const glm::mat4 view_projection =
      glm::perspective(1.0f, 1.0f, 0.1f, 100.0f) *
      glm::lookAt(glm::vec3(0.0f, 1.0f, 0.0f), glm::vec3(0.0f, 1.0f, -1.0f), glm::vec3(0, 1, 0));
  std::vector<Placement> placements(4);
  placements[0].position = glm::vec3(-1.0f, 0.0f, -10.0f);  // left of centre
  placements[1].position = glm::vec3(1.0f, 0.0f, -10.0f);   // right of centre
  placements[2].position = glm::vec3(0.0f, 0.0f, -10.0f);   // centre
  placements[3].position = glm::vec3(0.0f, 0.0f, 10.0f);    // behind the camera
  const std::vector<AgentPlayback> playback(4);
  std::vector<uint32_t> inside;
  agentsInRectangle(clips, placements, playback, view_projection, glm::vec2(0.5f, 0.5f),
                    glm::vec2(-0.05f, -0.5f), inside);
  EXPECT_EQ(inside, (std::vector<uint32_t>{1, 2}));
  inside.clear();
  agentsInRectangle(clips, placements, playback, view_projection, glm::vec2(-1.0f), glm::vec2(1.0f),
                    inside);
  EXPECT_EQ(inside, (std::vector<uint32_t>{0, 1, 2})) << "never the agent behind the camera";
}

}  // namespace
}  // namespace throng
