// The animation texture's picture: its size and layout, each channel stretched over its range, and
// the PNG holding exactly the picture's colours.
#include "throng/offline/texture_preview.h"

#include <algorithm>
#include <cstdint>
#include <memory>

#include <gtest/gtest.h>
#include <stb_image.h>

#include "support/test_support.h"
#include "throng/offline/bake.h"

namespace throng {
namespace {

Package bakeChain() {
  BakeOptions options;
  options.max_width = 90;  // several rows of frames
  Result<Package> package = bakeCharacter(test::makeChainCharacter(), options);
  EXPECT_TRUE(package.ok()) << package.status().toString();
  return std::move(package).value();
}

TEST(TexturePreview, ShowsEveryStoredTexelStretchedOverItsRowsRange) {
  const Package p = bakeChain();
  const AnimationTexture& t = p.animation;
  Result<ImageLevel> image = texturePreviewImage(t, "chain");
  ASSERT_TRUE(image.ok()) << image.status().toString();
  ASSERT_EQ(image->width, t.width);
  ASSERT_EQ(image->height, 2 * t.height);
  ASSERT_EQ(image->rgba.size(), size_t{image->width} * image->height * 4);
  auto pixel = [&](size_t x, size_t y) { return &image->rgba[(y * image->width + x) * 4]; };
  // Where each stored texel lands; everything else stays black.
  std::vector<bool> used(size_t{t.width} * t.height, false);
  // Per matrix row and channel, the darkest and brightest byte: a channel whose values differ
  // spans the whole 0..255 range.
  uint8_t lo[3][3], hi[3][3];
  std::fill(&lo[0][0], &lo[0][0] + 9, uint8_t{255});
  std::fill(&hi[0][0], &hi[0][0] + 9, uint8_t{0});
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < t.joint_count; ++j) {
      for (uint32_t r = 0; r < 3; ++r) {
        const uint32_t x = t.texelX(f, j, r), y = t.texelY(f, j);
        used[size_t{y} * t.width + x] = true;
        for (int c = 0; c < 3; ++c) {
          lo[r][c] = std::min(lo[r][c], pixel(x, 2 * y)[c]);
          hi[r][c] = std::max(hi[r][c], pixel(x, 2 * y)[c]);
        }
        // The translation row: a ramp from dark blue to yellow (red == green, blue = 255 - red/2).
        const uint8_t* w = pixel(x, 2 * y + 1);
        EXPECT_EQ(w[0], w[1]);
        EXPECT_EQ(w[2], 255 - w[0] / 2);
      }
    }
  }
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      if (lo[r][c] == 128 && hi[r][c] == 128) continue;  // a constant channel shows grey
      EXPECT_EQ(lo[r][c], 0) << "row " << r << " channel " << c;
      EXPECT_EQ(hi[r][c], 255) << "row " << r << " channel " << c;
    }
  }
  for (uint32_t y = 0; y < t.height; ++y) {
    for (uint32_t x = 0; x < t.width; ++x) {
      for (uint32_t half = 0; half < 2; ++half) {
        const uint8_t* px = pixel(x, 2 * y + half);
        EXPECT_EQ(px[3], 255);
        if (!used[size_t{y} * t.width + x]) {
          EXPECT_EQ(px[0] + px[1] + px[2], 0) << x << ", " << 2 * y + half << " is not black";
        }
      }
    }
  }
}

TEST(TexturePreview, ThePngHoldsThePicturesColours) {
  const Package p = bakeChain();
  Result<ImageLevel> image = texturePreviewImage(p.animation, "chain");
  ASSERT_TRUE(image.ok());
  const auto dir = test::makeTempDir("preview");
  const std::string path = (dir / "preview.png").string();
  ASSERT_TRUE(writeTexturePreview(p.animation, path).ok());
  int width = 0, height = 0, channels = 0;
  std::unique_ptr<uint8_t, void (*)(void*)> png(
      stbi_load(path.c_str(), &width, &height, &channels, 4), stbi_image_free);
  ASSERT_NE(png, nullptr) << stbi_failure_reason();
  EXPECT_EQ(channels, 3);  // RGB: the picture is opaque
  ASSERT_EQ(static_cast<uint32_t>(width), image->width);
  ASSERT_EQ(static_cast<uint32_t>(height), image->height);
  EXPECT_TRUE(std::equal(image->rgba.begin(), image->rgba.end(), png.get()));
  std::filesystem::remove_all(dir);
}

TEST(TexturePreview, AnEmptyTextureIsRefusedNamingTheSource) {
  Result<ImageLevel> image = texturePreviewImage(AnimationTexture{}, "hero.throng");
  ASSERT_FALSE(image.ok());
  EXPECT_EQ(image.status().code(), ErrorCode::kInvalidArgument);
  EXPECT_NE(image.status().message().find("hero.throng"), std::string::npos);
}

}  // namespace
}  // namespace throng
