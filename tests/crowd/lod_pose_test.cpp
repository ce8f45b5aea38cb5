// Posing a LOD: keyframes for a character, baked frames for a package, slots of a bone-reduced
// LOD, and the errors naming the source.
#include "throng/crowd/lod_pose.h"

#include <cmath>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/playback.h"
#include "throng/offline/bake.h"

namespace throng {
namespace {

// The oracle: `mesh` skinned with `palette` (one entry per joint index the mesh uses).
std::vector<glm::vec3> skinned(const SkinnedMesh& mesh, std::span<const JointRows> palette) {
  std::vector<glm::vec3> out(mesh.vertexCount());
  EXPECT_TRUE((SkinJob{mesh.positions, {}, mesh.joints, mesh.weights, palette, out, {}}.run()));
  return out;
}

float largestDistance(std::span<const glm::vec3> a, std::span<const glm::vec3> b) {
  EXPECT_EQ(a.size(), b.size());
  float worst = 0.0f;
  for (size_t v = 0; v < a.size() && v < b.size(); ++v)
    worst = std::max(worst, glm::length(a[v] - b[v]));
  return worst;
}

std::vector<JointRows> keyedPalette(const Character& c, int clip, float time) {
  PoseScratch scratch;
  std::vector<JointRows> palette(static_cast<size_t>(c.skeleton.jointCount()));
  evaluatePalette(c.skeleton, clip < 0 ? nullptr : &c.clips[static_cast<size_t>(clip)], time,
                  scratch, palette);
  return palette;
}

TEST(LodPose, ACharactersKeyframesOnTheFilesTimeline) {
  const Character c = test::makeChainCharacter();
  Result<LodPose> posed = poseCharacter(c, {}, {"bend", 0.4f, 0}, "chain.glb");
  ASSERT_TRUE(posed.ok()) << posed.status().toString();
  EXPECT_EQ(posed->mesh, &c.mesh);
  EXPECT_EQ(posed->clip, 0);
  EXPECT_EQ(posed->lod_count, 1u);
  EXPECT_EQ(posed->joints, 3u);
  EXPECT_EQ(posed->normals.size(), c.mesh.vertexCount());
  const std::vector<glm::vec3> expected = skinned(c.mesh, keyedPalette(c, 0, 0.4f));
  EXPECT_EQ(largestDistance(posed->positions, expected), 0.0f);
  // By index, and the rest pose (no clip): the bind mesh, since bind == rest.
  Result<LodPose> by_index = poseCharacter(c, {}, {"0", 0.4f, 0}, "chain.glb");
  ASSERT_TRUE(by_index.ok());
  EXPECT_EQ(by_index->positions, posed->positions);
  Result<LodPose> rest = poseCharacter(c, {}, {"", 0.4f, 0}, "chain.glb");
  ASSERT_TRUE(rest.ok());
  EXPECT_EQ(rest->clip, -1);
  EXPECT_LT(largestDistance(rest->positions, c.mesh.positions), 1e-6f);
  EXPECT_GT(largestDistance(posed->positions, c.mesh.positions), 0.05f);  // the bend moves it
}

TEST(LodPose, ABoneReducedLodsSlotsStandForTheirJoints) {
  const Character c = test::makeChainCharacter();
  // LOD 1 keeps joints 0 and 2: "mid"'s weight goes to its parent, slot 1 is "tip".
  std::vector<MeshLod> lods(2);
  lods[0].mesh = c.mesh;
  lods[1].mesh = c.mesh;
  lods[1].palette_joints = {0, 2};
  for (glm::u16vec4& j : lods[1].mesh.joints) {
    for (int i = 0; i < 4; ++i) j[i] = j[i] == 2 ? 1 : 0;
  }
  Result<LodPose> posed = poseCharacter(c, lods, {"bend", 0.7f, 1}, "chain.glb");
  ASSERT_TRUE(posed.ok()) << posed.status().toString();
  EXPECT_EQ(posed->mesh, &lods[1].mesh);
  EXPECT_EQ(posed->joints, 2u);
  EXPECT_EQ(posed->lod_count, 2u);
  // The same as the full mesh with "mid" moving as "root" does.
  std::vector<JointRows> merged = keyedPalette(c, 0, 0.7f);
  merged[1] = merged[0];
  EXPECT_LT(largestDistance(posed->positions, skinned(c.mesh, merged)), 1e-6f);
  // LOD 0 is the character's own mesh whatever the chain holds.
  Result<LodPose> full = poseCharacter(c, lods, {"bend", 0.7f, 0}, "chain.glb");
  ASSERT_TRUE(full.ok());
  EXPECT_EQ(full->mesh, &c.mesh);
}

TEST(LodPose, APackagesBakedFramesBlendedAsPlaybackPlaysThem) {
  const Character c = test::makeChainCharacter();
  BakeOptions options;
  options.fps = 10.0f;
  Result<Package> package = bakeCharacter(c, options);
  ASSERT_TRUE(package.ok()) << package.status().toString();
  const BakedClip& bend = package->clips[0];
  for (float time : {0.0f, 0.25f, 0.33f, 7.9f}) {  // on a frame, between frames, past the end
    SCOPED_TRACE(time);
    Result<LodPose> posed = posePackage(*package, {"bend", time, 0}, "chain.throng");
    ASSERT_TRUE(posed.ok()) << posed.status().toString();
    InstanceFrames frames;
    frames.primary = sampleFrames(bend, time);
    frames.secondary = frames.primary;
    std::vector<JointRows> palette(3);
    ASSERT_TRUE((FramePaletteJob{&package->animation, frames, palette}.run()));
    EXPECT_EQ(largestDistance(posed->positions, skinned(package->lods[0].mesh, palette)), 0.0f);
    // Within the bake's error of the keyframes at the same moment of the clip.
    const float keyed_time =
        bend.loop ? std::fmod(time, bend.duration) : std::min(time, bend.duration);
    EXPECT_LT(
        largestDistance(posed->positions,
                        skinned(c.mesh, keyedPalette(c, 0, c.clips[0].start_time + keyed_time))),
        0.05f * c.size());
  }
}

TEST(LodPose, ErrorsNameTheSourceTheLodAndTheClip) {
  const Character c = test::makeChainCharacter();
  // A helper rather than a table of cases: GCC 12 warns (maybe-uninitialized) on an array of
  // aggregates holding strings.
  const auto expectError = [&c](const PoseRequest& request, const std::string& message) {
    Result<LodPose> posed = poseCharacter(c, {}, request, "chain.glb");
    ASSERT_FALSE(posed.ok()) << message;
    EXPECT_EQ(posed.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_EQ(posed.status().message(), message);
  };
  expectError({"bend", 0.0f, 1}, "lod 1: no such LOD in chain.glb (1 LOD; 0 only)");
  expectError({"bend", 0.0f, -1}, "lod -1: no such LOD in chain.glb (1 LOD; 0 only)");
  expectError({"jump", 0.0f, 0}, "clip jump: no such clip in chain.glb (clips: 0 bend)");
  expectError({"5", 0.0f, 0}, "clip 5: no such clip in chain.glb (clips: 0 bend)");
  expectError({"bend", NAN, 0}, "time nan is not a number of seconds");
  Result<Package> package = bakeCharacter(c, {});
  ASSERT_TRUE(package.ok());
  Result<LodPose> posed = posePackage(*package, {"bend", 0.0f, 3}, "chain.throng");
  ASSERT_FALSE(posed.ok());
  EXPECT_EQ(posed.status().message(), "lod 3: no such LOD in chain.throng (1 LOD; 0 only)");
}

}  // namespace
}  // namespace throng
