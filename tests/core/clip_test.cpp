// Tests of keyframe sampling (STEP, LINEAR, CUBICSPLINE), clip time mapping and clip validation.
#include "throng/core/clip.h"

#include <gtest/gtest.h>

namespace throng {
namespace {

Vec3Track makeTrack(Interpolation mode) {
  Vec3Track t;
  t.interpolation = mode;
  t.times = {1.0f, 2.0f, 4.0f};
  if (mode == Interpolation::kCubicSpline) {
    // (in-tangent, value, out-tangent) per key.
    t.values = {glm::vec3(0),       glm::vec3(0), glm::vec3(1, 0, 0),  // key 0
                glm::vec3(0),       glm::vec3(1), glm::vec3(0),        // key 1
                glm::vec3(2, 0, 0), glm::vec3(3), glm::vec3(0)};       // key 2
  } else {
    t.values = {glm::vec3(0), glm::vec3(1), glm::vec3(3)};
  }
  return t;
}

TEST(ClipSampling, StepHoldsThePreviousKey) {
  const Vec3Track t = makeTrack(Interpolation::kStep);
  EXPECT_EQ(sampleTrack(t, 1.0f), glm::vec3(0));
  EXPECT_EQ(sampleTrack(t, 1.99f), glm::vec3(0));
  EXPECT_EQ(sampleTrack(t, 2.0f), glm::vec3(1));
  EXPECT_EQ(sampleTrack(t, 3.9f), glm::vec3(1));
  EXPECT_EQ(sampleTrack(t, 4.0f), glm::vec3(3));
}

TEST(ClipSampling, LinearInterpolatesAndClampsOutsideTheKeys) {
  const Vec3Track t = makeTrack(Interpolation::kLinear);
  EXPECT_EQ(sampleTrack(t, 0.0f), glm::vec3(0));  // before the first key: first value
  EXPECT_FLOAT_EQ(sampleTrack(t, 1.5f).x, 0.5f);
  EXPECT_FLOAT_EQ(sampleTrack(t, 3.0f).y, 2.0f);
  EXPECT_EQ(sampleTrack(t, 9.0f), glm::vec3(3));  // after the last key: last value
}

TEST(ClipSampling, CubicSplineFollowsTheHermiteFormulaWithScaledTangents) {
  const Vec3Track t = makeTrack(Interpolation::kCubicSpline);
  EXPECT_EQ(sampleTrack(t, 1.0f), glm::vec3(0));
  EXPECT_EQ(sampleTrack(t, 2.0f), glm::vec3(1));
  // Between keys 0 and 1 (dt = 1), u = 0.5: x = h00*0 + h10*1*dt + h01*1 + h11*0.
  const float u = 0.5f, h10 = u * u * u - 2 * u * u + u, h01 = -2 * u * u * u + 3 * u * u;
  EXPECT_NEAR(sampleTrack(t, 1.5f).x, h10 * 1.0f + h01 * 1.0f, 1e-6f);
  EXPECT_NEAR(sampleTrack(t, 1.5f).y, h01 * 1.0f, 1e-6f);
  // Between keys 1 and 2 (dt = 2), u = 0.25: in-tangent of key 2 (2,0,0) is scaled by dt.
  const float v = 0.25f;
  const float g01 = -2 * v * v * v + 3 * v * v, g00 = 1 - g01, g11 = v * v * v - v * v;
  EXPECT_NEAR(sampleTrack(t, 2.5f).x, g00 * 1 + g01 * 3 + g11 * 2 * 2, 1e-6f);
  EXPECT_NEAR(sampleTrack(t, 2.5f).y, g00 * 1 + g01 * 3, 1e-6f);
}

TEST(ClipSampling, RotationsTakeTheShortestPath) {
  QuatTrack t;
  t.times = {0.0f, 1.0f};
  const glm::quat a = glm::angleAxis(0.1f, glm::vec3(0, 1, 0));
  // The same orientation as angle 0.3, stored with the opposite sign.
  const glm::quat b = -glm::angleAxis(0.3f, glm::vec3(0, 1, 0));
  t.values = {a, b};
  const glm::quat mid = sampleTrack(t, 0.5f);
  const glm::quat expected = glm::angleAxis(0.2f, glm::vec3(0, 1, 0));
  EXPECT_NEAR(std::abs(glm::dot(mid, expected)), 1.0f, 1e-6f);
  EXPECT_NEAR(glm::length(mid), 1.0f, 1e-6f);
}

TEST(ClipTime, LoopsWrapAndClampedClipsHoldTheirEnds) {
  Clip clip;
  clip.start_time = 0.5f;
  clip.end_time = 2.5f;
  EXPECT_FLOAT_EQ(clipTime(clip, 0.0f, true), 0.5f);
  EXPECT_FLOAT_EQ(clipTime(clip, 1.0f, true), 1.5f);
  EXPECT_FLOAT_EQ(clipTime(clip, 2.0f, true), 0.5f);  // the end wraps to the start
  EXPECT_FLOAT_EQ(clipTime(clip, 2.5f, true), 1.0f);
  EXPECT_FLOAT_EQ(clipTime(clip, -0.5f, true), 2.0f);
  EXPECT_FLOAT_EQ(clipTime(clip, 7.0f, false), 2.5f);
  EXPECT_FLOAT_EQ(clipTime(clip, -1.0f, false), 0.5f);
  Clip empty;
  EXPECT_FLOAT_EQ(clipTime(empty, 3.0f, true), 0.0f);
}

TEST(ClipValidation, RejectsBadKeys) {
  Clip clip;
  clip.name = "c";
  clip.joints.resize(1);
  clip.joints[0].translation = makeTrack(Interpolation::kLinear);
  updateClipRange(clip);
  EXPECT_FLOAT_EQ(clip.start_time, 1.0f);
  EXPECT_FLOAT_EQ(clip.end_time, 4.0f);
  EXPECT_TRUE(validateClip(clip, 1, "x").ok());
  EXPECT_EQ(validateClip(clip, 2, "x").code(), ErrorCode::kInvalidData);

  Clip unordered = clip;
  unordered.joints[0].translation.times = {1.0f, 1.0f, 4.0f};
  EXPECT_EQ(validateClip(unordered, 1, "x").code(), ErrorCode::kInvalidData);

  Clip nan_value = clip;
  nan_value.joints[0].translation.values[1].y = std::nanf("");
  const Status s = validateClip(nan_value, 1, "file.glb");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_NE(s.message().find("file.glb"), std::string::npos);
  EXPECT_NE(s.message().find("not finite"), std::string::npos);

  Clip short_values = clip;
  short_values.joints[0].translation.interpolation = Interpolation::kCubicSpline;
  EXPECT_EQ(validateClip(short_values, 1, "x").code(), ErrorCode::kInvalidData);

  Clip backwards = clip;
  backwards.end_time = 0.5f;  // before its start
  EXPECT_EQ(validateClip(backwards, 1, "x").message(), "x: clip 'c': bad time range [1, 0.5]");
  Clip keyless = clip;
  keyless.joints[0].rotation.values = {glm::quat(1.0f, 0.0f, 0.0f, 0.0f)};
  EXPECT_EQ(validateClip(keyless, 1, "x").message(),
            "x: clip 'c', joint 0, rotation: values without key times");
  Clip narrow = clip;
  narrow.end_time = 3.0f;  // the last key is at 4 s
  EXPECT_EQ(validateClip(narrow, 1, "x").message(),
            "x: clip 'c', joint 0, translation: key time 4 outside the clip range [1, 3]");
}

}  // namespace
}  // namespace throng
