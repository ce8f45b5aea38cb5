// The default LOD chain on the built-in sample character: errors per LOD within stated bounds.
#include <cstdio>

#include <gtest/gtest.h>

#include "throng/offline/bone_reduction.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

// Bounds on the largest vertex deviation from bone reduction over every frame of every clip, as
// a fraction of the character's height, for the default chain's 15- and 10-joint LODs (the
// full-skeleton LODs have none). Measured (printed by the test): 1.4% and 12.1% after the
// worst-vertex swap refinement (1.7% and 14.6% with the greedy pass alone); at 10 joints limbs
// lose their last segment, and the worst frame of "run" swings a hand ~0.22 units away, which at
// the LOD's distance (over 60 heights away) is a couple of pixels at 1080p.
constexpr float kMaxErrorFraction15Joints = 0.02f;
constexpr float kMaxErrorFraction10Joints = 0.13f;
// Mesh simplification's geometric error cap of the default chain (fraction of the extent).
constexpr float kMaxGeometricErrorFraction = 0.05f;

TEST(SampleCharacterLods, DefaultChainErrorsAreBounded) {
  const Character c = makeSampleCharacter();
  Result<std::vector<MeshLod>> lods = buildLodChain(c, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  ASSERT_EQ(lods->size(), 4u);
  const float size = c.size();
  for (size_t i = 0; i < lods->size(); ++i) {
    const MeshLod& lod = (*lods)[i];
    const int x = lod.palette_joints.empty() ? c.skeleton.jointCount()
                                             : static_cast<int>(lod.palette_joints.size());
    std::printf(
        "LOD %zu: %zu vertices, %zu triangles, %d joints, geometric error %.4f (%.2f%%), "
        "skinning error %.4f (%.2f%% of %.3f), up to %.2f\n",
        i, lod.mesh.vertexCount(), lod.mesh.triangleCount(), x, lod.geometric_error,
        100.0f * lod.geometric_error / size, lod.skinning_error, 100.0f * lod.skinning_error / size,
        size, lod.max_distance);
    EXPECT_TRUE(validateMesh(lod.mesh, x, "sample LOD").ok());
    EXPECT_LE(lod.geometric_error, kMaxGeometricErrorFraction * size);
    if (x == 15) {
      EXPECT_LE(lod.skinning_error, kMaxErrorFraction15Joints * size);
    }
    if (x == 10) {
      EXPECT_LE(lod.skinning_error, kMaxErrorFraction10Joints * size);
    }
  }
  EXPECT_EQ((*lods)[2].palette_joints.size(), 15u);
  EXPECT_EQ((*lods)[3].palette_joints.size(), 10u);
  // The root is always kept.
  EXPECT_EQ((*lods)[3].palette_joints[0], 0);
}

}  // namespace
}  // namespace throng
