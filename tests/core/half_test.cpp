// Half-float conversion: exact values, rounding to nearest even, subnormals, infinities, NaN.
#include "throng/core/half.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

namespace throng {
namespace {

TEST(Half, ExactValues) {
  EXPECT_EQ(floatToHalf(0.0f), 0x0000);
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(-2.0f), 0xc000);
  EXPECT_EQ(floatToHalf(0.5f), 0x3800);
  EXPECT_EQ(floatToHalf(kMaxHalf), 0x7bff);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -24)), 0x0001);  // smallest subnormal
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14)), 0x0400);  // smallest normal
  EXPECT_EQ(halfToFloat(0x3c00), 1.0f);
  EXPECT_EQ(halfToFloat(0x0001), std::ldexp(1.0f, -24));
  EXPECT_EQ(halfToFloat(0x7bff), kMaxHalf);
}

TEST(Half, EveryHalfRoundTrips) {
  for (uint32_t h = 0; h < 0x10000; ++h) {
    const uint16_t half = static_cast<uint16_t>(h);
    const float f = halfToFloat(half);
    if (std::isnan(f)) {
      EXPECT_FALSE(halfIsFinite(half));
      EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(f))));
      continue;
    }
    EXPECT_EQ(floatToHalf(f), half) << "half " << h;
    EXPECT_EQ(halfIsFinite(half), std::isfinite(f));
  }
}

TEST(Half, RoundsToNearestEven) {
  // 1 + 2^-11 is halfway between 1 and the next half (1 + 2^-10): ties go to the even one (1).
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11)), 0x3c00);
  // 1 + 3 * 2^-11 is halfway between 0x3c01 and 0x3c02: even is 0x3c02.
  EXPECT_EQ(floatToHalf(1.0f + 3 * std::ldexp(1.0f, -11)), 0x3c02);
  EXPECT_EQ(floatToHalf(1.0f + std::ldexp(1.0f, -11) + std::ldexp(1.0f, -20)), 0x3c01);
  // Subnormal ties: 1.5 * 2^-24 -> 2 * 2^-24 (even), 0.5 * 2^-24 -> 0.
  EXPECT_EQ(floatToHalf(1.5f * std::ldexp(1.0f, -24)), 0x0002);
  EXPECT_EQ(floatToHalf(0.5f * std::ldexp(1.0f, -24)), 0x0000);
  EXPECT_EQ(floatToHalf(0.51f * std::ldexp(1.0f, -24)), 0x0001);
  // Largest subnormal rounding up into the smallest normal.
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -14) - std::ldexp(1.0f, -26)), 0x0400);
}

TEST(Half, RelativeErrorIsBounded) {
  for (float v = -1000.0f; v < 1000.0f; v += 0.37f) {
    const float back = halfToFloat(floatToHalf(v));
    EXPECT_LE(std::abs(back - v), std::max(std::abs(v) * std::ldexp(1.0f, -11), 1e-7f)) << v;
  }
}

TEST(Half, OutOfRangeAndSpecials) {
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);  // rounds past the largest half: infinity
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(1e10f), 0x7c00);
  EXPECT_EQ(floatToHalf(-1e10f), 0xfc00);
  EXPECT_EQ(floatToHalf(std::numeric_limits<float>::infinity()), 0x7c00);
  EXPECT_FALSE(halfIsFinite(floatToHalf(std::numeric_limits<float>::quiet_NaN())));
  EXPECT_TRUE(std::isnan(halfToFloat(floatToHalf(std::numeric_limits<float>::quiet_NaN()))));
  EXPECT_EQ(floatToHalf(1e-10f), 0x0000);
}

}  // namespace
}  // namespace throng
