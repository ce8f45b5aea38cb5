// Method A step 4 on real files: the tree read back from a skeleton file gives the same palettes
// as the skeleton imported from glTF, at every 30 Hz frame of every clip.
#include <filesystem>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "support/test_support.h"
#include "throng/core/skeleton_file.h"
#include "throng/crowd/batch_palette.h"
#include "throng/offline/gltf_import.h"

namespace throng {
namespace {

void expectSameTree(const std::string& asset) {
  Result<Character> character = importGltf(test::assetPath(asset).string());
  ASSERT_TRUE(character.ok()) << character.status().toString();
  const auto dir = test::makeTempDir("skel-gltf");
  const std::string path = (dir / "tree.skel").string();
  ASSERT_TRUE(writeSkeletonFile(character->skeleton, path).ok());
  Result<Skeleton> tree = readSkeletonFile(path);
  ASSERT_TRUE(tree.ok()) << tree.status().toString();
  const int joints = character->skeleton.jointCount();
  ASSERT_EQ(tree->jointCount(), joints);
  const glm::mat4 placement = glm::rotate(
      glm::translate(glm::mat4(1.0f), glm::vec3(5.0f, 0.0f, -3.0f)), 1.1f, glm::vec3(0, 1, 0));
  std::vector<JointRows> from_gltf(joints), from_file(joints);
  PoseScratch a, b;
  int frames = 0;
  for (const Clip& clip : character->clips) {
    for (float t = clip.start_time; t <= clip.end_time + 1e-6f; t += 1.0f / 30.0f) {
      treePalette(character->skeleton, &clip, t, placement, {}, a, from_gltf);
      treePalette(*tree, &clip, t, placement, {}, b, from_file);
      ++frames;
      for (int j = 0; j < joints; ++j) {
        for (int r = 0; r < kVec4PerJoint; ++r) {
          ASSERT_EQ(from_gltf[j].rows[r], from_file[j].rows[r])
              << asset << " clip " << clip.name << " t " << t << " joint " << j;
        }
      }
    }
  }
  EXPECT_GT(frames, 0);
  std::filesystem::remove_all(dir);
}

TEST(SkeletonFileTree, CesiumManPalettesMatchTheGltfSkeleton) {
  THRONG_REQUIRE_ASSET("CesiumMan/CesiumMan.glb");
  expectSameTree("CesiumMan/CesiumMan.glb");
}

}  // namespace
}  // namespace throng
