// The LOD table: counts per LOD, errors as fractions of LOD 0's height, pick distances.
#include "throng/crowd/lod_table.h"

#include <cmath>

#include <gtest/gtest.h>

namespace throng {
namespace {

// A package of three LODs over a skeleton of 5 joints, with a bind mesh 4 units tall (y from -1
// to 3) and 1 unit wide: LOD 0 has 4 triangles in 2 sub-meshes, LOD 1 2 triangles over 3
// joints, LOD 2 1 triangle over 2 joints.
Package makePackage() {
  Package p;
  RawSkeleton raw;
  for (const char* name : {"a", "b", "c", "d", "e"}) {
    RawJoint joint;
    joint.name = name;
    if (!raw.joints.empty()) joint.parent = raw.joints.back().name;
    raw.joints.push_back(joint);
  }
  Result<Skeleton> skeleton = buildSkeleton(raw);
  EXPECT_TRUE(skeleton.ok());
  p.skeleton = std::move(skeleton).value();
  MeshLod lod0;
  lod0.mesh.positions = {{0, -1, 0}, {1, 0, 0}, {0, 3, 0}, {1, 3, 0}, {0, 1, 0}, {1, 1, 0}};
  lod0.mesh.indices = {0, 1, 2, 1, 3, 2, 2, 3, 4, 3, 5, 4};
  lod0.mesh.submeshes = {{"body", 0, 6, 0, {}}, {"head", 6, 6, 0, {}}};
  MeshLod lod1;
  lod1.mesh.positions = {{0, 0, 0}, {1, 0, 0}, {0, 2, 0}, {1, 2, 0}};
  lod1.mesh.indices = {0, 1, 2, 1, 3, 2};
  lod1.mesh.submeshes = {{"body", 0, 6, 0, {}}};
  lod1.palette_joints = {0, 2, 4};
  lod1.max_error = 0.02f;
  lod1.p99_error = 0.01f;
  lod1.geometric_error = 0.015f;
  lod1.skinning_error = 0.005f;
  lod1.max_distance = 40.0f;
  MeshLod lod2 = lod1;
  lod2.mesh.indices = {0, 1, 2};
  lod2.palette_joints = {0, 4};
  lod2.max_error = 0.2f;
  lod2.max_distance = 0.0f;
  p.lods = {lod0, lod1, lod2};
  return p;
}

TEST(LodTable, CountsErrorsAsFractionsOfTheHeightAndPickDistances) {
  const LodTable table = lodTable(makePackage());
  EXPECT_FLOAT_EQ(table.height, 4.0f);
  EXPECT_EQ(table.threshold_px, kDefaultLodThresholdPx);
  ASSERT_EQ(table.rows.size(), 3u);
  const LodTableRow& full = table.rows[0];
  EXPECT_EQ(full.lod, 0);
  EXPECT_EQ(full.triangles, 4u);
  EXPECT_EQ(full.vertices, 6u);
  EXPECT_EQ(full.sub_meshes, 2u);
  EXPECT_EQ(full.joints, 5u);  // every joint
  EXPECT_EQ(full.max_error, 0.0f);
  EXPECT_EQ(full.pick_distance, 0.0f);
  const LodTableRow& mid = table.rows[1];
  EXPECT_EQ(mid.triangles, 2u);
  EXPECT_EQ(mid.joints, 3u);
  EXPECT_FLOAT_EQ(mid.max_error, 0.005f);  // 0.02 of 4 units
  EXPECT_FLOAT_EQ(mid.p99_error, 0.0025f);
  EXPECT_FLOAT_EQ(mid.geometric_error, 0.00375f);
  EXPECT_FLOAT_EQ(mid.skinning_error, 0.00125f);
  EXPECT_EQ(mid.max_distance, 40.0f);
  // 0.02 units cover one pixel of 1080 at 60 degrees at 0.02 * 1080 / (2 tan 30deg) units.
  const float expected = 0.02f * 1080.0f / (2.0f * std::tan(3.14159265f / 6.0f));
  EXPECT_NEAR(mid.pick_distance, expected, 1e-4f);
  EXPECT_NEAR(mid.pick_distance_heights, expected / 4.0f, 1e-5f);
  EXPECT_EQ(table.rows[2].joints, 2u);
  EXPECT_EQ(table.rows[2].triangles, 1u);
  EXPECT_FLOAT_EQ(table.rows[2].max_error, 0.05f);
}

TEST(LodTable, ALodNeverPickedIsInfinitelyFarAndAnotherCameraMovesTheSwitches) {
  Package p = makePackage();
  p.lods[1].max_error = 0.3f;  // more than LOD 2's: LOD 2 always wins over it
  const LodTable table = lodTable(p);
  EXPECT_TRUE(std::isinf(table.rows[1].pick_distance));
  const LodTable twice = lodTable(makePackage(), {LodProjection{}.fov_y, 2160.0f}, 2.0f);
  EXPECT_NEAR(twice.rows[1].pick_distance, lodTable(makePackage()).rows[1].pick_distance, 1e-4f);
  EXPECT_EQ(twice.camera.viewport_height_px, 2160.0f);
  EXPECT_EQ(twice.threshold_px, 2.0f);
}

TEST(LodTable, AFlatMeshHasNoHeightAndErrorsOfZero) {
  Package p = makePackage();
  for (glm::vec3& v : p.lods[0].mesh.positions) v = glm::vec3(0.0f);
  const LodTable table = lodTable(p);
  EXPECT_EQ(table.height, 0.0f);
  EXPECT_EQ(table.rows[1].max_error, 0.0f);
  EXPECT_EQ(table.rows[1].pick_distance_heights, 0.0f);
}

}  // namespace
}  // namespace throng
