// Joint encodings: the 2-vec4 form is exact for similarity transforms, measures what it cannot
// hold.
#include "throng/core/joint_encoding.h"

#include <cmath>
#include <limits>
#include <random>

#include <gtest/gtest.h>
#include <glm/gtc/matrix_transform.hpp>
#include <glm/gtc/quaternion.hpp>

namespace throng {
namespace {

float maxRowDifference(const JointRows& a, const JointRows& b) {
  float worst = 0.0f;
  for (int r = 0; r < kVec4PerJoint; ++r) {
    for (int c = 0; c < 4; ++c) worst = std::max(worst, std::abs(a.rows[r][c] - b.rows[r][c]));
  }
  return worst;
}

glm::mat4 similarity(const glm::quat& rotation, const glm::vec3& translation, float scale) {
  return glm::translate(glm::mat4(1.0f), translation) * glm::mat4_cast(rotation) *
         glm::scale(glm::mat4(1.0f), glm::vec3(scale));
}

TEST(JointEncoding, CountsAndNames) {
  EXPECT_EQ(vec4PerJoint(JointEncoding::kRows), 3);
  EXPECT_EQ(vec4PerJoint(JointEncoding::kQuatScale), 2);
  EXPECT_STREQ(jointEncodingName(JointEncoding::kRows), "3x4 rows (3 vec4)");
  EXPECT_STREQ(jointEncodingName(JointEncoding::kQuatScale), "quat+translation+scale (2 vec4)");
}

TEST(JointEncoding, IdentityAndKnownRotation) {
  const QuatJoint identity = encodeQuatJoint(packRows(glm::mat4(1.0f)));
  EXPECT_EQ(identity.rotation, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  EXPECT_EQ(identity.translation_scale, glm::vec4(0.0f, 0.0f, 0.0f, 1.0f));
  // 90 degrees about +Y, scaled by 2, moved: q = (0, sin 45, 0, cos 45).
  const glm::mat4 m = similarity(glm::angleAxis(glm::radians(90.0f), glm::vec3(0, 1, 0)),
                                 glm::vec3(1.0f, 2.0f, 3.0f), 2.0f);
  const QuatJoint q = encodeQuatJoint(packRows(m));
  const float h = std::sqrt(0.5f);
  EXPECT_NEAR(q.rotation.x, 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(q.rotation.y), h, 1e-6f);
  EXPECT_NEAR(q.rotation.z, 0.0f, 1e-6f);
  EXPECT_NEAR(std::abs(q.rotation.w), h, 1e-6f);
  EXPECT_NEAR(q.translation_scale.w, 2.0f, 1e-6f);
  EXPECT_EQ(glm::vec3(q.translation_scale), glm::vec3(1.0f, 2.0f, 3.0f));
  // The decoded matrix moves points as m does.
  const glm::vec3 p(0.3f, -1.0f, 0.5f);
  const glm::vec3 expected(m * glm::vec4(p, 1.0f));
  const glm::vec3 got = transformPoint(decodeQuatJoint(q), p);
  EXPECT_NEAR(glm::length(got - expected), 0.0f, 1e-5f);
}

// Every branch of Shepperd's method (trace, then each diagonal element largest) round-trips
// random similarity transforms to float rounding, including 180-degree turns.
TEST(JointEncoding, SimilarityTransformsRoundTrip) {
  std::mt19937 rng(12);
  std::uniform_real_distribution<float> unit(-1.0f, 1.0f);
  std::uniform_real_distribution<float> scale(0.01f, 100.0f);
  float worst = 0.0f;
  for (int i = 0; i < 2000; ++i) {
    glm::quat r(unit(rng), unit(rng), unit(rng), unit(rng));
    if (glm::length(r) < 1e-3f) continue;
    r = glm::normalize(r);
    const float s = scale(rng);
    const glm::vec3 t(unit(rng) * 10.0f, unit(rng) * 10.0f, unit(rng) * 10.0f);
    const JointRows m = packRows(similarity(r, t, s));
    const JointRows back = decodeQuatJoint(encodeQuatJoint(m));
    worst = std::max(worst, maxRowDifference(m, back) / s);
    EXPECT_LT(quatJointError(m, 1.0f) / s, 1e-5f) << "case " << i;
  }
  const glm::vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {1, 1, 0}};
  for (const glm::vec3& axis : axes) {
    const JointRows m = packRows(
        similarity(glm::angleAxis(glm::pi<float>(), glm::normalize(axis)), glm::vec3(0.0f), 1.0f));
    worst = std::max(worst, maxRowDifference(m, decodeQuatJoint(encodeQuatJoint(m))));
  }
  EXPECT_LT(worst, 2e-6f);
}

TEST(JointEncoding, BatchEncodingIsTheSingleOne) {
  const JointRows in[2] = {
      packRows(similarity(glm::angleAxis(0.4f, glm::vec3(0, 0, 1)), glm::vec3(1, 0, 0), 1.0f)),
      packRows(similarity(glm::angleAxis(2.9f, glm::vec3(1, 0, 0)), glm::vec3(0, 4, 0), 0.5f))};
  QuatJoint out[2];
  encodeQuatJoints(in, {}, out);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(out[i].rotation, encodeQuatJoint(in[i]).rotation);
    EXPECT_EQ(out[i].translation_scale, encodeQuatJoint(in[i]).translation_scale);
  }
  // One pivot per slot, repeated for every character.
  const glm::vec3 pivot[1] = {glm::vec3(0.0f, 1.0f, 0.0f)};
  encodeQuatJoints(in, pivot, out);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(out[i].translation_scale, encodeQuatJoint(in[i], pivot[0]).translation_scale);
  }
}

// A pivot changes nothing for a similarity transform, and puts the error of one that is not (the
// linear blend of two rotations, as frame blends and cross-fades make) near zero at the pivot.
TEST(JointEncoding, PivotMatchesTheBlendWhereItsJointIs) {
  const glm::vec3 joint(0.2f, 1.4f, 0.1f);  // a shoulder, say
  auto about = [&](float angle) {
    return glm::translate(glm::mat4(1.0f), joint) *
           glm::mat4_cast(glm::angleAxis(angle, glm::vec3(0, 0, 1))) *
           glm::translate(glm::mat4(1.0f), -joint);
  };
  const JointRows rigid = packRows(about(0.7f));
  EXPECT_LT(maxRowDifference(rigid, decodeQuatJoint(encodeQuatJoint(rigid, joint))), 2e-6f);
  const JointRows blend = mixRows(packRows(about(0.0f)), packRows(about(1.5f)), 0.5f);
  const glm::vec3 hand = joint + glm::vec3(0.3f, 0.0f, 0.0f);
  auto errorAt = [&](const QuatJoint& q, const glm::vec3& p) {
    return glm::length(transformPoint(decodeQuatJoint(q), p) - transformPoint(blend, p));
  };
  EXPECT_LT(errorAt(encodeQuatJoint(blend, joint), joint), 1e-6f);
  EXPECT_GT(errorAt(encodeQuatJoint(blend), joint), 0.1f);  // 1.4 units from the origin
  EXPECT_LT(errorAt(encodeQuatJoint(blend, joint), hand),
            0.25f * errorAt(encodeQuatJoint(blend), hand));
}

// What the encoding cannot hold shows as error: non-uniform scale, shear and mirroring.
TEST(JointEncoding, MeasuresNonUniformScaleShearAndMirroring) {
  const float reach = 2.0f;
  const JointRows stretched = packRows(glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, 1.05f, 1.0f)));
  // The best uniform scale is off by ~1.7% on every axis, so the error is near 3.4% * reach.
  const float stretch_error = quatJointError(stretched, reach);
  EXPECT_GT(stretch_error, 0.03f * reach);
  EXPECT_LT(stretch_error, 0.06f * reach);
  glm::mat4 shear(1.0f);
  shear[1][0] = 0.02f;  // x += 0.02 y
  EXPECT_GT(quatJointError(packRows(shear), reach), 0.01f * reach);
  const JointRows mirrored = packRows(glm::scale(glm::mat4(1.0f), glm::vec3(-1.0f, 1.0f, 1.0f)));
  EXPECT_GT(quatJointError(mirrored, reach), 1.0f);
  // Translation alone never adds error, whatever its size.
  EXPECT_LT(quatJointError(packRows(glm::translate(glm::mat4(1.0f), glm::vec3(1e3f))), reach),
            1e-4f);
}

AnimationTexture textureOf(const std::vector<JointRows>& frames, uint32_t joints,
                           TexelFormat format) {
  AnimationTexture t;
  t.format = format;
  t.joint_count = joints;
  t.frame_count = static_cast<uint32_t>(frames.size() / joints);
  const AnimationTextureLayout layout = chooseAnimationTextureLayout(joints, t.frame_count, 4096);
  t.width = layout.width;
  t.height = static_cast<uint32_t>(layout.height);
  t.frames_per_row = layout.frames_per_row;
  const size_t channels = static_cast<size_t>(t.width) * t.height * 4;
  if (format == TexelFormat::kRgba32F) {
    t.texels32.assign(channels, 0.0f);
  } else {
    t.texels16.assign(channels, 0);
  }
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < joints; ++j) storeJointRows(t, f, j, frames[f * joints + j]);
  }
  return t;
}

TEST(JointEncoding, ChecksEveryBakedFrameAndNamesTheWorst) {
  std::vector<JointRows> frames;
  for (int f = 0; f < 5; ++f) {
    for (int j = 0; j < 3; ++j) {
      frames.push_back(packRows(similarity(glm::angleAxis(0.3f * f + j, glm::vec3(0, 1, 0)),
                                           glm::vec3(0.1f * j, 1.0f, 0.0f), 1.0f)));
    }
  }
  const AnimationTexture rigid = textureOf(frames, 3, TexelFormat::kRgba32F);
  EXPECT_LT(checkQuatEncoding(rigid, 1.8f).worst_error, 1e-5f);
  // Half-float texels are rotations only to ~1e-3: measured, well under the threshold's scale.
  const AnimationTexture half = textureOf(frames, 3, TexelFormat::kRgba16F);
  const float half_error = checkQuatEncoding(half, 1.8f).worst_error;
  EXPECT_GT(half_error, 1e-6f);
  EXPECT_LT(half_error / 1.8f, kMaxQuatJointError);

  frames[3 * 3 + 2] = packRows(glm::scale(glm::mat4(1.0f), glm::vec3(1.0f, 1.0f, 1.1f)));
  const QuatEncodingCheck check =
      checkQuatEncoding(textureOf(frames, 3, TexelFormat::kRgba32F), 1.8f);
  EXPECT_EQ(check.frame, 3u);
  EXPECT_EQ(check.joint, 2u);
  EXPECT_GT(check.worst_error / 1.8f, kMaxQuatJointError);

  frames[1] = packRows(glm::mat4(std::numeric_limits<float>::quiet_NaN()));
  const QuatEncodingCheck nan =
      checkQuatEncoding(textureOf(frames, 3, TexelFormat::kRgba32F), 1.8f);
  EXPECT_EQ(nan.frame, 0u);
  EXPECT_EQ(nan.joint, 1u);
  EXPECT_TRUE(std::isinf(nan.worst_error));
  EXPECT_EQ(checkQuatEncoding(AnimationTexture{}, 1.0f).worst_error, 0.0f);
}

}  // namespace
}  // namespace throng
