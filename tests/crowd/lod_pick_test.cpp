// Tests of the runtime LOD pick by camera distance.
#include <gtest/gtest.h>

#include "throng/crowd/lod_pick.h"

namespace throng {
namespace {

TEST(PickLod, FirstLevelWhoseLimitCoversTheDistance) {
  std::vector<MeshLod> lods(3);
  lods[0].max_distance = 10.0f;
  lods[1].max_distance = 30.0f;
  lods[2].max_distance = 0.0f;  // no limit
  EXPECT_EQ(pickLod(lods, 0.0f), 0);
  EXPECT_EQ(pickLod(lods, 10.0f), 0);
  EXPECT_EQ(pickLod(lods, 10.5f), 1);
  EXPECT_EQ(pickLod(lods, 30.0f), 1);
  EXPECT_EQ(pickLod(lods, 1e6f), 2);
  lods[2].max_distance = 50.0f;  // every limit exceeded: the coarsest level
  EXPECT_EQ(pickLod(lods, 1e6f), 2);
  EXPECT_EQ(pickLod(std::span<const MeshLod>(lods.data(), 1), 1e6f), 0);
}

TEST(PickLod, ModelDistanceScalesWithTheCharacter) {
  EXPECT_FLOAT_EQ(modelDistance(20.0f, 2.0f), 10.0f);
  EXPECT_FLOAT_EQ(modelDistance(20.0f, 0.0f), 20.0f);
}

}  // namespace
}  // namespace throng
