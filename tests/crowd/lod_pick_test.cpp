// Tests of the runtime LOD pick by camera distance: stored limits and the screen-space rule.
#include <cmath>
#include <limits>

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

std::vector<MeshLod> lodsWithErrors(std::initializer_list<float> errors) {
  std::vector<MeshLod> lods;
  for (float e : errors) {
    MeshLod lod;
    lod.max_error = e;
    lod.p99_error = e;
    lods.push_back(lod);
  }
  return lods;
}

TEST(PickLodScreenSpace, ProjectionOfAnErrorAtADistance) {
  // 60 degrees over 1080 px: at distance d a unit covers 1080 / (2 d tan 30deg) = 935.3 / d px.
  const LodProjection camera;
  EXPECT_NEAR(pixelsPerUnit(1.0f, camera), 935.307f, 1e-2f);
  EXPECT_NEAR(pixelsPerUnit(10.0f, camera), 93.5307f, 1e-3f);
  EXPECT_TRUE(std::isinf(pixelsPerUnit(0.0f, camera)));
  EXPECT_NEAR(errorDistance(0.01f, camera, 1.0f), 9.35307f, 1e-3f);
  EXPECT_NEAR(errorDistance(0.01f, camera, 2.0f), 4.67654f, 1e-3f);  // a looser threshold
  EXPECT_EQ(errorDistance(0.0f, camera, 1.0f), 0.0f);
  // Twice the pixels (a 2160 px viewport) or half the field of view: further away.
  EXPECT_NEAR(errorDistance(0.01f, {camera.fov_y, 2160.0f}, 1.0f), 18.7061f, 1e-3f);
  const float narrow = errorDistance(0.01f, {0.5f * camera.fov_y, 1080.0f}, 1.0f);
  EXPECT_NEAR(narrow, 0.01f * 1080.0f / (2.0f * std::tan(0.25f * camera.fov_y)), 1e-3f);
}

TEST(PickLodScreenSpace, CoarsestLodWhoseErrorIsBelowAPixel) {
  const std::vector<MeshLod> lods = lodsWithErrors({0.0f, 0.01f, 0.05f, 0.2f});
  const LodProjection camera;
  for (size_t i = 0; i < lods.size(); ++i) {
    const float from = lodPickDistance(lods, static_cast<int>(i), camera);
    EXPECT_FLOAT_EQ(from, errorDistance(lods[i].max_error, camera, 1.0f)) << i;
    // Just past the switch the LOD is picked; just before, the finer one.
    EXPECT_EQ(pickLodScreenSpace(lods, from * 1.001f, camera), static_cast<int>(i));
    if (i > 0) {
      EXPECT_EQ(pickLodScreenSpace(lods, from * 0.999f, camera), static_cast<int>(i) - 1);
    }
    // The picked LOD's error really is at most a pixel there.
    if (i > 0) {
      EXPECT_LE(lods[i].max_error * pixelsPerUnit(from * 1.001f, camera), 1.0f);
    }
  }
  EXPECT_EQ(pickLodScreenSpace(lods, 0.0f, camera), 0);
  EXPECT_EQ(pickLodScreenSpace(lods, 1e9f, camera), 3);
  // A 4 px threshold switches at a quarter of the distance.
  EXPECT_EQ(pickLodScreenSpace(lods, 0.26f * lodPickDistance(lods, 2, camera), camera, 4.0f), 2);
  EXPECT_EQ(pickLodScreenSpace(lods, 0.24f * lodPickDistance(lods, 2, camera), camera, 4.0f), 1);
}

TEST(PickLodScreenSpace, LodWithErrorsOutOfOrder) {
  // LOD 1 is worse than the coarser LOD 2: never picked. LOD 0 with an error is still the
  // fallback when nothing is small enough.
  const std::vector<MeshLod> lods = lodsWithErrors({0.001f, 0.05f, 0.02f});
  const LodProjection camera;
  EXPECT_TRUE(std::isinf(lodPickDistance(lods, 1, camera)));
  EXPECT_EQ(lodPickDistance(lods, 0, camera), 0.0f);
  for (float d : {0.0f, 0.5f, 5.0f, 50.0f, 500.0f}) {
    EXPECT_NE(pickLodScreenSpace(lods, d, camera), 1);
  }
  EXPECT_EQ(pickLodScreenSpace(lods, 0.1f, camera), 0);
  EXPECT_EQ(pickLodScreenSpace(lods, 1.001f * lodPickDistance(lods, 2, camera), camera), 2);
}

TEST(PickLod, ModelDistanceScalesWithTheCharacter) {
  EXPECT_FLOAT_EQ(modelDistance(20.0f, 2.0f), 10.0f);
  EXPECT_FLOAT_EQ(modelDistance(20.0f, 0.0f), 20.0f);
}

}  // namespace
}  // namespace throng
