// Tests of the crowd state machine: commands, locomotion, one-shot clips and cross-fades.
#include "throng/crowd/crowd.h"

#include <cstring>
#include <tuple>

#include <gtest/gtest.h>

namespace throng {
namespace {

std::vector<BakedClip> makeClips() {
  const char* names[5] = {"Idle", "walk_fwd", "Run", "attack", "die"};
  std::vector<BakedClip> clips(5);
  for (int i = 0; i < 5; ++i) {
    clips[i].name = names[i];
    clips[i].duration = 1.0f;
    clips[i].loop = i < 3;
  }
  return clips;
}

TEST(Crowd, AClipSetWithAFallbackNeverFailsAndSaysWhatIsMissing) {
  auto clips = makeClips();
  clips[3].name = "wave";
  clips[4].name = "sleep";
  std::vector<AgentState> missing;
  const ClipSet set = clipSetByName(clips, 2, &missing);
  EXPECT_EQ(set.state_clip[static_cast<int>(AgentState::kWalk)], 1) << "found by name";
  EXPECT_EQ(set.state_clip[static_cast<int>(AgentState::kAttack)], 2) << "the fallback";
  EXPECT_EQ(set.state_clip[static_cast<int>(AgentState::kDead)], 2);
  EXPECT_EQ(missing, (std::vector<AgentState>{AgentState::kAttack, AgentState::kDead}));
  const ClipSet all = clipSetByName(makeClips(), 0, nullptr);
  EXPECT_EQ(all.state_clip, clipSetByName(makeClips()).value().state_clip);
}

TEST(Crowd, TruncateDropsTheLastAgentsAndTheirCommands) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value());
  for (int i = 0; i < 5; ++i) crowd.addAgent({glm::vec3(static_cast<float>(i), 0.0f, 0.0f)});
  crowd.submit({1, CommandType::kAttack});
  crowd.submit({4, CommandType::kAttack});
  crowd.truncate(3);
  EXPECT_EQ(crowd.agentCount(), 3u);
  EXPECT_EQ(crowd.placements().size(), 3u);
  EXPECT_EQ(crowd.playback().size(), 3u);
  EXPECT_EQ(crowd.states().size(), 3u);
  crowd.truncate(10);  // no-op
  EXPECT_EQ(crowd.agentCount(), 3u);
  // Growing back gives fresh agents; agent 4's queued attack went with it.
  const uint32_t again = crowd.addAgent({});
  crowd.addAgent({});
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[1], AgentState::kAttack);
  EXPECT_EQ(crowd.states()[again + 1], AgentState::kIdle);
  EXPECT_EQ(crowd.droppedCommands(), 0u);
}

TEST(Crowd, SpeedScalesPlaybackAndLocomotion) {
  const auto clips = makeClips();
  ClipSet set = clipSetByName(clips).value();
  set.walk_speed = 1.0f;
  Crowd crowd(clips, set);
  const uint32_t normal = crowd.addAgent({});
  const uint32_t fast = crowd.addAgent({glm::vec3(5.0f, 0.0f, 0.0f)});
  crowd.setSpeed(fast, 2.0f);
  crowd.setSpeed(99, 3.0f);  // unknown agents are ignored
  crowd.submit({normal, CommandType::kWalkTo, glm::vec2(0.0f, 10.0f)});
  crowd.submit({fast, CommandType::kWalkTo, glm::vec2(5.0f, 10.0f)});
  crowd.update(0.5f);
  crowd.update(0.5f);
  EXPECT_NEAR(crowd.placements()[normal].position.z, 1.0f, 1e-4f);
  EXPECT_NEAR(crowd.placements()[fast].position.z, 2.0f, 1e-4f);
  EXPECT_NEAR(crowd.playback()[fast].time, 2.0f * crowd.playback()[normal].time, 1e-5f);
  crowd.setSpeed(fast, 100.0f);
  EXPECT_EQ(crowd.playback()[fast].speed, kMaxSpeed);
  crowd.setSpeed(fast, -1.0f);
  EXPECT_EQ(crowd.playback()[fast].speed, 0.0f);
}

TEST(Crowd, WalkToReachesTheTargetThenIdles) {
  const auto clips = makeClips();
  ClipSet set = clipSetByName(clips).value();
  set.walk_speed = 2.0f;
  Crowd crowd(clips, set);
  const uint32_t a = crowd.addAgent({});
  crowd.submit({a, CommandType::kWalkTo, glm::vec2(0.0f, 3.0f)});
  crowd.update(0.5f);
  EXPECT_EQ(crowd.states()[a], AgentState::kWalk);
  EXPECT_EQ(crowd.playback()[a].clip, 1);
  EXPECT_NEAR(crowd.placements()[a].position.z, 1.0f, 1e-5f);
  EXPECT_NEAR(crowd.placements()[a].heading, 0.0f, 1e-5f);  // +Z is heading 0
  crowd.update(0.5f);
  crowd.update(0.6f);
  EXPECT_EQ(crowd.states()[a], AgentState::kIdle);
  EXPECT_NEAR(crowd.placements()[a].position.z, 3.0f, 1e-5f);
}

TEST(Crowd, StateChangesCrossFadeFromThePreviousClip) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value(), CrowdDesc{0.2f, 8.0f});
  const uint32_t a = crowd.addAgent({}, 0.3f);
  crowd.update(0.1f);
  crowd.submit({a, CommandType::kRunTo, glm::vec2(10.0f, 0.0f)});
  crowd.update(0.05f);
  const AgentPlayback& p = crowd.playback()[a];
  EXPECT_EQ(p.clip, 2);
  EXPECT_EQ(p.previous_clip, 0);
  EXPECT_NEAR(p.previous_time, 0.45f, 1e-5f);  // the idle clip keeps running while it fades
  EXPECT_NEAR(p.time, 0.05f, 1e-5f);
  EXPECT_NEAR(p.fade, 0.75f, 1e-5f);
  crowd.update(0.2f);
  EXPECT_EQ(crowd.playback()[a].fade, 0.0f);
  EXPECT_GT(crowd.placements()[a].position.x, 0.0f);
}

TEST(Crowd, AttackPlaysOnceAndResumesWhatTheAgentWasDoing) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value());
  const uint32_t a = crowd.addAgent({});
  crowd.submit({a, CommandType::kWalkTo, glm::vec2(0.0f, 100.0f)});
  crowd.update(0.1f);
  crowd.submit({a, CommandType::kAttack});
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[a], AgentState::kAttack);
  const float z = crowd.placements()[a].position.z;
  crowd.update(0.5f);
  EXPECT_EQ(crowd.placements()[a].position.z, z);  // an attack stands still
  crowd.update(0.5f);
  EXPECT_EQ(crowd.states()[a], AgentState::kWalk);
}

TEST(Crowd, DeadAgentsIgnoreCommandsAndUnknownAgentsAreDropped) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value());
  const uint32_t a = crowd.addAgent({});
  crowd.submit({a, CommandType::kDie});
  crowd.update(2.0f);
  crowd.submit({a, CommandType::kRunTo, glm::vec2(5.0f, 5.0f)});
  crowd.update(1.0f);
  EXPECT_EQ(crowd.states()[a], AgentState::kDead);
  EXPECT_EQ(crowd.playback()[a].clip, 4);
  EXPECT_EQ(crowd.placements()[a].position, glm::vec3(0.0f));
  crowd.submit({42, CommandType::kIdle});
  EXPECT_EQ(crowd.droppedCommands(), 1u);
}

TEST(Crowd, PlayOncePlaysANamedClipThenResumes) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value());
  const uint32_t a = crowd.addAgent({});
  crowd.submit({a, CommandType::kWalkTo, glm::vec2(0.0f, 100.0f)});
  crowd.update(0.1f);
  Command play{a, CommandType::kPlay};
  play.clip = 3;  // the attack clip, played by name rather than as an attack
  crowd.submit(play);
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[a], AgentState::kPlay);
  EXPECT_EQ(crowd.playback()[a].clip, 3);
  EXPECT_EQ(crowd.playback()[a].previous_clip, 1);  // fades out of the walk
  // A walk-to during a play-once waits for the clip's end, as after an attack.
  crowd.submit({a, CommandType::kRunTo, glm::vec2(0.0f, 100.0f)});
  crowd.update(0.5f);
  EXPECT_EQ(crowd.states()[a], AgentState::kPlay);
  crowd.update(0.5f);
  EXPECT_EQ(crowd.states()[a], AgentState::kRun);
}

TEST(Crowd, PlayLoopedRepeatsEvenAClampedClipUntilTheNextCommand) {
  const auto clips = makeClips();
  Crowd crowd(clips, clipSetByName(clips).value());
  const uint32_t a = crowd.addAgent({});
  Command play{a, CommandType::kPlay};
  play.clip = 4;  // "die" is baked to play once
  play.loop = true;
  crowd.submit(play);
  crowd.update(0.75f);
  crowd.update(0.5f);  // past the 1 s clip: wraps around
  EXPECT_EQ(crowd.states()[a], AgentState::kPlay);
  EXPECT_NEAR(crowd.playback()[a].time, 0.25f, 1e-5f);
  crowd.update(3.0f);
  EXPECT_EQ(crowd.states()[a], AgentState::kPlay);
  crowd.submit({a, CommandType::kWalkTo, glm::vec2(0.0f, 100.0f)});  // a loop is left at once
  crowd.update(0.1f);
  EXPECT_EQ(crowd.states()[a], AgentState::kWalk);
  // An unknown clip is dropped like an unknown agent.
  play.clip = 99;
  crowd.submit(play);
  EXPECT_EQ(crowd.droppedCommands(), 1u);
}

}  // namespace
}  // namespace throng

namespace throng {
namespace {

// Crowd::update on a job system: the same agents, bit for bit, whatever the thread count.
TEST(Crowd, UpdateOnAJobSystemGivesTheSameCrowd) {
  const auto clips = makeClips();
  auto run = [&](JobSystem* jobs) {
    Crowd crowd(clips, clipSetByName(clips).value());
    constexpr uint32_t kAgents = 20000;  // several chunks
    for (uint32_t i = 0; i < kAgents; ++i) {
      crowd.addAgent({glm::vec3(static_cast<float>(i % 100), 0.0f, static_cast<float>(i / 100))},
                     0.01f * static_cast<float>(i % 37));
      const CommandType type = i % 4 == 0   ? CommandType::kWalkTo
                               : i % 4 == 1 ? CommandType::kRunTo
                               : i % 4 == 2 ? CommandType::kAttack
                                            : CommandType::kIdle;
      crowd.submit({i, type, glm::vec2(static_cast<float>(i % 13), static_cast<float>(i % 7))});
    }
    for (int step = 0; step < 40; ++step) crowd.update(1.0f / 30.0f, jobs);
    return crowd;
  };
  const Crowd expected = run(nullptr);
  for (int threads : {1, 2, 3}) {
    JobSystem jobs(threads);
    const Crowd got = run(&jobs);
    for (uint32_t a = 0; a < expected.agentCount(); ++a) {
      const Placement& e = expected.placements()[a];
      const Placement& g = got.placements()[a];
      ASSERT_EQ(std::memcmp(&e, &g, sizeof(Placement)), 0) << threads << " threads, agent " << a;
      const AgentPlayback& ep = expected.playback()[a];
      const AgentPlayback& gp = got.playback()[a];
      ASSERT_EQ(std::tie(ep.clip, ep.time, ep.speed, ep.previous_clip, ep.previous_time, ep.fade),
                std::tie(gp.clip, gp.time, gp.speed, gp.previous_clip, gp.previous_time, gp.fade))
          << threads << " threads, agent " << a;
      ASSERT_EQ(expected.states()[a], got.states()[a]);
    }
  }
  // It moved and changed: the comparison above is not of idle agents.
  EXPECT_EQ(expected.states()[101], AgentState::kRun);
  EXPECT_NE(expected.placements()[101].position, glm::vec3(1.0f, 0.0f, 1.0f));
}

}  // namespace
}  // namespace throng
