// The default LOD chain on the built-in sample character: errors per LOD within stated bounds.
#include <cstdio>
#include <string>

#include <gtest/gtest.h>

#include "throng/offline/bone_reduction.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

// The default chain on the sample, against the full mesh and skeleton over every frame of every
// clip (measured, printed by the test; fractions of the height): LOD 1 (50%, 23 joints) 3.5%
// (p99 0.7%), LOD 2 (25%, 15 joints) 4.3% (p99 2.5%), LOD 3 (12.5%, 10 joints) 12.1% (p99
// 11.6%): simplified bends lose rings, and at 10 joints hands, feet and head ride on their
// parents. Each is within its level's cap, and the joint targets are met.
TEST(SampleCharacterLods, DefaultChainErrorsAreBounded) {
  const Character c = makeSampleCharacter();
  const LodChainOptions options = defaultLodChainOptions();
  LodChainReport report;
  Result<std::vector<MeshLod>> lods = buildLodChain(c, options, &report);
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  ASSERT_EQ(lods->size(), 4u);
  const float size = c.size();
  for (size_t i = 0; i < lods->size(); ++i) {
    const MeshLod& lod = (*lods)[i];
    const int x = lod.palette_joints.empty() ? c.skeleton.jointCount()
                                             : static_cast<int>(lod.palette_joints.size());
    std::printf(
        "LOD %zu: %zu vertices, %zu triangles, %d joints, error %.2f%% (p99 %.2f%%; simplification "
        "%.2f%%, bone reduction %.2f%%) of %.3f, used up to %.2f\n",
        i, lod.mesh.vertexCount(), lod.mesh.triangleCount(), x, 100.0f * lod.max_error / size,
        100.0f * lod.p99_error / size, 100.0f * lod.geometric_error / size,
        100.0f * lod.skinning_error / size, size, lod.max_distance);
    EXPECT_TRUE(validateMesh(lod.mesh, x, "sample LOD").ok());
    EXPECT_LE(lod.max_error, options.levels[i].max_error * size) << "LOD " << i;
    EXPECT_LE(lod.p99_error, lod.max_error);
    if (i > 0) {
      EXPECT_GT(lod.max_error, (*lods)[i - 1].max_error);
    }
  }
  EXPECT_EQ((*lods)[0].max_error, 0.0f);
  EXPECT_EQ((*lods)[2].palette_joints.size(), 15u);
  EXPECT_EQ((*lods)[3].palette_joints.size(), 10u);
  // The root is always kept, and the 10-joint LOD keeps a spine joint: the upper body does not
  // swim with the hips.
  EXPECT_EQ((*lods)[3].palette_joints[0], 0);
  bool spine = false;
  for (uint16_t j : (*lods)[3].palette_joints) {
    spine = spine || c.skeleton.names()[j].find("spine") != std::string::npos;
  }
  EXPECT_TRUE(spine);
}

}  // namespace
}  // namespace throng
