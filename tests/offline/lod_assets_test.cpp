// The default LOD chain on every shared asset, checked against the full skeleton skinned on the
// CPU: each LOD's error within its cap, its triangles near the target, and its reported error
// re-measured here independently.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <unordered_map>

#include <gtest/gtest.h>

#include "offline/asset_characters.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/offline/bone_reduction.h"
#include "throng/offline/lod.h"
#include "throng/offline/mesh_simplify.h"

namespace throng {
namespace {

// A level's triangle count may miss its target by this share (the bound). Targets below
// kMinCheckedTarget triangles (the toy meshes of skin-tests-2018 and SimpleSkin) are not held to
// it: there a tenth of the target is less than one triangle.
constexpr double kTriangleTolerance = 0.10;
constexpr size_t kMinCheckedTarget = 10;

// The largest displacement between `lod` skinned through its palette and its vertices' source
// vertices skinned with the full skeleton, over every clip sampled at kReductionSampleFps with
// both ends: the skinning error, measured without the bone reducer's code.
float measureSkinningError(const Character& c, const MeshLod& lod) {
  // Every LOD vertex is a copy of a source vertex: find it by its position, normal and UV.
  auto key = [](const glm::vec3& p, const glm::vec3& n, const glm::vec2& uv) {
    std::string k(32, '\0');
    std::memcpy(k.data(), &p, 12);
    std::memcpy(k.data() + 12, &n, 12);
    std::memcpy(k.data() + 24, &uv, 8);
    return k;
  };
  const SkinnedMesh& source = c.mesh;
  std::unordered_map<std::string, uint32_t> by_key;
  for (uint32_t v = 0; v < source.vertexCount(); ++v) {
    by_key.emplace(key(source.positions[v], source.normals[v],
                       source.uvs.empty() ? glm::vec2(0) : source.uvs[v]),
                   v);
  }
  SkinnedMesh originals;  // the LOD's vertices with their source skins
  for (size_t v = 0; v < lod.mesh.vertexCount(); ++v) {
    const auto it = by_key.find(key(lod.mesh.positions[v], lod.mesh.normals[v],
                                    lod.mesh.uvs.empty() ? glm::vec2(0) : lod.mesh.uvs[v]));
    EXPECT_NE(it, by_key.end()) << "LOD vertex " << v << " is not a source vertex";
    if (it == by_key.end()) return INFINITY;
    originals.positions.push_back(source.positions[it->second]);
    originals.joints.push_back(source.joints[it->second]);
    originals.weights.push_back(source.weights[it->second]);
  }
  const int joints = c.skeleton.jointCount();
  std::vector<JointRows> palette(joints), slots(lod.palette_joints.size());
  std::vector<glm::vec3> full(lod.mesh.vertexCount()), reduced(lod.mesh.vertexCount());
  PoseScratch scratch;
  float worst = 0.0f;
  auto measure = [&](const Clip* clip, float time) {
    evaluatePalette(c.skeleton, clip, time, scratch, palette);
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = palette[lod.palette_joints[s]];
    const std::span<const JointRows> lod_palette =
        lod.palette_joints.empty() ? std::span<const JointRows>(palette) : slots;
    ASSERT_TRUE(
        (SkinJob{originals.positions, {}, originals.joints, originals.weights, palette, full, {}}
             .run()));
    ASSERT_TRUE((
        SkinJob{lod.mesh.positions, {}, lod.mesh.joints, lod.mesh.weights, lod_palette, reduced, {}}
            .run()));
    for (size_t v = 0; v < full.size(); ++v)
      worst = std::max(worst, glm::distance(full[v], reduced[v]));
  };
  for (const Clip& clip : c.clips) {
    const int steps = static_cast<int>(std::ceil(clip.duration() * kReductionSampleFps - 1e-4f));
    for (int i = 0; i <= steps; ++i) {
      measure(&clip, std::min(clip.start_time + static_cast<float>(i) / kReductionSampleFps,
                              clip.end_time));
    }
  }
  if (c.clips.empty()) measure(nullptr, 0.0f);
  return worst;
}

class AssetLodTest : public ::testing::TestWithParam<test::SkinnedAsset> {};

TEST_P(AssetLodTest, DefaultChainWithinItsCapsAndTargets) {
  const test::SkinnedAsset& asset = GetParam();
  THRONG_REQUIRE(test::assetPresent(asset), std::string("asset not present: ") + asset.path);
  Result<Character> imported = test::importAsset(asset);
  ASSERT_TRUE(imported.ok()) << imported.status().toString();
  const Character& c = *imported;
  const LodChainOptions options = defaultLodChainOptions();
  LodChainReport report;
  const auto start = std::chrono::steady_clock::now();
  Result<std::vector<MeshLod>> lods = buildLodChain(c, options, &report);
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  const float size = c.size();
  std::printf("%s: %d joints, %zu triangles, %zu clips, height %.4g, chain %.3f s\n", asset.path,
              c.skeleton.jointCount(), c.mesh.triangleCount(), c.clips.size(), size, seconds);
  for (const LodLevelReport& l : report.levels) {
    std::printf(
        "  level %d -> LOD %2d: %6zu / %6zu triangles%s, %3d / %3d joints, max %.3f%% p99 "
        "%.3f%% (cap %.1f%%), picked from %.1f heights, %.3f s\n",
        l.level, l.lod, l.triangles, l.target_triangles, l.sloppy ? " (sloppy)" : "", l.joints,
        l.target_joints, 100.0f * l.max_error / size, 100.0f * l.p99_error / size,
        100.0f * options.levels[l.level].max_error, l.pick_distance / size, l.seconds);
  }
  for (const Warning& w : report.warnings) std::printf("  warning: %s\n", w.message.c_str());

  ASSERT_FALSE(lods->empty());
  EXPECT_EQ((*lods)[0].mesh.triangleCount(), c.mesh.triangleCount());
  EXPECT_TRUE((*lods)[0].palette_joints.empty());
  for (const LodLevelReport& l : report.levels) {
    if (l.lod < 0) continue;  // dropped, with a warning
    const MeshLod& lod = (*lods)[l.lod];
    SCOPED_TRACE(::testing::Message() << asset.path << " level " << l.level);
    const float cap = options.levels[l.level].max_error * size;
    EXPECT_LE(lod.max_error, cap * (1.0f + 1e-5f));
    EXPECT_LE(lod.p99_error, lod.max_error);
    EXPECT_TRUE(validateMesh(lod.mesh, l.joints, "lod").ok());
    if (l.level > 0 && l.target_triangles >= kMinCheckedTarget) {
      EXPECT_LE(
          std::abs(static_cast<double>(l.triangles) - static_cast<double>(l.target_triangles)),
          kTriangleTolerance * static_cast<double>(l.target_triangles))
          << l.triangles << " triangles for a target of " << l.target_triangles;
    }
    // The reported skinning error is what the full skeleton says, re-measured here.
    const float measured = measureSkinningError(c, lod);
    EXPECT_LE(measured, lod.skinning_error * (1.0f + 1e-4f) + 1e-6f * size);
    EXPECT_GE(measured, lod.skinning_error * (1.0f - 1e-4f) - 1e-6f * size);
    EXPECT_LE(lod.geometric_error + measured, cap * (1.0f + 1e-4f) + 1e-6f * size);
  }
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AssetLodTest, ::testing::ValuesIn(test::skinnedAssets()),
                         [](const ::testing::TestParamInfo<test::SkinnedAsset>& param_info) {
                           return test::assetTestName(param_info.param);
                         });

}  // namespace
}  // namespace throng
