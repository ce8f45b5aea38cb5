// Skeleton file round trips on real imported skeletons (../shared/assets), palettes bit-exact.
#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/pose.h"
#include "throng/core/skeleton_file.h"

#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

void expectRoundTrip(const std::string& relative) {
  const Result<Character> character = importGltf(test::assetPath(relative).string());
  ASSERT_TRUE(character.ok()) << character.status().toString();
  const Skeleton& skeleton = character->skeleton;
  const auto dir = test::makeTempDir("skeleton_file_asset");
  const std::string path = (dir / "asset.skel").string();
  ASSERT_TRUE(writeSkeletonFile(skeleton, path).ok());
  Result<Skeleton> back = readSkeletonFile(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  ASSERT_EQ(back->jointCount(), skeleton.jointCount());
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    EXPECT_EQ(back->names()[j], skeleton.names()[j]);
    EXPECT_EQ(back->parents()[j], skeleton.parents()[j]);
  }
  PoseScratch sa, sb;
  sa.resize(skeleton.jointCount());
  sb.resize(skeleton.jointCount());
  std::vector<JointRows> pa(skeleton.jointCount()), pb(skeleton.jointCount());
  evaluatePalette(skeleton, nullptr, 0.0f, sa, pa);
  evaluatePalette(*back, nullptr, 0.0f, sb, pb);
  EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(JointRows)), 0) << "rest";
  ASSERT_FALSE(character->clips.empty());
  for (const Clip& clip : character->clips) {
    for (int k = 0; k <= 10; ++k) {
      const float t = clip.start_time + clip.duration() * k / 10.0f;
      evaluatePalette(skeleton, &clip, t, sa, pa);
      evaluatePalette(*back, &clip, t, sb, pb);
      EXPECT_EQ(std::memcmp(pa.data(), pb.data(), pa.size() * sizeof(JointRows)), 0)
          << clip.name << " at " << t;
    }
  }
}

TEST(SkeletonFileAssets, CesiumManRoundTripsWithIdenticalPalettes) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  expectRoundTrip("CesiumMan/CesiumMan.glb");
}

}  // namespace
}  // namespace throng
