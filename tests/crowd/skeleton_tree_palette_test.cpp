// The seed's tree: a skeleton written to a skeleton file and read back gives the same palettes.
#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "offline/lod_fixture.h"
#include "support/test_support.h"
#include "throng/core/skeleton_file.h"
#include "throng/crowd/batch_palette.h"

namespace throng {
namespace {

void expectSamePalettes(const Character& c) {
  const auto dir = test::makeTempDir("skeltree");
  const std::string path = (dir / "character.skel").string();
  ASSERT_TRUE(writeSkeletonFile(c.skeleton, path).ok());
  Result<Skeleton> tree = readSkeletonFile(path);
  ASSERT_TRUE(tree.ok()) << tree.status().toString();
  ASSERT_EQ(tree->jointCount(), c.skeleton.jointCount());
  const glm::mat4 placement = glm::translate(glm::mat4(1.0f), glm::vec3(2.0f, 0.0f, -1.0f));
  std::vector<JointRows> a(c.skeleton.jointCount()), b(c.skeleton.jointCount());
  PoseScratch sa, sb;
  for (const Clip& clip : c.clips) {
    for (float t = clip.start_time; t <= clip.end_time; t += 1.0f / 30.0f) {
      treePalette(c.skeleton, &clip, t, placement, {}, sa, a);
      treePalette(*tree, &clip, t, placement, {}, sb, b);
      for (size_t j = 0; j < a.size(); ++j) {
        for (int r = 0; r < kVec4PerJoint; ++r) {
          // The file round-trips floats exactly, so the palettes are bit-identical.
          EXPECT_EQ(a[j].rows[r], b[j].rows[r]) << "joint " << j << " t " << t;
        }
      }
    }
  }
  std::filesystem::remove_all(dir);
}

TEST(SkeletonTreePalette, ChainFromTheFileMatches) {
  expectSamePalettes(test::makeChainCharacter());
}
TEST(SkeletonTreePalette, ForkedTubeFromTheFileMatches) {
  expectSamePalettes(test::makeTubeCharacter(8, 8));
}

}  // namespace
}  // namespace throng
