// Tests of the pose jobs and the CPU reference skinner against hand-computed poses.
#include <cmath>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

std::vector<glm::vec3> skin(const Character& c, const Clip* clip, float time) {
  PoseScratch scratch;
  std::vector<JointRows> palette(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, clip, time, scratch, palette);
  std::vector<glm::vec3> out(c.mesh.vertexCount()), normals(c.mesh.vertexCount());
  const SkinJob job{c.mesh.positions, c.mesh.normals, c.mesh.joints, c.mesh.weights, palette, out,
                    normals};
  EXPECT_TRUE(job.run());
  return out;
}

TEST(Pose, RowsPackingRoundTripsAndTransformsPoints) {
  const glm::mat4 m =
      toMatrix({glm::vec3(1, 2, 3), glm::angleAxis(0.7f, glm::vec3(0, 1, 0)), glm::vec3(2.0f)});
  const JointRows rows = packRows(m);
  EXPECT_EQ(unpackRows(rows), m);
  const glm::vec3 p(0.5f, -1.0f, 2.0f);
  const glm::vec3 expected = glm::vec3(m * glm::vec4(p, 1.0f));
  EXPECT_NEAR(glm::length(transformPoint(rows, p) - expected), 0.0f, 1e-6f);
}

TEST(Pose, RestPoseSkinningReproducesTheBindMesh) {
  const Character c = test::makeChainCharacter();
  const auto skinned = skin(c, nullptr, 0.0f);
  for (size_t v = 0; v < skinned.size(); ++v) {
    EXPECT_NEAR(glm::length(skinned[v] - c.mesh.positions[v]), 0.0f, 1e-6f) << "vertex " << v;
  }
}

TEST(Pose, BentChainMatchesAHandComputedPose) {
  const Character c = test::makeChainCharacter();
  const Clip& clip = c.clips[0];
  const float t = 0.5f;  // mid and tip both rotated 0.8 rad about Z; root stepped up 0.1
  const auto skinned = skin(c, &clip, t);
  const glm::mat4 root = glm::translate(glm::mat4(1.0f), glm::vec3(0, 0.1f, 0));
  const glm::mat4 rot = glm::mat4_cast(glm::angleAxis(0.8f, glm::vec3(0, 0, 1)));
  const glm::mat4 mid = root * glm::translate(glm::mat4(1.0f), glm::vec3(0, 1, 0)) * rot;
  const glm::mat4 tip = mid * glm::translate(glm::mat4(1.0f), glm::vec3(0, 1, 0)) * rot;
  // Ring 4 (vertices 16..19) is fully on the tip: p' = tip * inverse_bind(tip) * p.
  for (int v = 16; v < 20; ++v) {
    const glm::vec3 local = c.mesh.positions[v] - glm::vec3(0, 2, 0);
    const glm::vec3 expected = glm::vec3(tip * glm::vec4(local, 1.0f));
    EXPECT_NEAR(glm::length(skinned[v] - expected), 0.0f, 1e-5f) << "vertex " << v;
  }
  // Ring 3 blends mid and tip half and half.
  for (int v = 12; v < 16; ++v) {
    const glm::vec4 p(c.mesh.positions[v], 1.0f);
    const glm::vec3 a = glm::vec3(mid * (p - glm::vec4(0, 1, 0, 0)));
    const glm::vec3 b = glm::vec3(tip * (p - glm::vec4(0, 2, 0, 0)));
    EXPECT_NEAR(glm::length(skinned[v] - 0.5f * (a + b)), 0.0f, 1e-5f) << "vertex " << v;
  }
}

TEST(Pose, LoopingClipMatchesAtBothEnds) {
  const Character c = test::makeChainCharacter();
  const auto start = skin(c, &c.clips[0], 0.0f);
  const auto end = skin(c, &c.clips[0], 1.0f);
  for (size_t v = 0; v < start.size(); ++v) EXPECT_NEAR(glm::length(start[v] - end[v]), 0, 1e-6f);
}

TEST(Pose, JobsRejectMismatchedSpans) {
  const Character c = test::makeChainCharacter();
  std::vector<Transform> too_small(2);
  EXPECT_FALSE((SampleClipJob{&c.clips[0], 0.0f, c.skeleton.restPoses(), too_small}.run()));
  std::vector<int16_t> bad_parents = {-1, 2, 0};  // a child before its parent
  std::vector<Transform> locals(3);
  std::vector<glm::mat4> models(3);
  EXPECT_FALSE((LocalToModelJob{bad_parents, locals, glm::mat4(1.0f), models}.run()));
  std::vector<JointRows> palette(1);  // joint indices 1 and 2 are out of range
  std::vector<glm::vec3> out(c.mesh.vertexCount());
  EXPECT_FALSE(
      (SkinJob{c.mesh.positions, {}, c.mesh.joints, c.mesh.weights, palette, out, {}}.run()));
}

TEST(Mesh, ReduceInfluencesKeepsTheFourLargestAndRenormalises) {
  const Influence in[6] = {{1, 0.1f}, {2, 0.3f}, {3, 0.05f}, {4, 0.25f}, {2, 0.1f}, {5, 0.2f}};
  glm::u16vec4 joints;
  glm::vec4 weights;
  ASSERT_TRUE(reduceInfluences(in, 6, joints, weights));
  EXPECT_EQ(joints, glm::u16vec4(2, 4, 5, 1));  // joint 2 merged: 0.4
  const float sum = 0.4f + 0.25f + 0.2f + 0.1f;
  EXPECT_NEAR(weights.x, 0.4f / sum, 1e-6f);
  EXPECT_NEAR(weights.x + weights.y + weights.z + weights.w, 1.0f, 1e-6f);
  const Influence zero[2] = {{1, 0.0f}, {2, -1.0f}};
  EXPECT_FALSE(reduceInfluences(zero, 2, joints, weights));
}

TEST(Mesh, ValidationNamesTheProblem) {
  Character c = test::makeChainCharacter();
  EXPECT_TRUE(validateCharacter(c, "chain").ok());
  Character bad_index = c;
  bad_index.mesh.indices[5] = 999;
  EXPECT_NE(validateCharacter(bad_index, "chain").message().find("index 5"), std::string::npos);
  Character bad_joint = c;
  bad_joint.mesh.joints[3].x = 7;
  EXPECT_NE(validateCharacter(bad_joint, "chain").message().find("joint 7"), std::string::npos);
  Character bad_weights = c;
  bad_weights.mesh.weights[0] = glm::vec4(0.5f, 0, 0, 0);
  EXPECT_NE(validateCharacter(bad_weights, "chain").message().find("sum"), std::string::npos);
  Character nan_pos = c;
  nan_pos.mesh.positions[2].z = std::nanf("");
  EXPECT_NE(validateCharacter(nan_pos, "chain").message().find("vertex 2"), std::string::npos);
  EXPECT_EQ(c.findClip("bend"), 0);
  EXPECT_EQ(c.findClip("0"), 0);
  EXPECT_EQ(c.findClip("1"), -1);
  EXPECT_NEAR(c.size(), 2.0f, 1e-6f);
}

}  // namespace
}  // namespace throng
