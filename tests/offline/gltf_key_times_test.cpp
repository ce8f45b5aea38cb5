// stepKeyTimes: repeated animation key times kept as steps, backwards times refused.
#include "offline/gltf_key_times.h"

#include <cmath>
#include <limits>

#include <gtest/gtest.h>

#include "throng/core/clip.h"

namespace throng::gltf {
namespace {

float below(float t) {
  return std::nextafter(t, -std::numeric_limits<float>::infinity());
}

TEST(KeyTimeSteps, StrictlyIncreasingTimesAreLeftAlone) {
  std::vector<float> times = {0.0f, 0.5f, 1.0f};
  std::vector<float> values = {1, 2, 3};
  Result<KeyTimeSteps> r = stepKeyTimes(times, values, 1, "what");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->steps, 0u);
  EXPECT_EQ(times, (std::vector<float>{0.0f, 0.5f, 1.0f}));
  EXPECT_EQ(values, (std::vector<float>{1, 2, 3}));
}

TEST(KeyTimeSteps, APairBecomesAStepJustBelowTheTime) {
  std::vector<float> times = {0.0f, 1.0f, 1.0f, 2.0f};
  std::vector<float> values = {0, 2, 10, 12};
  Result<KeyTimeSteps> r = stepKeyTimes(times, values, 1, "what");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->steps, 1u);
  EXPECT_EQ(r->first_key, 2u);
  EXPECT_EQ(r->first_time, 1.0f);
  EXPECT_EQ(times, (std::vector<float>{0.0f, below(1.0f), 1.0f, 2.0f}));
  EXPECT_EQ(values, (std::vector<float>{0, 2, 10, 12}));
}

TEST(KeyTimeSteps, TheMiddleOfARunIsDroppedWithItsCubicTangents) {
  std::vector<float> times = {0.0f, 1.0f, 1.0f, 1.0f, 2.0f};
  // CUBICSPLINE: in-tangent, value, out-tangent per key.
  std::vector<float> values = {-1, 0, 1, -2, 2, 3, -4, 50, 5, -6, 10, 7, -8, 12, 9};
  Result<KeyTimeSteps> r = stepKeyTimes(times, values, 3, "what");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->steps, 1u);  // one run
  EXPECT_EQ(times, (std::vector<float>{0.0f, below(1.0f), 1.0f, 2.0f}));
  EXPECT_EQ(values, (std::vector<float>{-1, 0, 1, -2, 2, 3, -6, 10, 7, -8, 12, 9}));
}

TEST(KeyTimeSteps, ARepeatAtTheStartKeepsTheLaterKey) {
  std::vector<float> times = {0.0f, 0.0f, 1.0f};
  std::vector<float> values = {5, 1, 3};
  ASSERT_TRUE(stepKeyTimes(times, values, 1, "what").ok());
  EXPECT_EQ(times, (std::vector<float>{0.0f, 1.0f}));
  EXPECT_EQ(values, (std::vector<float>{1, 3}));
}

TEST(KeyTimeSteps, AnEarlierKeyWithNoFloatLeftBelowIsDropped) {
  const float t = 1.0f;
  std::vector<float> times = {0.0f, below(t), t, t};
  std::vector<float> values = {0, 1, 2, 3};
  ASSERT_TRUE(stepKeyTimes(times, values, 1, "what").ok());
  EXPECT_EQ(times, (std::vector<float>{0.0f, below(t), t}));
  EXPECT_EQ(values, (std::vector<float>{0, 1, 3}));
}

TEST(KeyTimeSteps, SamplingSeesTheStep) {
  Vec3Track track;
  track.times = {0.0f, 1.0f, 1.0f, 2.0f};
  track.values = {glm::vec3(0.0f), glm::vec3(2.0f), glm::vec3(10.0f), glm::vec3(12.0f)};
  ASSERT_TRUE(stepKeyTimes(track.times, track.values, 1, "what").ok());
  EXPECT_FLOAT_EQ(sampleTrack(track, 0.5f).x, 1.0f);
  EXPECT_NEAR(sampleTrack(track, below(1.0f)).x, 2.0f, 1e-5f);
  EXPECT_FLOAT_EQ(sampleTrack(track, 1.0f).x, 10.0f);
  EXPECT_FLOAT_EQ(sampleTrack(track, 1.5f).x, 11.0f);
}

TEST(KeyTimeSteps, BackwardsOrNotANumberIsRefusedNamingTheKey) {
  std::vector<float> times = {0.0f, 1.0f, 0.5f};
  std::vector<float> values = {0, 1, 2};
  Result<KeyTimeSteps> r = stepKeyTimes(times, values, 1, "animation 0 channel 3");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kInvalidData);
  EXPECT_EQ(r.status().message(),
            "animation 0 channel 3: key times go backwards at key 2 (0.5 after 1)");
  times = {0.0f, std::numeric_limits<float>::quiet_NaN()};
  values = {0, 1};
  EXPECT_FALSE(stepKeyTimes(times, values, 1, "what").ok());
}

}  // namespace
}  // namespace throng::gltf
