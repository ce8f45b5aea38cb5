// Warnings as data: every kind's stable name and summary, details of every type, one-line text.
#include "throng/core/warning.h"

#include <cctype>
#include <set>
#include <string>

#include <gtest/gtest.h>

namespace throng {
namespace {

// The last kind: a kind added after it needs its texts (kindText's switch) and this line.
constexpr WarningKind kLastKind = WarningKind::kRestPoseOnly;

TEST(Warning, EveryKindHasItsOwnSnakeCaseNameAndASummary) {
  std::set<std::string> names;
  for (int k = 0; k <= static_cast<int>(kLastKind); ++k) {
    const auto kind = static_cast<WarningKind>(k);
    const std::string name = warningKindName(kind);
    SCOPED_TRACE(name);
    ASSERT_FALSE(name.empty());
    for (char c : name) EXPECT_TRUE(std::islower(static_cast<unsigned char>(c)) || c == '_');
    EXPECT_TRUE(names.insert(name).second) << "two kinds are called " << name;
    EXPECT_GT(std::string(warningKindSummary(kind)).size(), 8u);
  }
  // Names scripts match on do not change.
  EXPECT_STREQ(warningKindName(WarningKind::kJointRenamed), "joint_renamed");
  EXPECT_STREQ(warningKindName(WarningKind::kWeightsChannelsSkipped), "weights_channels_skipped");
  EXPECT_STREQ(warningKindName(WarningKind::kLodLevelDropped), "lod_level_dropped");
  EXPECT_STREQ(warningKindSummary(WarningKind::kJointRenamed), "joints renamed (duplicate names)");
}

TEST(Warning, DetailsKeepTheirTypeAndOrder) {
  Warning w = makeWarning(WarningKind::kJointRenamed, "robot.glb: node 9: name 'Hips' is used",
                          "Hips -> Hips#9");
  w.with("file", "robot.glb")
      .with("node", 9)
      .with("count", size_t{3})
      .with("error", 0.25)
      .with("joint", std::string("Hips"));
  ASSERT_EQ(w.details.size(), 5u);
  EXPECT_EQ(w.details[0].key, "file");
  EXPECT_EQ(std::get<std::string>(w.details[0].value), "robot.glb");
  EXPECT_EQ(std::get<int64_t>(w.details[1].value), 9);
  EXPECT_EQ(std::get<int64_t>(w.details[2].value), 3);
  EXPECT_DOUBLE_EQ(std::get<double>(w.details[3].value), 0.25);
  ASSERT_NE(w.find("joint"), nullptr);
  EXPECT_EQ(std::get<std::string>(*w.find("joint")), "Hips");
  EXPECT_EQ(w.find("missing"), nullptr);
  EXPECT_EQ(w.subject, "Hips -> Hips#9");
}

TEST(Warning, OneLineWarningEscapesTheMessageTheSubjectAndTextDetails) {
  Warning w = makeWarning(WarningKind::kJointRenamed, "a\nb", "c\nd");
  w.with("joint", "e\nf").with("node", 2);
  const Warning one = oneLineWarning(w);
  EXPECT_EQ(one.message, "a\\nb");
  EXPECT_EQ(one.subject, "c\\nd");
  EXPECT_EQ(std::get<std::string>(one.details[0].value), "e\\nf");
  EXPECT_EQ(std::get<int64_t>(one.details[1].value), 2);
  EXPECT_EQ(one.kind, WarningKind::kJointRenamed);
}

}  // namespace
}  // namespace throng
