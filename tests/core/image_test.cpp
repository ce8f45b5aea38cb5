// RGBA8 images: power-of-two rounding, chain sizes, the levels a device uploads, validation.
#include "throng/core/image.h"

#include <gtest/gtest.h>

namespace throng {
namespace {

ImageLevel level(uint32_t w, uint32_t h) {
  return ImageLevel{w, h, std::vector<uint8_t>(size_t{4} * w * h, 128)};
}

std::vector<ImageLevel> chain(uint32_t w, uint32_t h) {
  std::vector<ImageLevel> out = {level(w, h)};
  while (out.back().width > 1 || out.back().height > 1) {
    out.push_back(level(std::max(1u, out.back().width / 2), std::max(1u, out.back().height / 2)));
  }
  return out;
}

TEST(Image, NearestPowerOfTwoOnALogScale) {
  EXPECT_EQ(nearestPowerOfTwo(0), 1u);
  EXPECT_EQ(nearestPowerOfTwo(1), 1u);
  EXPECT_EQ(nearestPowerOfTwo(3), 4u);  // 3^2 = 9 >= 2 * 2^2
  EXPECT_EQ(nearestPowerOfTwo(5), 4u);
  EXPECT_EQ(nearestPowerOfTwo(6), 8u);
  EXPECT_EQ(nearestPowerOfTwo(1024), 1024u);
  EXPECT_EQ(nearestPowerOfTwo(1448), 1024u);  // 1448 < 1024 * sqrt(2) = 1448.15
  EXPECT_EQ(nearestPowerOfTwo(1449), 2048u);
  EXPECT_EQ(nearestPowerOfTwo(kMaxImageSize - 1), kMaxImageSize);
  EXPECT_EQ(nearestPowerOfTwo(kMaxImageSize + 5000), kMaxImageSize);
  EXPECT_TRUE(isPowerOfTwo(64));
  EXPECT_FALSE(isPowerOfTwo(0));
  EXPECT_FALSE(isPowerOfTwo(96));
}

TEST(Image, MipLevelCountIsTheGlChain) {
  EXPECT_EQ(mipLevelCount(1, 1), 1u);
  EXPECT_EQ(mipLevelCount(2, 1), 2u);
  EXPECT_EQ(mipLevelCount(256, 256), 9u);
  EXPECT_EQ(mipLevelCount(300, 17), 9u);  // 300 150 75 37 18 9 4 2 1
  EXPECT_EQ(chain(300, 17).size(), 9u);
}

TEST(Image, LevelsToUploadSkipWhatTheDeviceCannotHold) {
  PackageImage image;
  image.mips = chain(300, 200);
  image.pot_mips = chain(256, 256);
  auto levels = levelsToUpload(image, false, 0);
  ASSERT_EQ(levels.size(), image.mips.size());
  EXPECT_EQ(levels[0].width, 300u);
  levels = levelsToUpload(image, true, 0);  // ES 2.0 takes the power-of-two copy
  EXPECT_EQ(levels[0].width, 256u);
  levels = levelsToUpload(image, true, 64);
  ASSERT_EQ(levels.size(), 7u);  // 64 .. 1
  EXPECT_EQ(levels[0].width, 64u);
  levels = levelsToUpload(image, false, 100);
  EXPECT_EQ(levels[0].width, 75u);
  EXPECT_EQ(levels[0].height, 50u);
  // Without a power-of-two copy (a POT image, or one no sampler needs it for), ES 2.0 uses mips.
  image.pot_mips.clear();
  EXPECT_EQ(levelsToUpload(image, true, 0)[0].width, 300u);
}

TEST(Image, ValidationNamesTheImage) {
  PackageImage image;
  image.name = "skin";
  EXPECT_FALSE(validatePackageImage(image, "p", 2).ok());  // no pixels
  image.mips = chain(5, 3);
  EXPECT_TRUE(validatePackageImage(image, "p", 2).ok());
  image.mips[1] = level(3, 1);
  Status s = validatePackageImage(image, "p", 2);
  EXPECT_NE(s.message().find("p: image 2 ('skin') level 1 is 3x1, the chain needs 2x1"),
            std::string::npos)
      << s.message();
  image.mips = chain(5, 3);
  image.mips.back().rgba.push_back(0);
  s = validatePackageImage(image, "p", 2);
  EXPECT_NE(s.message().find("holds 5 bytes, not 4"), std::string::npos) << s.message();
  image.mips = chain(5, 3);
  image.mips.pop_back();
  EXPECT_NE(validatePackageImage(image, "p", 2).message().find("ends at 2x1"), std::string::npos);
  image.mips = chain(5, 3);
  image.pot_mips = chain(8, 3);
  EXPECT_FALSE(validatePackageImage(image, "p", 2).ok());
  image.pot_mips = chain(8, 4);
  EXPECT_TRUE(validatePackageImage(image, "p", 2).ok());
  const ImageLevel empty{0, 4, {}};
  EXPECT_EQ(validateImageLevel(empty, "p", "x").code(), ErrorCode::kInvalidData);
  const ImageLevel huge{kMaxImageSize + 1, 1, {}};
  EXPECT_EQ(validateImageLevel(huge, "p", "x").code(), ErrorCode::kLimitExceeded);
}

}  // namespace
}  // namespace throng
