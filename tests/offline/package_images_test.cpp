// Package images: sRGB-correct box mips, alpha weighting, the power-of-two rule.
#include "offline/package_images.h"

#include <cmath>

#include <gtest/gtest.h>

namespace throng {
namespace {

ImageLevel solid(uint32_t w, uint32_t h, std::array<uint8_t, 4> c) {
  ImageLevel l{w, h, {}};
  l.rgba.resize(size_t{4} * w * h);
  for (size_t i = 0; i < l.rgba.size(); ++i) l.rgba[i] = c[i % 4];
  return l;
}

float toLinear(float s) {
  return s <= 0.04045f ? s / 12.92f : std::pow((s + 0.055f) / 1.055f, 2.4f);
}
float toSrgb(float l) {
  return l <= 0.0031308f ? l * 12.92f : 1.055f * std::pow(l, 1.0f / 2.4f) - 0.055f;
}

TEST(PackageImages, ChainHalvesDownToOnePixel) {
  Result<std::vector<ImageLevel>> chain = buildMipChain(solid(7, 3, {10, 20, 30, 255}));
  ASSERT_TRUE(chain.ok()) << chain.status().toString();
  const uint32_t sizes[][2] = {{7, 3}, {3, 1}, {1, 1}};
  ASSERT_EQ(chain->size(), 3u);
  for (size_t l = 0; l < 3; ++l) {
    EXPECT_EQ((*chain)[l].width, sizes[l][0]);
    EXPECT_EQ((*chain)[l].height, sizes[l][1]);
    // A solid colour stays that colour at every level.
    for (size_t i = 0; i < (*chain)[l].rgba.size(); i += 4) {
      EXPECT_EQ((*chain)[l].rgba[i], 10);
      EXPECT_EQ((*chain)[l].rgba[i + 2], 30);
      EXPECT_EQ((*chain)[l].rgba[i + 3], 255);
    }
  }
  PackageImage image;
  image.mips = *chain;
  EXPECT_TRUE(validatePackageImage(image, "test", 0).ok());
}

TEST(PackageImages, BoxFilterAveragesInLinearLight) {
  // 2x2: two white and two black texels average to linear 0.5, sRGB 188, not 128.
  ImageLevel base{2, 2, {255, 255, 255, 255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 255}};
  Result<std::vector<ImageLevel>> chain = buildMipChain(base);
  ASSERT_TRUE(chain.ok());
  ASSERT_EQ(chain->size(), 2u);
  const int expected = static_cast<int>(std::lround(toSrgb(0.5f) * 255.0f));
  EXPECT_EQ(expected, 188);
  EXPECT_NEAR((*chain)[1].rgba[0], expected, 1);
  EXPECT_EQ((*chain)[1].rgba[3], 255);
  // Arbitrary values: each 2x2 block's mean in linear light, within rounding.
  ImageLevel ramp{4, 2, std::vector<uint8_t>(32)};
  for (int i = 0; i < 8; ++i) {
    const auto v = static_cast<uint8_t>(30 * i);
    uint8_t* texel = ramp.rgba.data() + 4 * i;
    texel[0] = v;
    texel[1] = static_cast<uint8_t>(255 - v);
    texel[2] = 100;
    texel[3] = 255;
  }
  chain = buildMipChain(ramp);
  ASSERT_TRUE(chain.ok());
  for (int x = 0; x < 2; ++x) {
    float mean = 0.0f;
    for (int k : {2 * x, 2 * x + 1, 4 + 2 * x, 4 + 2 * x + 1}) {
      mean += toLinear(static_cast<float>(30 * k) / 255.0f) / 4.0f;
    }
    EXPECT_NEAR((*chain)[1].rgba[4 * x], toSrgb(mean) * 255.0f, 1.0f) << x;
  }
}

TEST(PackageImages, TransparentTexelsDoNotDarkenTheirNeighbours) {
  // Left column opaque green, right column transparent black: the mean keeps pure green colour
  // and half the coverage.
  ImageLevel base{2, 1, {0, 255, 0, 255, 0, 0, 0, 0}};
  Result<std::vector<ImageLevel>> chain = buildMipChain(base);
  ASSERT_TRUE(chain.ok());
  const std::vector<uint8_t>& p = (*chain)[1].rgba;
  EXPECT_EQ(p[0], 0);
  EXPECT_GE(p[1], 254);
  EXPECT_NEAR(p[3], 128, 1);
}

TEST(PackageImages, DataImagesAreAveragedAsTheyAre) {
  // A normal map texel pair (128, 255) with alpha 0 on one side: as data, each channel is the
  // plain mean (no sRGB decoding, no weighting by an alpha that means nothing here).
  ImageLevel base{2, 1, {128, 0, 255, 0, 255, 100, 255, 255}};
  Result<std::vector<ImageLevel>> chain = buildMipChain(
      base, TextureWrap::kClampToEdge, TextureWrap::kClampToEdge, ColorSpace::kLinear);
  ASSERT_TRUE(chain.ok());
  const std::vector<uint8_t>& p = (*chain)[1].rgba;
  EXPECT_NEAR(p[0], 192, 1);  // (128 + 255) / 2
  EXPECT_NEAR(p[1], 50, 1);   // (0 + 100) / 2
  EXPECT_EQ(p[2], 255);
  EXPECT_NEAR(p[3], 128, 1);
  // As colour the same pixels give the alpha-weighted sRGB mean: the opaque texel's colour.
  chain = buildMipChain(base);
  ASSERT_TRUE(chain.ok());
  EXPECT_GE((*chain)[1].rgba[0], 254);

  // buildPackageImages takes each image's colour space from its uses.
  std::vector<SourceImage> images = {{"colour", base}, {"normals", base}};
  std::vector<Material> materials(1);
  materials[0].base_color_texture.image = 0;
  materials[0].normal_texture.image = 1;
  Result<std::vector<PackageImage>> out = buildPackageImages(images, materials);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_GE((*out)[0].mips[1].rgba[0], 254);
  EXPECT_NEAR((*out)[1].mips[1].rgba[0], 192, 1);
  // One image read both ways is refused (the importer stores such an image twice).
  materials[0].emissive_texture.image = 1;
  out = buildPackageImages(images, materials);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), ErrorCode::kInvalidData);
}

TEST(PackageImages, PowerOfTwoCopyOnlyWhereEs2NeedsIt) {
  std::vector<SourceImage> images(3);
  images[0] = {"npot", solid(300, 100, {200, 100, 50, 255})};
  images[1] = {"pot", solid(64, 32, {1, 2, 3, 4})};
  images[2] = {"npot clamped", solid(5, 3, {9, 9, 9, 9})};
  std::vector<Material> materials(3);
  materials[0].base_color_texture.image = 0;  // default sampler: trilinear, repeat
  materials[1].base_color_texture.image = 1;
  materials[2].base_color_texture.image = 2;
  materials[2].base_color_texture.sampler = {TextureFilter::kLinear, TextureFilter::kLinear,
                                             TextureWrap::kClampToEdge, TextureWrap::kClampToEdge};
  Result<std::vector<PackageImage>> out = buildPackageImages(images, materials);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  ASSERT_EQ(out->size(), 3u);
  const PackageImage& npot = (*out)[0];
  EXPECT_EQ(npot.name, "npot");
  EXPECT_EQ(npot.mips.size(), mipLevelCount(300, 100));
  ASSERT_FALSE(npot.pot_mips.empty());
  EXPECT_EQ(npot.pot_mips[0].width, 256u);
  EXPECT_EQ(npot.pot_mips[0].height, 128u);
  EXPECT_EQ(npot.pot_mips.size(), 9u);
  EXPECT_NEAR(npot.pot_mips[0].rgba[0], 200, 1);  // resampling keeps a solid colour
  EXPECT_TRUE((*out)[1].pot_mips.empty());        // already a power of two
  EXPECT_TRUE((*out)[2].pot_mips.empty());        // ES 2.0 samples it as it is
  for (size_t i = 0; i < out->size(); ++i) {
    EXPECT_TRUE(validatePackageImage((*out)[i], "test", i).ok());
  }
  // A second material sampling image 2 with repeat wraps makes the copy necessary.
  materials.push_back(materials[2]);
  materials.back().base_color_texture.sampler.wrap_s = TextureWrap::kRepeat;
  out = buildPackageImages(images, materials);
  ASSERT_TRUE(out.ok());
  ASSERT_FALSE((*out)[2].pot_mips.empty());
  EXPECT_EQ((*out)[2].pot_mips[0].width, 4u);
  EXPECT_EQ((*out)[2].pot_mips[0].height, 4u);
  // Any texture slot's sampler counts: a normal texture with repeat wraps on image 2.
  materials.pop_back();
  materials[0].normal_texture.image = 2;
  out = buildPackageImages(images, materials);
  ASSERT_FALSE(out.ok());  // image 2 would be colour and data at once
  materials[0].normal_texture.image = -1;
  materials[1].occlusion_texture.image = 2;
  materials[2].base_color_texture.image = -1;
  out = buildPackageImages(images, materials);
  ASSERT_TRUE(out.ok()) << out.status().toString();
  EXPECT_FALSE((*out)[2].pot_mips.empty());  // the occlusion texture's default sampler repeats
}

TEST(PackageImages, ResizeRejectsBadSizes) {
  const ImageLevel base = solid(4, 4, {0, 0, 0, 255});
  EXPECT_EQ(resizeImage(base, 0, 4, true).status().code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(resizeImage(base, kMaxImageSize + 1, 4, true).status().code(),
            ErrorCode::kInvalidArgument);
  ImageLevel broken = base;
  broken.rgba.pop_back();
  EXPECT_EQ(resizeImage(broken, 2, 2, true).status().code(), ErrorCode::kInvalidData);
  Result<ImageLevel> up = resizeImage(base, 8, 2, false, TextureWrap::kRepeat);
  ASSERT_TRUE(up.ok());
  EXPECT_EQ(up->rgba.size(), 8u * 2u * 4u);
}

}  // namespace
}  // namespace throng
