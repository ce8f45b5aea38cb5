// Pictures of each LOD at its screen-space switch distance against LOD 0's, on every shared
// asset and the sample character, drawn by the instanced path at 1080 px and 60 degrees: the
// silhouettes differ by about a pixel.
#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>

#include "offline/asset_characters.h"
#include "render/instanced_renderer.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/core/skinning.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/lod_pick.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"

namespace throng::render {
namespace {

// The reference camera of the pick: 1080 px high (square), 60 degrees.
constexpr int kViewport = 1080;
// A LOD's error is at most one pixel at its switch distance; its silhouette may differ from LOD
// 0's by that pixel, plus one where rasterisation rounds the two meshes' edges apart, plus the
// perspective's off-axis stretch (up to ~1.3x at the frame's corners).
constexpr int kMaxSilhouettePixels = 2;

using Mask = std::vector<uint8_t>;

Mask silhouette(const Image& image) {
  Mask mask(static_cast<size_t>(image.width) * image.height);
  for (size_t p = 0; p < mask.size(); ++p) {
    const uint8_t* px = &image.rgba[p * 4];
    mask[p] = (px[0] > 4 || px[1] > 4 || px[2] > 4) ? 1 : 0;
  }
  return mask;
}

// The largest Chebyshev distance (pixels) from a pixel of one mask to the nearest pixel of the
// other, both ways (the Hausdorff distance of the two silhouettes), searched up to `limit`;
// limit + 1 when some pixel has no partner that near.
int silhouetteDistance(const Mask& a, const Mask& b, int size, int limit) {
  int worst = 0;
  for (int pass = 0; pass < 2; ++pass) {
    const Mask& from = pass == 0 ? a : b;
    const Mask& to = pass == 0 ? b : a;
    for (int y = 0; y < size; ++y) {
      for (int x = 0; x < size; ++x) {
        if (!from[static_cast<size_t>(y) * size + x] || to[static_cast<size_t>(y) * size + x]) {
          continue;
        }
        int found = limit + 1;
        for (int r = 1; r <= limit && found > limit; ++r) {
          for (int dy = -r; dy <= r && found > limit; ++dy) {
            for (int dx = -r; dx <= r; ++dx) {
              if (std::max(std::abs(dx), std::abs(dy)) != r) continue;
              const int u = x + dx, v = y + dy;
              if (u < 0 || v < 0 || u >= size || v >= size) continue;
              if (to[static_cast<size_t>(v) * size + u]) {
                found = r;
                break;
              }
            }
          }
        }
        worst = std::max(worst, found);
      }
    }
  }
  return worst;
}

// Bakes `character` with the default LOD chain and compares each LOD's picture at its switch
// distance with LOD 0's, for a few poses.
void checkSilhouettes(const Character& character, const std::string& name) {
  BakeOptions options;
  options.source = name;
  Result<Package> package = bakeCharacter(character, options);
  ASSERT_TRUE(package.ok()) << package.status().toString();
  Result<std::vector<MeshLod>> lods = buildLodChain(character, defaultLodChainOptions());
  ASSERT_TRUE(lods.ok()) << lods.status().toString();
  package->lods = std::move(*lods);
  const std::vector<MeshLod>& chain = package->lods;

  DeviceDesc desc;
  desc.width = kViewport;
  desc.height = kViewport;
  auto device = test::makeTestDevice(desc);
  ASSERT_NE(device, nullptr);
  Result<std::unique_ptr<InstancedRenderer>> renderer =
      InstancedRenderer::create(*device, *package);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  const LodProjection camera;
  const float size = character.size();

  // Poses: a quarter, half and three quarters into the first clips.
  std::vector<Instance> poses;
  for (size_t c = 0; c < package->clips.size() && poses.size() < 3; ++c) {
    for (float at : {0.25f, 0.5f, 0.75f}) {
      if (poses.size() >= 3) break;
      Instance instance;
      instance.frames.primary = sampleFrames(package->clips[c], at * package->clips[c].duration);
      instance.frames.secondary = instance.frames.primary;
      poses.push_back(instance);
    }
  }
  std::vector<JointRows> palette(package->skeleton.jointCount());
  std::vector<glm::vec3> posed(chain[0].mesh.vertexCount());
  for (size_t lod = 1; lod < chain.size(); ++lod) {
    // A LOD without error is picked from distance 0: look at it from one height instead.
    const float pick = lodPickDistance(chain, static_cast<int>(lod), camera) * 1.0001f;
    const float distance = pick > 0.0f ? pick : size;
    ASSERT_EQ(pickLodScreenSpace(chain, distance, camera), static_cast<int>(lod));
    for (size_t p = 0; p < poses.size(); ++p) {
      // The camera looks at the posed mesh down -Z from `distance` in front of its nearest point.
      ASSERT_TRUE((FramePaletteJob{&package->animation, poses[p].frames, palette}.run()));
      ASSERT_TRUE((SkinJob{
          chain[0].mesh.positions,
          {},
          chain[0].mesh.joints,
          chain[0].mesh.weights,
          palette,
          posed,
          {}}.run()));
      const Bounds bounds = computeBounds(posed);
      const glm::vec3 centre = 0.5f * (bounds.min + bounds.max);
      const glm::vec3 eye(centre.x, centre.y, bounds.max.z + distance);
      const float depth = bounds.max.z - bounds.min.z;
      FrameView view;
      view.view_projection =
          glm::perspective(camera.fov_y, 1.0f, 0.5f * distance, distance + depth + 2.0f * size) *
          glm::lookAt(eye, glm::vec3(centre.x, centre.y, bounds.min.z), glm::vec3(0, 1, 0));
      Image pictures[2];
      for (int which = 0; which < 2; ++which) {
        const size_t drawn = which == 0 ? 0 : lod;
        std::vector<uint32_t> counts(drawn + 1, 0);
        counts[drawn] = 1;
        device->beginFrame(glm::vec4(0, 0, 0, 1));
        ASSERT_TRUE((*renderer)->draw(view, std::span<const Instance>(&poses[p], 1), counts).ok());
        device->finish();
        Result<Image> image = device->readPixels();
        ASSERT_TRUE(image.ok());
        pictures[which] = std::move(*image);
      }
      const Mask full = silhouette(pictures[0]);
      const Mask reduced = silhouette(pictures[1]);
      const int64_t covered = std::count(full.begin(), full.end(), 1);
      ASSERT_GT(covered, 0) << name << ": nothing drawn";
      const int apart = silhouetteDistance(full, reduced, kViewport, 8);
      std::printf(
          "%s LOD %zu pose %zu: switch at %.2f heights, %lld px covered, silhouettes %d px "
          "apart\n",
          name.c_str(), lod, p, distance / size, static_cast<long long>(covered), apart);
      EXPECT_LE(apart, kMaxSilhouettePixels) << name << " LOD " << lod << " pose " << p;
      if (apart > kMaxSilhouettePixels && std::getenv("THRONG_TEST_PICTURES") != nullptr) {
        for (int which = 0; which < 2; ++which) {
          const std::string path = std::string(std::getenv("THRONG_TEST_PICTURES")) + "/" +
                                   test::assetTestName({name.c_str(), {}}) + "-lod" +
                                   std::to_string(which == 0 ? 0 : lod) + "-pose" +
                                   std::to_string(p) + ".png";
          EXPECT_TRUE(writePng(pictures[which], path).ok());
        }
      }
    }
  }
}

class AssetSilhouetteTest : public ::testing::TestWithParam<test::SkinnedAsset> {};

TEST_P(AssetSilhouetteTest, EachLodAtItsSwitchDistanceLooksLikeLodZero) {
  const test::SkinnedAsset& asset = GetParam();
  THRONG_REQUIRE(test::assetPresent(asset), std::string("asset not present: ") + asset.path);
  Result<Character> character = test::importAsset(asset);
  ASSERT_TRUE(character.ok()) << character.status().toString();
  if (character->clips.empty()) {
    Clip rest;  // a static skin is baked as its rest pose
    rest.name = "rest";
    rest.joints.resize(character->skeleton.jointCount());
    character->clips.push_back(rest);
  }
  checkSilhouettes(*character, asset.path);
}

TEST(SampleCharacterSilhouette, EachLodAtItsSwitchDistanceLooksLikeLodZero) {
  checkSilhouettes(makeSampleCharacter(), "sample/sample");
}

INSTANTIATE_TEST_SUITE_P(SharedAssets, AssetSilhouetteTest,
                         ::testing::ValuesIn(test::skinnedAssets()),
                         [](const ::testing::TestParamInfo<test::SkinnedAsset>& param_info) {
                           return test::assetTestName(param_info.param);
                         });

}  // namespace
}  // namespace throng::render
