// Impostors a path cannot draw: too many clips for the shader, atlases too large for the device.
// The renderer falls back to the last mesh LOD and says why, or fails when the impostor was asked
// for by a fixed LOD.
#include <string>

#include <gtest/gtest.h>

#include "render/test_hooks.h"
#include "render_test_support.h"
#include "support/test_support.h"
#include "throng/core/impostor.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace impostor_limits_test {

constexpr int kFrameSize = 64;

// A valid impostor of `clips` one-frame clips, 2 x 1 views of `tile` texels square.
Impostor squareTileImpostor(size_t clips, uint32_t tile) {
  Impostor m;
  m.azimuths = 2;
  m.elevations = 1;
  m.tile_width = tile;
  m.tile_height = tile;
  m.center = {0.0f, 0.5f, 0.0f};
  m.size = {1.0f, 1.0f};
  m.fps = 10.0f;
  m.clip_frames.assign(clips, 1);
  m.max_error = 0.01f;
  const size_t texels = size_t{m.atlasWidth()} * m.atlasHeight();
  m.color.assign(texels * kImpostorColorBytes, 128);
  m.normals.assign(texels * kImpostorNormalBytes, 200);
  return m;
}

// The chain package with its clip repeated to `clips` clips and the impostor given.
Package packageWith(size_t clips, Impostor impostor) {
  Package p = test::makeChainPackage();
  const BakedClip first = p.clips[0];
  while (p.clips.size() < clips) {
    p.clips.push_back(first);
    p.clips.back().name = "copy" + std::to_string(p.clips.size());
  }
  p.impostor = std::move(impostor);
  return p;
}

void expectFallbackThenRefusalWhenFixed(Device& device, const Package& package,
                                        const std::string& why) {
  const int mesh_lods = static_cast<int>(package.lods.size());
  for (RenderPath path : {RenderPath::kInstanced, RenderPath::kGpu}) {
    CrowdRendererDesc desc;
    desc.path = path;
    CrowdRenderer fallback(device, package, desc);
    ASSERT_TRUE(fallback.ok()) << fallback.status().toString();
    EXPECT_EQ(fallback.impostorLod(), -1);
    EXPECT_EQ(fallback.lodCount(), mesh_lods);
    EXPECT_EQ(fallback.impostorReason(), "not drawn, the last mesh LOD stands in: " + why);
    desc.fixed_lod = mesh_lods;  // the impostor, asked for by name: an error, not a fallback
    CrowdRenderer fixed(device, package, desc);
    EXPECT_FALSE(fixed.ok());
    EXPECT_EQ(fixed.status().code(), ErrorCode::kLimitExceeded);
    EXPECT_EQ(fixed.status().message(), why);
  }
}

TEST(ImpostorLimits, MoreClipsThanTheShaderTellsApartFallBackToTheLastMeshLod) {
  auto device = test::makeTestDevice(3, kFrameSize);
  ASSERT_NE(device, nullptr);
  const Package package = packageWith(65, squareTileImpostor(65, 4));
  ASSERT_TRUE(validatePackage(package, "limits").ok())
      << validatePackage(package, "limits").toString();
  expectFallbackThenRefusalWhenFixed(*device, package,
                                     "impostor: 65 clips, more than the 64 its shader tells apart");
  // 64 clips are drawn.
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  CrowdRenderer drawn(*device, packageWith(64, squareTileImpostor(64, 4)), desc);
  ASSERT_TRUE(drawn.ok()) << drawn.status().toString();
  EXPECT_EQ(drawn.impostorLod(), static_cast<int>(package.lods.size()));
}

TEST(ImpostorLimits, AtlasesLargerThanTwiceTheTextureLimitFallBackToTheLastMeshLod) {
  CapsOverride small;
  small.max_texture_size = 256;
  auto device = test::makeTestDevice(3, kFrameSize, small);
  ASSERT_NE(device, nullptr);
  // 1 frame x 2 views of 300-texel tiles: 300 x 600 texels, past 2 x 256 even halved.
  expectFallbackThenRefusalWhenFixed(*device, packageWith(1, squareTileImpostor(1, 300)),
                                     "impostor: atlases of 300x600 texels, more than twice "
                                     "GL_MAX_TEXTURE_SIZE 256 even at mip level 1");
  // 200-texel tiles (200 x 400) are halved to fit and drawn.
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  const Package halved = packageWith(1, squareTileImpostor(1, 200));
  CrowdRenderer drawn(*device, halved, desc);
  ASSERT_TRUE(drawn.ok()) << drawn.status().toString();
  EXPECT_EQ(drawn.impostorLod(), static_cast<int>(halved.lods.size()));
}

}  // namespace impostor_limits_test
}  // namespace throng::render
