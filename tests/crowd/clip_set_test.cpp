// Tests of ClipSet: the explicit map, the name heuristic, the fallbacks and locomotion speeds.
#include "throng/crowd/clip_set.h"

#include <gtest/gtest.h>

namespace throng {
namespace {

constexpr int kIdle = static_cast<int>(AgentState::kIdle);
constexpr int kWalk = static_cast<int>(AgentState::kWalk);
constexpr int kRun = static_cast<int>(AgentState::kRun);
constexpr int kAttack = static_cast<int>(AgentState::kAttack);
constexpr int kDead = static_cast<int>(AgentState::kDead);

std::vector<BakedClip> named(std::initializer_list<const char*> names) {
  std::vector<BakedClip> clips;
  for (const char* name : names) {
    BakedClip clip;
    clip.name = name;
    clip.duration = 1.0f;
    clips.push_back(clip);
  }
  return clips;
}

bool mentions(const std::vector<Warning>& warnings, const std::string& text) {
  for (const Warning& w : warnings) {
    if (w.message.find(text) != std::string::npos) return true;
  }
  return false;
}

TEST(ClipSet, ByNameFindsEveryStatePreferringWholeNamesAndPrefixes) {
  const auto clips =
      named({"Jump_Idle", "walk_fwd", "Idle_A", "Run", "HitReact", "Punch", "Death"});
  std::vector<Warning> warnings;
  Result<ClipSet> set = clipSetByName(clips, &warnings);
  ASSERT_TRUE(set.ok()) << set.status().toString();
  EXPECT_EQ(set->state_clip[kIdle], 2);  // "Idle_A" starts with idle; "Jump_Idle" only has it
  EXPECT_EQ(set->state_clip[kWalk], 1);
  EXPECT_EQ(set->state_clip[kRun], 3);
  EXPECT_EQ(set->state_clip[kAttack], 5);  // punch is looked for before hit
  EXPECT_EQ(set->state_clip[kDead], 6);
  EXPECT_TRUE(warnings.empty());
}

TEST(ClipSet, ExplicitMapWinsAndLeavesOtherStatesToTheirNames) {
  const auto clips = named({"Survey", "Walk", "Run", "idle", "Swing"});
  Result<ClipMap> map = parseClipMap(" idle=Survey, walk=Walk,run=2,attack=Swing ");
  ASSERT_TRUE(map.ok()) << map.status().toString();
  std::vector<Warning> warnings;
  Result<ClipSet> set = makeClipSet(clips, *map, &warnings);
  ASSERT_TRUE(set.ok()) << set.status().toString();
  EXPECT_EQ(set->state_clip[kIdle], 0);  // the map beats the clip literally named "idle"
  EXPECT_EQ(set->state_clip[kWalk], 1);
  EXPECT_EQ(set->state_clip[kRun], 2);  // by index
  EXPECT_EQ(set->state_clip[kAttack], 4);
  EXPECT_EQ(set->state_clip[kDead], 0);  // no die clip: idle's, with a warning
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("no die clip"), std::string::npos) << warnings[0].message;
  EXPECT_EQ(warnings[0].kind, WarningKind::kStateClipFallback);
  EXPECT_EQ(std::get<std::string>(*warnings[0].find("state")), "die");
  EXPECT_EQ(describeClipSet(*set, clips).substr(0, 53),
            "idle=Survey walk=Walk run=Run attack=Swing die=Survey");
}

TEST(ClipSet, OneClipPlaysForEveryStateWithAWarning) {
  const auto clips = named({"clip0"});
  std::vector<Warning> warnings;
  Result<ClipSet> set = clipSetByName(clips, &warnings);
  ASSERT_TRUE(set.ok()) << set.status().toString();
  for (uint16_t c : set->state_clip) EXPECT_EQ(c, 0);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_NE(warnings[0].message.find("plays for every state"), std::string::npos);
}

TEST(ClipSet, MissingStatesFallBackInTheDocumentedOrderNeverFailing) {
  {  // No attack, no die: idle's clip, two warnings.
    const auto clips = named({"Idle", "Walk", "Run", "Wave"});
    std::vector<Warning> warnings;
    ClipSet set = clipSetByName(clips, &warnings).value();
    EXPECT_EQ(set.state_clip[kAttack], 0);
    EXPECT_EQ(set.state_clip[kDead], 0);
    EXPECT_EQ(warnings.size(), 2u);
    EXPECT_TRUE(mentions(warnings, "no attack clip"));
    EXPECT_TRUE(mentions(warnings, "no die clip"));
  }
  {  // No walk: the run clip walks.
    const auto clips = named({"Idle", "Running", "Attack", "Die"});
    std::vector<Warning> warnings;
    ClipSet set = clipSetByName(clips, &warnings).value();
    EXPECT_EQ(set.state_clip[kWalk], 1);
    EXPECT_EQ(set.state_clip[kRun], 1);
    EXPECT_TRUE(mentions(warnings, "no walk clip: 'Running'"));
  }
  {  // Nothing recognisable: the first clip idles, and every other state plays it.
    const auto clips = named({"Survey", "Wave"});
    std::vector<Warning> warnings;
    ClipSet set = clipSetByName(clips, &warnings).value();
    for (uint16_t c : set.state_clip) EXPECT_EQ(c, 0);
    EXPECT_EQ(warnings.size(), 5u);
    EXPECT_TRUE(mentions(warnings, "no idle clip: the first clip ('Survey')"));
  }
  // The library keeps going without a warnings sink.
  EXPECT_TRUE(clipSetByName(named({"a", "b"})).ok());
}

TEST(ClipSet, ErrorsNameTheBadEntryOrClip) {
  Result<ClipSet> none = clipSetByName({});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), ErrorCode::kInvalidArgument);

  const auto clips = named({"Idle", "Walk"});
  ClipMap map;
  map.state_clip[kRun] = "Sprint";
  Result<ClipSet> unknown = makeClipSet(clips, map);
  ASSERT_FALSE(unknown.ok());
  EXPECT_NE(unknown.status().message().find("no clip 'Sprint' for the 'run' state"),
            std::string::npos)
      << unknown.status().message();
  EXPECT_NE(unknown.status().message().find("0 Idle, 1 Walk"), std::string::npos);

  for (const char* bad : {"idle", "fly=Jump", "walk=", "walk_speed=-1", "run_speed=fast"}) {
    Result<ClipMap> parsed = parseClipMap(bad);
    ASSERT_FALSE(parsed.ok()) << bad;
    EXPECT_EQ(parsed.status().code(), ErrorCode::kInvalidArgument);
    EXPECT_NE(parsed.status().message().find(bad), std::string::npos) << parsed.status().message();
  }
  EXPECT_TRUE(parseClipMap("").ok());
  EXPECT_EQ(parseClipMap("dead=Fall").value().state_clip[kDead], "Fall");
}

TEST(ClipSet, SpeedComesFromRootMotionElseTheMapElseTheHeight) {
  auto clips = named({"Idle", "Walk", "Run"});
  clips[1].fps = 10.0f;
  for (int f = 0; f <= 10; ++f) clips[1].root_motion.push_back(glm::vec3(0, 0.3f, 0.15f * f));
  ClipMap map;
  map.walk_speed = 9.0f;
  map.run_speed = 4.0f;
  ClipSet set = makeClipSet(clips, map).value();
  EXPECT_NEAR(set.walk_speed, 1.5f, 1e-5f);  // root motion beats the map
  EXPECT_EQ(set.walk_speed_source, SpeedSource::kRootMotion);
  EXPECT_NEAR(set.run_speed, 4.0f, 1e-6f);  // no root motion: the map
  EXPECT_EQ(set.run_speed_source, SpeedSource::kMap);

  // Without a map: the idle clip's height (2 units) sets it; without a height, the constants.
  clips[0].bounds.max = glm::vec3(0.5f, 2.0f, 0.5f);
  set = clipSetByName(clips).value();
  EXPECT_NEAR(set.run_speed, 4.0f, 1e-5f);  // 2 heights per second
  EXPECT_EQ(set.run_speed_source, SpeedSource::kHeight);
  clips[0].bounds = Bounds{};
  EXPECT_NEAR(clipSetByName(clips).value().run_speed, ClipSet{}.run_speed, 1e-6f);

  // A root that only bobs (under 5% of the clip's bounds across) walks in place.
  clips[1].bounds.max = glm::vec3(1.0f, 40.0f, 1.0f);
  set = makeClipSet(clips, map).value();
  EXPECT_NEAR(set.walk_speed, 9.0f, 1e-6f);
  EXPECT_EQ(set.walk_speed_source, SpeedSource::kMap);
}

}  // namespace
}  // namespace throng
