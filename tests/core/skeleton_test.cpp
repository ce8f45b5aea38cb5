// Tests of the skeleton builder: ordering and every rejection rule.
#include "throng/core/skeleton.h"

#include <cmath>

#include <gtest/gtest.h>

namespace throng {
namespace {

RawJoint joint(std::string name, std::string parent) {
  RawJoint j;
  j.name = std::move(name);
  j.parent = std::move(parent);
  return j;
}

TEST(SkeletonBuilder, OrdersParentsBeforeChildren) {
  RawSkeleton raw;
  raw.joints = {joint("hand", "arm"), joint("arm", "root"), joint("root", ""),
                joint("leg", "root")};
  Result<Skeleton> s = buildSkeleton(raw);
  ASSERT_TRUE(s.ok()) << s.status().toString();
  ASSERT_EQ(s->jointCount(), 4);
  EXPECT_EQ(s->names()[0], "root");
  for (int i = 0; i < s->jointCount(); ++i) EXPECT_LT(s->parents()[i], i);
  const int hand = s->findJoint("hand");
  ASSERT_GE(hand, 0);
  EXPECT_EQ(s->names()[s->parents()[hand]], "arm");
  EXPECT_EQ(s->children(0).size(), 2u);
  EXPECT_EQ(s->findJoint("nope"), -1);
}

void expectError(const RawSkeleton& raw, ErrorCode code, const std::string& fragment) {
  Result<Skeleton> s = buildSkeleton(raw, "rig.skel");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.status().code(), code);
  EXPECT_NE(s.status().message().find("rig.skel"), std::string::npos) << s.status().message();
  EXPECT_NE(s.status().message().find(fragment), std::string::npos) << s.status().message();
}

TEST(SkeletonBuilder, RejectsCycles) {
  RawSkeleton raw;
  raw.joints = {joint("root", ""), joint("a", "b"), joint("b", "a")};
  expectError(raw, ErrorCode::kInvalidData, "cycle");
}

TEST(SkeletonBuilder, RejectsUnknownAndDuplicateNames) {
  RawSkeleton unknown;
  unknown.joints = {joint("root", ""), joint("a", "ghost")};
  expectError(unknown, ErrorCode::kInvalidData, "ghost");
  RawSkeleton dup;
  dup.joints = {joint("root", ""), joint("a", "root"), joint("a", "root")};
  expectError(dup, ErrorCode::kInvalidData, "duplicate");
  RawSkeleton unnamed;
  unnamed.joints = {joint("", "")};
  expectError(unnamed, ErrorCode::kInvalidData, "no name");
}

TEST(SkeletonBuilder, RejectsTooManyJointsAtTheLimitBoundary) {
  RawSkeleton raw;
  raw.joints.push_back(joint("j0", ""));
  for (int i = 1; i < kMaxJoints; ++i) raw.joints.push_back(joint("j" + std::to_string(i), "j0"));
  EXPECT_TRUE(buildSkeleton(raw).ok());
  raw.joints.push_back(joint("one_more", "j0"));
  expectError(raw, ErrorCode::kLimitExceeded, "limit");
}

TEST(SkeletonBuilder, RejectsNonFiniteValuesAndSingularBinds) {
  RawSkeleton nan_rest;
  nan_rest.joints = {joint("root", "")};
  nan_rest.joints[0].rest.translation.x = std::nanf("");
  expectError(nan_rest, ErrorCode::kInvalidData, "non-finite rest");
  RawSkeleton inf_bind;
  inf_bind.joints = {joint("root", "")};
  inf_bind.joints[0].inverse_bind[3][0] = INFINITY;
  expectError(inf_bind, ErrorCode::kInvalidData, "non-finite inverse bind");
  RawSkeleton singular;
  singular.joints = {joint("root", "")};
  singular.joints[0].inverse_bind[1] = glm::vec4(0.0f);
  expectError(singular, ErrorCode::kInvalidData, "not invertible");
}

TEST(SkeletonBuilder, ToRawRoundTrips) {
  RawSkeleton raw;
  raw.joints = {joint("root", ""), joint("a", "root")};
  raw.joints[1].rest.translation = glm::vec3(1, 2, 3);
  const Skeleton s = buildSkeleton(raw).value();
  const Skeleton again = buildSkeleton(toRaw(s)).value();
  ASSERT_EQ(again.jointCount(), 2);
  EXPECT_EQ(again.restPoses()[1].translation, glm::vec3(1, 2, 3));
  EXPECT_EQ(again.parents()[1], 0);
}

// The hint a "no joint" error adds: names alike ignoring case and punctuation (either holding the
// other), else the first kJointNamesShown names and the count.
TEST(JointNameHint, SuggestsNamesAlikeElseListsTheFirstOnes) {
  RawSkeleton raw;
  raw.joints = {joint("mixamorig:Hips", ""), joint("mixamorig:Spine", "mixamorig:Hips"),
                joint("mixamorig:RightHand", "mixamorig:Spine"),
                joint("mixamorig:LeftHand", "mixamorig:Spine"), joint("hand.R", "mixamorig:Spine")};
  const Skeleton s = buildSkeleton(raw).value();
  EXPECT_EQ(jointNameHint(s, "right_hand"), "did you mean 'mixamorig:RightHand'?");
  EXPECT_EQ(jointNameHint(s, "HAND_r"), "did you mean 'hand.R'?");
  EXPECT_EQ(jointNameHint(s, "hand"),
            "did you mean 'mixamorig:RightHand', 'mixamorig:LeftHand' or 'hand.R'?");
  EXPECT_EQ(jointNameHint(s, "mixamorig:Hips_end"), "did you mean 'mixamorig:Hips'?");
  EXPECT_EQ(jointNameHint(s, "chest"),
            "joints: mixamorig:Hips, mixamorig:Spine, mixamorig:RightHand, mixamorig:LeftHand, "
            "hand.R");
  EXPECT_EQ(jointNameHint(s, "::"),
            "joints: mixamorig:Hips, mixamorig:Spine, mixamorig:RightHand, mixamorig:LeftHand, "
            "hand.R");

  RawSkeleton many;
  many.joints.push_back(joint("j0", ""));
  for (int i = 1; i < 20; ++i) {
    many.joints.push_back(joint("j" + std::to_string(i), "j" + std::to_string(i - 1)));
  }
  const Skeleton chain = buildSkeleton(many).value();
  EXPECT_EQ(jointNameHint(chain, "spine"),
            "joints: j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, ... (20 in all)");
  // "j" is in every name: too many to suggest, so the list.
  EXPECT_EQ(jointNameHint(chain, "J"),
            "joints: j0, j1, j2, j3, j4, j5, j6, j7, j8, j9, j10, j11, ... (20 in all)");
}

}  // namespace
}  // namespace throng
