// The bake never produces a package its own reader rejects: overflow is reported at its cause.
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"

namespace throng {
namespace {

// The chain character with a second clip "far" whose keys are finite but too large to combine:
// joint `joint` translates by `offset` from `from_time` on.
Character withFarClip(int joint, glm::vec3 offset, float from_time) {
  Character c = test::makeChainCharacter();
  Clip far;
  far.name = "far";
  far.joints.resize(3);
  Vec3Track& t = far.joints[static_cast<size_t>(joint)].translation;
  t.interpolation = Interpolation::kStep;
  t.times = {0.0f, from_time, 1.0f};
  t.values = {glm::vec3(0.0f, 1.0f, 0.0f), offset, offset};
  updateClipRange(far);
  c.clips.push_back(std::move(far));
  return c;
}

TEST(BakeFinite, AJointWhoseTransformOverflowsNamesTheClipFrameAndJoint) {
  // The tip's key is finite (3e38), but added to its parent's model position it is not.
  const float big = 3.0e38f;
  Character c = withFarClip(2, glm::vec3(big, 0.0f, 0.0f), 0.5f);
  c.clips[1].joints[1].translation = c.clips[1].joints[2].translation;  // mid too
  BakeOptions options;
  options.fps = 10.0f;
  options.source = "far.glb";
  Result<Package> p = bakeCharacter(c, options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(p.status().message(),
            "far.glb: clip 'far' frame 5 (0.5 s): joint 'tip' gets a non-finite transform (the "
            "clip's keys or the rest pose overflow the float range)");
}

TEST(BakeFinite, SkinnedVerticesLeavingTheFloatRangeNameTheClipAndFrame) {
  // The palette stays finite (the largest float as translation, a scale of 1e32), but a vertex at
  // x = 0.2 lands 2e31 past the largest float: the clip's bounds would not be finite.
  Character c = withFarClip(0, glm::vec3(std::numeric_limits<float>::max(), 0.0f, 0.0f), 0.3f);
  Vec3Track& scale = c.clips[1].joints[0].scale;
  scale.interpolation = Interpolation::kStep;
  scale.times = {0.0f, 0.3f, 1.0f};
  scale.values = {glm::vec3(1.0f), glm::vec3(1e32f), glm::vec3(1e32f)};
  BakeOptions options;
  options.fps = 10.0f;
  options.source = "far.glb";
  Result<Package> p = bakeCharacter(c, options);
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(p.status().message(),
            "far.glb: clip 'far' frame 3 (0.3 s): skinned vertices leave the float range (the "
            "pose moves or scales the mesh too far)");
}

TEST(BakeFinite, AMeshSpanningMoreThanTheFloatRangeIsRefusedBeforeBakingOrLods) {
  // Each position is finite; their extent (and with it every size and LOD error) is not.
  Character c = test::makeChainCharacter();
  c.mesh.positions[0].x = -3.0e38f;
  c.mesh.positions[1].x = 3.0e38f;
  const Status s = validateCharacter(c, "wide.glb");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_TRUE(s.message().starts_with("wide.glb: the mesh spans (-3e+38, ")) << s.message();
  Result<Package> p = bakeCharacter(c, {});
  ASSERT_FALSE(p.ok());
  EXPECT_EQ(p.status().message().substr(0, 10), "character:");
}

TEST(BakeFinite, WhatTheBakeAcceptsItsReaderAccepts) {
  // The chain and its clips, with and without LODs, written and read back.
  Character c = test::makeChainCharacter();
  Result<Package> p = bakeCharacter(c, {});
  ASSERT_TRUE(p.ok()) << p.status().message();
  Result<std::vector<MeshLod>> lods = buildLodChain(c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().message();
  p->lods = std::move(*lods);
  EXPECT_TRUE(validatePackage(*p, "chain").ok());
}

}  // namespace
}  // namespace throng
