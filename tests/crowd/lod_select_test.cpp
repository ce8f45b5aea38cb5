// Tests of the crowd's LOD selection job: the one LOD rule per agent, fixed LODs, remaps, chunks.
#include "throng/crowd/lod_select.h"

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include <gtest/gtest.h>

#include "throng/crowd/lod_pick.h"

namespace throng {
namespace {

// Three LODs: up to 10 units, up to 30, beyond.
std::vector<MeshLod> lods() {
  std::vector<MeshLod> out(3);
  out[0].max_distance = 10.0f;
  out[1].max_distance = 30.0f;
  return out;
}

// Agents on the +X axis at 5, 15, 25, ... units from an eye at the origin.
std::vector<Placement> row(int count) {
  std::vector<Placement> out(count);
  for (int i = 0; i < count; ++i) out[i].position = glm::vec3(5.0f + 10.0f * i, 0.0f, 0.0f);
  return out;
}

// LodRule (squared distances against limits worked out once) gives the answer of the rule written
// out per agent (distance, nearest point, pixelsPerUnit, pickLodScreenSpace), except within float
// rounding of a switch distance; errors out of order (a coarser LOD more exact than a finer one)
// and an error of 0 included.
TEST(LodSelect, LodRuleAgreesWithTheRuleWrittenOutPerAgent) {
  std::vector<MeshLod> l(5);
  const float errors[] = {0.0f, 0.004f, 0.02f, 0.012f, 0.08f};
  for (size_t i = 0; i < l.size(); ++i) l[i].max_error = errors[i];
  std::vector<MeshLod> with_zero = l;
  with_zero[2].max_error = 0.0f;
  std::mt19937 random(11);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (const auto* lods : {&l, &with_zero}) {
    for (const float reach : {0.0f, 0.9f}) {
      LodView view;
      view.eye = glm::vec3(1.0f, 2.0f, -3.0f);
      view.fov_y = 0.9f;
      view.viewport_height = 1080.0f;
      view.threshold_pixels = 1.5f;
      view.reach = reach;
      const LodRule rule(*lods, view);
      const LodProjection projection{view.fov_y, view.viewport_height};
      int checked = 0;
      for (int i = 0; i < 20000; ++i) {
        Placement p;
        p.position = view.eye + glm::vec3(unit(random) - 0.5f, 0.0f, unit(random) - 0.5f) *
                                    std::pow(10.0f, 3.0f * unit(random));
        p.scale = i % 3 == 0 ? 1.0f : 0.25f + 2.0f * unit(random);
        const float distance = modelDistance(glm::distance(view.eye, p.position), p.scale);
        const float nearest = std::max(0.0f, distance - reach);
        const int expected = pickLodScreenSpace(*lods, nearest, projection, view.threshold_pixels);
        const int got = rule.pick(p);
        if (got == expected) {
          ++checked;
          continue;
        }
        // Only at a switch: the budget there equals a LOD's error to float rounding.
        const float budget = view.threshold_pixels / pixelsPerUnit(nearest, projection);
        float closest = 1e30f;
        for (const MeshLod& lod : *lods)
          closest = std::min(closest, std::abs(lod.max_error - budget) / std::max(budget, 1e-12f));
        EXPECT_LT(closest, 1e-4f) << "distance " << distance << ": rule " << got << ", written out "
                                  << expected;
      }
      EXPECT_GT(checked, 19900);
    }
  }
}

TEST(LodSelect, AgentLodIsTheLodRuleAtTheAgentsDistanceAndScale) {
  const auto l = lods();
  LodView view;
  Placement p;
  p.position = glm::vec3(0.0f, 0.0f, 20.0f);
  EXPECT_EQ(agentLod(l, view, p), pickLod(l, 20.0f));
  p.scale = 2.0f;  // twice as big looks as near as half the distance
  EXPECT_EQ(agentLod(l, view, p), pickLod(l, 10.0f));
  view.eye = glm::vec3(0.0f, 0.0f, 20.0f);
  EXPECT_EQ(agentLod(l, view, p), 0);
}

// A perspective view: the screen-space rule at the distance to the agent's nearest point (origin
// distance less the reach, in model units), with the view's threshold.
TEST(LodSelect, PerspectiveViewsUseTheScreenSpaceRuleToTheNearestPoint) {
  std::vector<MeshLod> l(3);
  l[1].max_error = 0.01f;  // first picked at 0.01 * 1080 / (2 tan 30deg) = 9.353 units (1 px)
  l[2].max_error = 0.05f;  // 46.77 units
  LodView view;
  view.fov_y = 1.04719755f;
  view.viewport_height = 1080.0f;
  view.reach = 1.0f;
  const LodProjection projection{view.fov_y, view.viewport_height};
  Placement p;
  p.position = glm::vec3(0.0f, 0.0f, 10.0f);  // nearest point 9 units away: LOD 1 too coarse
  EXPECT_EQ(agentLod(l, view, p), 0);
  EXPECT_EQ(pickLodScreenSpace(l, 10.0f, projection, 1.0f), 1);  // to the origin it would not be
  p.position.z = 10.5f;
  EXPECT_EQ(agentLod(l, view, p), 1);
  p.position.z = 48.0f;
  EXPECT_EQ(agentLod(l, view, p), 2);
  p.position.z = 20.0f;
  p.scale = 2.0f;  // 10 model units to the origin, 9 to the nearest point
  EXPECT_EQ(agentLod(l, view, p), 0);
  view.threshold_pixels = 2.0f;  // twice the error allowed: every switch at half the distance
  EXPECT_EQ(agentLod(l, view, p), 1);
  p.scale = 1.0f;
  p.position.z = 25.0f;  // 24 units: past 46.77 / 2
  EXPECT_EQ(agentLod(l, view, p), 2);
  EXPECT_EQ(agentLod(l, view, p), pickLodScreenSpace(l, 24.0f, projection, 2.0f));
}

TEST(LodSelect, ReachIsTheFarthestVertexOfLodZero) {
  EXPECT_EQ(lodReach({}), 0.0f);
  std::vector<MeshLod> lods(2);
  lods[0].mesh.positions = {{0.0f, 1.0f, 0.0f}, {3.0f, 0.0f, 4.0f}, {-1.0f, -2.0f, 2.0f}};
  lods[1].mesh.positions = {{0.0f, 10.0f, 0.0f}};  // only LOD 0 counts
  EXPECT_FLOAT_EQ(lodReach(lods), 5.0f);
  lods[0].mesh.positions.clear();
  EXPECT_EQ(lodReach(lods), 0.0f);
}

TEST(LodSelect, CountsEveryPickedAgentAndSkipsTheOthers) {
  const auto l = lods();
  const auto placements = row(6);  // 5, 15, 25, 35, 45, 55
  const std::vector<uint32_t> agents = {5, 0, 2, 1};
  std::vector<uint8_t> lod(agents.size());
  std::vector<uint32_t> counts(3, 0);
  ASSERT_TRUE((LodSelectJob{l, {}, placements, agents, {}, -1, lod, counts}.run()));
  EXPECT_EQ(lod, (std::vector<uint8_t>{2, 0, 1, 1}));
  EXPECT_EQ(counts, (std::vector<uint32_t>{1, 2, 1}));
  // Counts add up over runs (chunks may share one array).
  ASSERT_TRUE((LodSelectJob{l, {}, placements, agents, {}, -1, lod, counts}.run()));
  EXPECT_EQ(counts, (std::vector<uint32_t>{2, 4, 2}));
}

TEST(LodSelect, FixedLodAndDrawnLodRemap) {
  const auto l = lods();
  const auto placements = row(4);
  const std::vector<uint32_t> agents = {0, 1, 2, 3};
  std::vector<uint8_t> lod(4);
  std::vector<uint32_t> counts(3, 0);
  ASSERT_TRUE((LodSelectJob{l, {}, placements, agents, {}, 2, lod, counts}.run()));
  EXPECT_EQ(lod, (std::vector<uint8_t>{2, 2, 2, 2}));
  EXPECT_EQ(counts, (std::vector<uint32_t>{0, 0, 4}));
  // A renderer that draws LOD 0 with LOD 1's mesh.
  const std::vector<uint8_t> drawn = {1, 1, 2};
  counts.assign(3, 0);
  ASSERT_TRUE((LodSelectJob{l, {}, placements, agents, drawn, -1, lod, counts}.run()));
  EXPECT_EQ(lod, (std::vector<uint8_t>{1, 1, 1, 2}));
  EXPECT_EQ(counts, (std::vector<uint32_t>{0, 3, 1}));
}

TEST(LodSelect, ChunksGiveWhatOneRunGives) {
  const auto l = lods();
  const auto placements = row(9);
  std::vector<uint32_t> agents(9);
  for (uint32_t i = 0; i < 9; ++i) agents[i] = 8 - i;
  std::vector<uint8_t> whole(9), chunked(9);
  std::vector<uint32_t> whole_counts(3, 0), chunk_counts(3, 0);
  ASSERT_TRUE((LodSelectJob{l, {}, placements, agents, {}, -1, whole, whole_counts}.run()));
  for (size_t first = 0; first < 9; first += 4) {
    const size_t n = std::min<size_t>(4, 9 - first);
    ASSERT_TRUE((LodSelectJob{l,
                              {},
                              placements,
                              std::span(agents).subspan(first, n),
                              {},
                              -1,
                              std::span(chunked).subspan(first, n),
                              chunk_counts}
                     .run()));
  }
  EXPECT_EQ(whole, chunked);
  EXPECT_EQ(whole_counts, chunk_counts);
}

TEST(LodSelect, RejectsInconsistentSpans) {
  const auto l = lods();
  const auto placements = row(2);
  const std::vector<uint32_t> agents = {0, 1};
  std::vector<uint8_t> lod(2);
  std::vector<uint32_t> counts(3, 0);
  const std::vector<uint32_t> stranger = {0, 7};
  EXPECT_FALSE((LodSelectJob{l, {}, placements, stranger, {}, -1, lod, counts}.run()));
  std::vector<uint8_t> short_lod(1);
  EXPECT_FALSE((LodSelectJob{l, {}, placements, agents, {}, -1, short_lod, counts}.run()));
  std::vector<uint32_t> short_counts(2, 0);
  EXPECT_FALSE((LodSelectJob{l, {}, placements, agents, {}, -1, lod, short_counts}.run()));
  EXPECT_FALSE((LodSelectJob{l, {}, placements, agents, {}, 3, lod, counts}.run()));
  const std::vector<uint8_t> bad_remap = {0, 5, 2};
  EXPECT_FALSE((LodSelectJob{l, {}, placements, agents, bad_remap, -1, lod, counts}.run()));
  EXPECT_FALSE((LodSelectJob{{}, {}, placements, agents, {}, -1, lod, counts}.run()));
  EXPECT_EQ(counts, (std::vector<uint32_t>{0, 0, 0}));  // nothing written by a failed run
}

}  // namespace
}  // namespace throng
