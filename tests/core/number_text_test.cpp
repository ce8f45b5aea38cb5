// Numbers as text: the standard and the portable implementations agree on what they accept, and
// every float written reads back bit for bit through both.
#include "core/number_text.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>

#include <gtest/gtest.h>

namespace throng {
namespace {

uint32_t bits(float value) {
  uint32_t out = 0;
  std::memcpy(&out, &value, sizeof(out));
  return out;
}

struct Case {
  const char* text;
  std::errc expected;
  double value;  // when expected is std::errc()
};

// What std::from_chars accepts and rejects in its general format.
const Case kCases[] = {
    {"0", std::errc(), 0.0},
    {"-2.5", std::errc(), -2.5},
    {"1e3", std::errc(), 1000.0},
    {"1.25E-2", std::errc(), 0.0125},
    {".5", std::errc(), 0.5},
    {"7.", std::errc(), 7.0},
    {"", std::errc::invalid_argument, 0.0},
    {"-", std::errc::invalid_argument, 0.0},
    {"+1", std::errc::invalid_argument, 0.0},
    {" 1", std::errc::invalid_argument, 0.0},
    {"1 ", std::errc::invalid_argument, 0.0},
    {"1x", std::errc::invalid_argument, 0.0},
    {"0x10", std::errc::invalid_argument, 0.0},
    {"-0x1p3", std::errc::invalid_argument, 0.0},
    {"1,5", std::errc::invalid_argument, 0.0},
    {"e5", std::errc::invalid_argument, 0.0},
    {"1e40", std::errc::result_out_of_range, 0.0},
    {"-1e40", std::errc::result_out_of_range, 0.0},
};

TEST(NumberText, StandardAndPortableParseFloatsAlike) {
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.text);
    float standard = 42.0f;
    float portable = 42.0f;
    EXPECT_EQ(parseFloat(c.text, standard), c.expected);
    EXPECT_EQ(detail::parseFloatPortable(c.text, portable), c.expected);
    const float expected = c.expected == std::errc() ? static_cast<float>(c.value) : 42.0f;
    EXPECT_EQ(bits(standard), bits(expected));  // untouched on error
    EXPECT_EQ(bits(portable), bits(expected));
  }
}

TEST(NumberText, DoublesAndTheirRange) {
  double standard = 0.0;
  double portable = 0.0;
  EXPECT_EQ(parseDouble("1e40", standard), std::errc());
  EXPECT_EQ(detail::parseDoublePortable("1e40", portable), std::errc());
  EXPECT_EQ(standard, 1e40);
  EXPECT_EQ(portable, 1e40);
  EXPECT_EQ(parseDouble("1e400", standard), std::errc::result_out_of_range);
  EXPECT_EQ(detail::parseDoublePortable("1e400", portable), std::errc::result_out_of_range);
  EXPECT_EQ(parseDouble("+3", standard), std::errc::invalid_argument);
  EXPECT_EQ(detail::parseDoublePortable("+3", portable), std::errc::invalid_argument);
}

TEST(NumberText, InfinityAndNan) {
  for (const char* text : {"inf", "-inf", "infinity", "nan"}) {
    SCOPED_TRACE(text);
    float standard = 0.0f;
    float portable = 0.0f;
    EXPECT_EQ(parseFloat(text, standard), std::errc());
    EXPECT_EQ(detail::parseFloatPortable(text, portable), std::errc());
    EXPECT_EQ(std::isnan(standard), std::isnan(portable));
    EXPECT_EQ(std::isinf(standard), std::isinf(portable));
  }
}

TEST(NumberText, WrittenFloatsReadBackBitForBit) {
  std::mt19937 rng(7);
  const float specials[] = {0.0f,
                            -0.0f,
                            1.0f,
                            0.1f,
                            100000.0f,
                            240823472.0f,
                            std::numeric_limits<float>::max(),
                            std::numeric_limits<float>::lowest(),
                            std::numeric_limits<float>::min(),
                            std::numeric_limits<float>::denorm_min()};
  auto check = [](float value) {
    std::string standard;
    std::string portable;
    appendFloat(standard, value);
    detail::appendFloatPortable(portable, value);
    for (const std::string& text : {standard, portable}) {
      float a = 0.0f;
      float b = 0.0f;
      ASSERT_EQ(parseFloat(text, a), std::errc()) << text;
      ASSERT_EQ(detail::parseFloatPortable(text, b), std::errc()) << text;
      ASSERT_EQ(bits(a), bits(value)) << text;
      ASSERT_EQ(bits(b), bits(value)) << text;
    }
  };
  for (const float value : specials) check(value);
  for (int i = 0; i < 100000; ++i) {
    const uint32_t random_bits = rng();
    float value = 0.0f;
    std::memcpy(&value, &random_bits, sizeof(value));
    if (std::isfinite(value)) check(value);
  }
}

TEST(NumberText, AppendsToWhatIsThere) {
  std::string out = "x ";
  appendFloat(out, 1.5f);
  EXPECT_EQ(out, "x 1.5");
}

}  // namespace
}  // namespace throng
