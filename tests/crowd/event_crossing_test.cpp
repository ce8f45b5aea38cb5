// Tests of forEachCrossedEvent and of the events a Crowd reports: loop wraps, clamped ends,
// cross-fades, one-shot clips and determinism.
#include "throng/crowd/event_crossing.h"

#include <fmt/core.h>
#include <gtest/gtest.h>

#include "throng/core/job_system.h"
#include "throng/crowd/crowd.h"

namespace throng {
namespace {

BakedClip clipWithEvents(const char* name, float duration, bool loop,
                         std::initializer_list<ClipEvent> events) {
  BakedClip clip;
  clip.name = name;
  clip.duration = duration;
  clip.loop = loop;
  clip.events = events;
  return clip;
}

std::vector<int> crossed(const BakedClip& clip, float from, float to, bool loop) {
  std::vector<int> hits;
  forEachCrossedEvent(clip, from, to, loop, [&](uint16_t e) { hits.push_back(e); });
  return hits;
}

TEST(EventCrossing, HalfOpenSpansReportEachCrossingOnceAcrossLoopWraps) {
  const BakedClip walk = clipWithEvents("walk", 1.0f, true, {{"left", 0.0f}, {"right", 0.5f}});
  EXPECT_EQ(crossed(walk, 0.0f, 0.25f, true), (std::vector<int>{0}));
  EXPECT_EQ(crossed(walk, 0.25f, 0.5f, true), (std::vector<int>{}));  // 0.5 belongs to the next
  EXPECT_EQ(crossed(walk, 0.5f, 0.75f, true), (std::vector<int>{1}));
  EXPECT_EQ(crossed(walk, 0.75f, 1.25f, true), (std::vector<int>{0}));  // the wrap: left again
  EXPECT_EQ(crossed(walk, 0.9f, 3.1f, true), (std::vector<int>{0, 1, 0, 1, 0}));  // long tick
  EXPECT_TRUE(crossed(walk, 0.3f, 0.3f, true).empty());

  // Ticks of 1/30 s over ten seconds: 10 lefts and 10 rights, none twice.
  int counts[2] = {0, 0};
  float t = 0.0f;
  for (int i = 0; i < 299; ++i) {  // up to 9.97 s
    const float next = t + 1.0f / 30.0f;
    for (int e : crossed(walk, t, next, true)) ++counts[e];
    t = next;
  }
  EXPECT_EQ(counts[0], 10);  // 0, 1, ..., 9
  EXPECT_EQ(counts[1], 10);
}

TEST(EventCrossing, ClampedClipsReportEachEventOnceTheEndIncluded) {
  const BakedClip swing = clipWithEvents("swing", 0.6f, false, {{"hit", 0.3f}, {"done", 0.6f}});
  EXPECT_EQ(crossed(swing, 0.0f, 0.4f, false), (std::vector<int>{0}));
  EXPECT_EQ(crossed(swing, 0.4f, 0.8f, false), (std::vector<int>{1}));  // the end, once
  EXPECT_TRUE(crossed(swing, 0.8f, 5.0f, false).empty());               // held: nothing more
  // Looped anyway (a looped play of a clamped clip): the end is the next pass's start.
  EXPECT_EQ(crossed(swing, 0.5f, 1.0f, true), (std::vector<int>{1, 0}));
}

std::vector<BakedClip> crowdClips() {
  return {clipWithEvents("Idle", 2.0f, true, {{"breath", 1.0f}}),
          clipWithEvents("Walk", 1.0f, true, {{"left", 0.1f}, {"right", 0.6f}}),
          clipWithEvents("Run", 0.5f, true, {{"step", 0.2f}}),
          clipWithEvents("Attack", 0.5f, false, {{"hit", 0.25f}}),
          clipWithEvents("Die", 1.0f, false, {})};
}

std::string names(const Crowd& crowd) {
  std::string text;
  for (const EventHit& hit : crowd.events()) {
    text += fmt::format("{}:{}:{:.2f} ", hit.agent, crowd.clips()[hit.clip].events[hit.event].name,
                        hit.weight);
  }
  return text;
}

TEST(CrowdEvents, UpdatesReportCrossingsThroughWrapsFadesAndOneShots) {
  const auto clips = crowdClips();
  Crowd crowd(clips, clipSetByName(clips).value(), CrowdDesc{0.2f, 8.0f});
  const uint32_t a = crowd.addAgent({});
  const uint32_t b = crowd.addAgent({}, 0.95f);
  crowd.update(0.1f);  // b crosses idle's breath at 1.0
  EXPECT_EQ(names(crowd), "1:breath:1.00 ");
  crowd.update(1.0f);  // a's breath at 1.0 (t 0.1 -> 1.1); b's none (1.05 -> 2.05 wraps at 2.0)
  EXPECT_EQ(names(crowd), "0:breath:1.00 ");

  // b attacks: the swing's hit once, while idle fades out (idle's breath at 3.0 = 1.0 next pass
  // is not reached); then back to idle.
  crowd.submit({b, CommandType::kAttack});
  crowd.update(0.3f);
  EXPECT_EQ(names(crowd), "1:hit:1.00 ");
  crowd.update(0.3f);  // the swing ends: no second hit
  EXPECT_EQ(names(crowd), "");
  EXPECT_EQ(crowd.states()[b], AgentState::kIdle);

  // a walks: walk starts at 0 with idle fading out over 0.2 s; idle's pass continues meanwhile.
  crowd.submit({a, CommandType::kWalkTo, glm::vec2(0.0f, 100.0f)});
  crowd.update(0.15f);  // walk 0 -> 0.15: left at 0.1, weight 0.75 (idle still fades at 0.25)
  EXPECT_EQ(names(crowd), "0:left:0.75 ");
  crowd.update(0.5f);  // walk 0.15 -> 0.65: right; the fade is over
  EXPECT_EQ(names(crowd), "0:right:1.00 ");
  int lefts = 0;
  for (int i = 0; i < 30; ++i) {  // 3 s of walking at 10 Hz: three more lefts, across wraps
    crowd.update(0.1f);
    for (const EventHit& hit : crowd.events()) lefts += hit.agent == a && hit.event == 0;
  }
  EXPECT_EQ(lefts, 3);
}

TEST(CrowdEvents, TheSameCommandsGiveTheSameEvents) {
  const auto clips = crowdClips();
  auto run = [&](JobSystem* jobs) {
    Crowd crowd(clips, clipSetByName(clips).value());
    for (int i = 0; i < 20; ++i) crowd.addAgent({glm::vec3(i, 0, 0)}, 0.07f * i);
    std::string log;
    for (int tick = 0; tick < 120; ++tick) {
      if (tick % 10 == 0) {
        const uint32_t agent = static_cast<uint32_t>(tick * 7 % 20);
        crowd.submit({agent, tick % 20 == 0 ? CommandType::kRunTo : CommandType::kAttack,
                      glm::vec2(3.0f, 4.0f)});
      }
      crowd.update(1.0f / 30.0f, jobs);
      log += names(crowd) + "|";
    }
    return log;
  };
  const std::string first = run(nullptr);
  EXPECT_EQ(first, run(nullptr));
  // A parallel update (agents advanced in chunks on other threads) reports the same list.
  JobSystem jobs(3);
  EXPECT_EQ(first, run(&jobs));
  EXPECT_NE(first.find("hit"), std::string::npos);
  EXPECT_NE(first.find("step"), std::string::npos);
}

}  // namespace
}  // namespace throng
