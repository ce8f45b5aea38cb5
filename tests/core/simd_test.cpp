// Tests of the four-lane vector layer: exact half widening, transposes, masks and broadcasts.
#include "throng/core/simd.h"

#include <cstring>
#include <vector>

#include <gtest/gtest.h>

#include "throng/core/half.h"

namespace throng {
namespace {

std::vector<float> lanes(simd::F4 v) {
  std::vector<float> out(4);
  simd::store(out.data(), v);
  return out;
}

TEST(Simd, LoadHalf4WidensEveryHalfExactly) {
  // All 65536 halves, subnormals, infinities and NaN payloads included, bit for bit.
  for (uint32_t h = 0; h < 65536; h += 4) {
    const uint16_t in[4] = {static_cast<uint16_t>(h), static_cast<uint16_t>(h + 1),
                            static_cast<uint16_t>(h + 2), static_cast<uint16_t>(h + 3)};
    const std::vector<float> out = lanes(simd::loadHalf4(in));
    for (int i = 0; i < 4; ++i) {
      const float expected = halfToFloat(in[i]);
      ASSERT_EQ(std::memcmp(&out[i], &expected, sizeof(float)), 0) << "half " << in[i];
    }
  }
}

TEST(Simd, TransposeMasksAndBroadcasts) {
  simd::F4 a = simd::set(1, 2, 3, 4), b = simd::set(5, 6, 7, 8);
  simd::F4 c = simd::set(9, 10, 11, 12), d = simd::set(13, 14, 15, 16);
  simd::transpose(a, b, c, d);
  EXPECT_EQ(lanes(a), (std::vector<float>{1, 5, 9, 13}));
  EXPECT_EQ(lanes(d), (std::vector<float>{4, 8, 12, 16}));
  EXPECT_EQ(lanes(simd::broadcast<2>(b)), (std::vector<float>{10, 10, 10, 10}));
  const float x = 7.5f;
  EXPECT_EQ(lanes(simd::splatFrom(&x)), (std::vector<float>{7.5f, 7.5f, 7.5f, 7.5f}));
  const simd::F4 mask = simd::laneMask(0b0101u);
  EXPECT_EQ(simd::laneBits(mask), 0b0101u);
  EXPECT_EQ(lanes(simd::select(mask, a, d)), (std::vector<float>{1, 8, 9, 16}));
  EXPECT_EQ(simd::laneBits(simd::greater(a, simd::splat(6.0f))), 0b1100u);
  const simd::F4 sign = simd::signBits(simd::set(-1, 2, -0.0f, 4));
  EXPECT_EQ(lanes(simd::flipSign(simd::splat(3.0f), sign)), (std::vector<float>{-3, 3, -3, 3}));
  EXPECT_EQ(lanes(simd::sqrt(simd::set(4, 9, 16, 25)) / simd::splat(2.0f)),
            (std::vector<float>{1, 1.5f, 2, 2.5f}));
}

}  // namespace
}  // namespace throng
