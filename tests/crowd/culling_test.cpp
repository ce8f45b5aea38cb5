// Tests of agent frustum culling: plane extraction and the conservative sphere test.
#include "throng/crowd/culling.h"

#include <random>
#include <vector>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

namespace throng {
namespace {

glm::mat4 camera() {
  // At (0, 1.7, 0) looking down -Z, 60 degree field of view, near 0.1, far 50.
  return glm::perspective(1.0472f, 1.5f, 0.1f, 50.0f) * glm::lookAt(glm::vec3(0.0f, 1.7f, 0.0f),
                                                                    glm::vec3(0.0f, 1.7f, -1.0f),
                                                                    glm::vec3(0.0f, 1.0f, 0.0f));
}

std::vector<BakedClip> clips() {
  std::vector<BakedClip> c(2);
  c[0].bounds = {glm::vec3(-0.4f, 0.0f, -0.2f), glm::vec3(0.4f, 1.8f, 0.2f)};  // standing
  c[1].bounds = {glm::vec3(-0.5f, 0.0f, -2.0f), glm::vec3(0.5f, 0.5f, 0.3f)};  // lying down
  return c;
}

std::vector<uint32_t> cull(const std::vector<Placement>& placements,
                           const std::vector<AgentPlayback>& playback) {
  const auto c = clips();
  std::vector<uint32_t> visible(placements.size());
  uint32_t count = 0;
  EXPECT_TRUE(
      (CullJob{c, placements, playback, frustumFromViewProjection(camera()), visible, &count}
           .run()));
  visible.resize(count);
  return visible;
}

TEST(Culling, PlanesPutTheViewVolumeInside) {
  const Frustum f = frustumFromViewProjection(camera());
  const glm::vec3 ahead(0.0f, 1.7f, -10.0f), behind(0.0f, 1.7f, 10.0f);
  for (const glm::vec4& p : f.planes) {
    EXPECT_GT(glm::dot(glm::vec3(p), ahead) + p.w, 0.0f);
    EXPECT_NEAR(glm::length(glm::vec3(p)), 1.0f, 1e-5f);
  }
  EXPECT_LT(glm::dot(glm::vec3(f.planes[4]), behind) + f.planes[4].w, 0.0f);  // near plane
}

TEST(Culling, KeepsAgentsInViewAndDropsThoseBehindBeyondOrAside) {
  std::vector<Placement> placements(5);
  placements[0].position = glm::vec3(0.0f, 0.0f, -5.0f);    // straight ahead
  placements[1].position = glm::vec3(0.0f, 0.0f, 5.0f);     // behind the camera
  placements[2].position = glm::vec3(0.0f, 0.0f, -80.0f);   // beyond the far plane
  placements[3].position = glm::vec3(-40.0f, 0.0f, -5.0f);  // far to the left
  placements[4].position = glm::vec3(-4.7f, 0.0f, -5.0f);   // straddling the left edge
  const std::vector<AgentPlayback> playback(5);
  EXPECT_EQ(cull(placements, playback), (std::vector<uint32_t>{0, 4}));
}

TEST(Culling, UsesTheFadingClipAndThePlacementsScaleWhateverItsHeading) {
  // A lying body reaches 2 units along its local -Z; scaled 3x it reaches into view from behind
  // the camera's side only through its clip's bounds.
  std::vector<Placement> placements(1);
  placements[0].position = glm::vec3(0.0f, 0.0f, 4.5f);
  std::vector<AgentPlayback> playback(1);
  EXPECT_TRUE(cull(placements, playback).empty());  // standing clip, behind: culled
  playback[0].clip = 1;
  placements[0].scale = 3.0f;
  EXPECT_EQ(cull(placements, playback).size(), 1u);  // long body scaled into view
  // The clip's axis sphere covers the body at every heading, so turning it never culls it (the
  // test costs no sine or cosine).
  placements[0].heading = 3.14159265f;
  EXPECT_EQ(cull(placements, playback).size(), 1u);
  placements[0].scale = 1.0f;  // unscaled it stays behind the camera's side at any heading
  EXPECT_TRUE(cull(placements, playback).empty());
  placements[0].scale = 3.0f;
  playback[0].previous_clip = 1;
  playback[0].clip = 0;
  placements[0].heading = 0.0f;
  playback[0].fade = 0.5f;  // fading out of the long clip: its bounds still count
  EXPECT_EQ(cull(placements, playback).size(), 1u);
}

TEST(Culling, NeverCullsAnAgentWithABoundsCornerOnScreen) {
  const auto c = clips();
  const glm::mat4 vp = camera();
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> u(-1.0f, 1.0f);
  std::vector<Placement> placements(2000);
  std::vector<AgentPlayback> playback(placements.size());
  for (size_t a = 0; a < placements.size(); ++a) {
    placements[a].position = glm::vec3(40.0f * u(rng), 0.0f, 40.0f * u(rng));
    placements[a].heading = 3.14159265f * u(rng);
    placements[a].scale = 1.5f + u(rng);
    playback[a].clip = static_cast<uint16_t>(a % 2);
  }
  const std::vector<uint32_t> visible = cull(placements, playback);
  std::vector<bool> kept(placements.size(), false);
  for (uint32_t a : visible) kept[a] = true;
  size_t on_screen = 0;
  for (size_t a = 0; a < placements.size(); ++a) {
    const Bounds& b = c[playback[a].clip].bounds;
    const glm::mat4 world = vp * placementMatrix(placements[a]);
    bool any_inside = false;
    for (int k = 0; k < 8; ++k) {
      const glm::vec4 corner((k & 1) ? b.max.x : b.min.x, (k & 2) ? b.max.y : b.min.y,
                             (k & 4) ? b.max.z : b.min.z, 1.0f);
      const glm::vec4 clip = world * corner;
      any_inside |= clip.w > 0.0f && std::abs(clip.x) <= clip.w && std::abs(clip.y) <= clip.w &&
                    std::abs(clip.z) <= clip.w;
    }
    on_screen += any_inside;
    if (any_inside) {
      EXPECT_TRUE(kept[a]) << "agent " << a << " is on screen but was culled";
    }
  }
  EXPECT_GT(on_screen, 50u);
  EXPECT_LT(visible.size(), placements.size() / 2);  // and it does cull
}

TEST(Culling, RejectsMismatchedSpansAndBadClips) {
  const auto c = clips();
  std::vector<Placement> placements(2);
  std::vector<AgentPlayback> playback(2);
  std::vector<uint32_t> visible(1);
  uint32_t count = 0;
  const Frustum f = frustumFromViewProjection(camera());
  EXPECT_FALSE((CullJob{c, placements, playback, f, visible, &count}.run()));
  visible.resize(2);
  playback[1].clip = 9;
  EXPECT_FALSE((CullJob{c, placements, playback, f, visible, &count}.run()));
}

}  // namespace
}  // namespace throng
