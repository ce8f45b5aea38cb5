// Tests of the pose jobs and the CPU reference skinner against hand-computed poses.
#include <cmath>
#include <vector>

#include <fmt/core.h>
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
TEST(Pose, TangentsAreSkinnedLikeNormalsAndKeepTheirHandedness) {
  Character c = test::makeChainCharacter();
  const size_t n = c.mesh.vertexCount();
  std::vector<glm::vec4> tangents(n);
  for (size_t v = 0; v < n; ++v) tangents[v] = glm::vec4(1, 0, 0, v % 2 == 0 ? 1.0f : -1.0f);
  PoseScratch scratch;
  std::vector<JointRows> palette(c.skeleton.jointCount());
  evaluatePalette(c.skeleton, &c.clips[0], 0.5f, scratch, palette);
  std::vector<glm::vec3> positions(n), normals(n);
  std::vector<glm::vec4> out(n);
  SkinJob job{c.mesh.positions, c.mesh.normals, c.mesh.joints, c.mesh.weights,
              palette,          positions,      normals};
  job.tangents = tangents;
  job.out_tangents = out;
  ASSERT_TRUE(job.run());
  // The hand-computed pose of BentChainMatchesAHandComputedPose: mid and tip turned 0.8 rad
  // about Z each, so the tip's tangents turn 1.6 rad, the mid's 0.8.
  const glm::mat3 mid = glm::mat3_cast(glm::angleAxis(0.8f, glm::vec3(0, 0, 1)));
  const glm::mat3 tip = mid * mid;
  // Ring 4 (vertices 16..19) is all tip; ring 3 blends mid and tip half and half.
  const glm::vec3 x(1, 0, 0);
  for (size_t v = 0; v < n; ++v) {
    if (v >= 16) {
      EXPECT_NEAR(glm::length(glm::vec3(out[v]) - tip * x), 0.0f, 1e-5f) << "vertex " << v;
    } else if (v >= 12) {
      const glm::vec3 blend = glm::normalize(0.5f * (mid * x) + 0.5f * (tip * x));
      EXPECT_NEAR(glm::length(glm::vec3(out[v]) - blend), 0.0f, 1e-5f) << "vertex " << v;
    }
    EXPECT_EQ(out[v].w, tangents[v].w) << "vertex " << v;
    EXPECT_NEAR(glm::length(glm::vec3(out[v])), 1.0f, 1e-6f) << "vertex " << v;
    // Skinned like the normal: where one joint moves a vertex, the angle between them is kept.
    if (v < 8 || v >= 16) {
      EXPECT_NEAR(glm::dot(glm::vec3(out[v]), normals[v]),
                  glm::dot(glm::vec3(tangents[v]), c.mesh.normals[v]), 1e-5f)
          << "vertex " << v;
    }
  }
  // Mismatched tangent spans are refused.
  std::vector<glm::vec4> short_out(n - 1);
  job.out_tangents = short_out;
  EXPECT_FALSE(job.run());
  job.tangents = {};
  job.out_tangents = {};
  EXPECT_TRUE(job.run());
}

TEST(Mesh, CopyVerticesCarriesEveryStream) {
  Character c = test::makeChainCharacter();
  SkinnedMesh& m = c.mesh;
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    m.uvs1.emplace_back(static_cast<float>(v), 0.5f);
    m.colors.emplace_back(0.5f, 0.25f, static_cast<float>(v) / 100.0f, 1.0f);
    m.tangents.emplace_back(1.0f, 0.0f, 0.0f, v % 3 == 0 ? -1.0f : 1.0f);
  }
  m.tangent_source = TangentSource::kMixed;
  const std::vector<uint32_t> sources = {7, 0, 7, 19};
  SkinnedMesh out;
  out.indices = {0, 1, 2};
  copyVertices(m, sources, out);
  ASSERT_EQ(out.vertexCount(), 4u);
  for (size_t i = 0; i < sources.size(); ++i) {
    const uint32_t s = sources[i];
    EXPECT_EQ(out.positions[i], m.positions[s]);
    EXPECT_EQ(out.normals[i], m.normals[s]);
    EXPECT_EQ(out.uvs[i], m.uvs[s]);
    EXPECT_EQ(out.uvs1[i], m.uvs1[s]);
    EXPECT_EQ(out.colors[i], m.colors[s]);
    EXPECT_EQ(out.joints[i], m.joints[s]);
    EXPECT_EQ(out.weights[i], m.weights[s]);
    EXPECT_EQ(out.tangents[i], m.tangents[s]);
  }
  EXPECT_EQ(out.tangent_source, TangentSource::kMixed);
  EXPECT_EQ(out.indices, (std::vector<uint32_t>{0, 1, 2}));  // left as it was
  // Streams the source lacks stay empty.
  SkinnedMesh bare;
  m.uvs1.clear();
  m.tangents.clear();
  m.tangent_source = TangentSource::kNone;
  copyVertices(m, sources, bare);
  EXPECT_TRUE(bare.uvs1.empty());
  EXPECT_TRUE(bare.tangents.empty());
  EXPECT_EQ(bare.colors.size(), 4u);
}

TEST(Mesh, TangentsAreValidated) {
  Character c = test::makeChainCharacter();
  const size_t n = c.mesh.vertexCount();
  c.mesh.tangents.assign(n, glm::vec4(0, 0, 1, 1));
  c.mesh.tangent_source = TangentSource::kFile;
  ASSERT_TRUE(validateCharacter(c, "chain").ok());
  auto error = [](const Character& bad) {
    const Status s = validateCharacter(bad, "chain");
    EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
    return s.message();
  };
  Character bad = c;
  bad.mesh.tangents.pop_back();
  EXPECT_EQ(error(bad), fmt::format("chain: mesh has {} tangents for {} vertices", n - 1, n));
  bad = c;
  bad.mesh.tangents[4].w = 0.5f;
  EXPECT_EQ(error(bad), "chain: vertex 4 tangent handedness (w) is 0.5, not +1 or -1");
  bad = c;
  bad.mesh.tangents[6] = glm::vec4(0, 0, 0.5f, 1);
  EXPECT_EQ(error(bad), "chain: vertex 6 tangent has length 0.5, not 1");
  bad = c;
  bad.mesh.tangents[2].x = std::nanf("");
  EXPECT_EQ(error(bad), "chain: vertex 2 tangent is not finite");
  bad = c;
  bad.mesh.tangent_source = TangentSource::kNone;
  EXPECT_EQ(error(bad),
            fmt::format("chain: tangent source is 'none' but the mesh has {} tangents", n));
  bad = c;
  bad.mesh.tangents.clear();
  EXPECT_EQ(error(bad), "chain: tangent source is 'from the file' but the mesh has 0 tangents");
  bad = c;
  bad.mesh.tangent_source = static_cast<TangentSource>(9);
  EXPECT_EQ(error(bad), "chain: unknown tangent source 9");
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
