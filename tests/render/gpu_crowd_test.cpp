// Tests of the GPU-driven crowd (ES 3.1 compute on llvmpipe) against the CPU reference: the same
// command script gives the same agents, frames, culling, LODs and pictures as the CPU Crowd.
#include "render/gpu_crowd.h"
#include "render/test_hooks.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <set>

#include <gtest/gtest.h>

#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/test_support.h"
#include "throng/crowd/culling.h"
#include "throng/crowd/lod_select.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

constexpr float kTick = 1.0f / 30.0f;
constexpr int kGpuFrameSize = 256;
const glm::vec4 kGpuClear(0.12f, 0.13f, 0.16f, 1.0f);

// Tolerances of the GPU against the CPU (docs/gpu_driven.md): positions and headings drift by
// float rounding that differs between the two (fused multiply-adds, division by reciprocal,
// atan/cos/sin approximations); times and fades use the same float operations and agree to the
// bit unless a looped play wraps; frame positions (frame + blend) come from float rather than
// double arithmetic.
constexpr float kPositionTolerance = 1e-3f;  // world units (the character is 1.8 tall)
constexpr float kHeadingTolerance = 1e-3f;   // radians
constexpr float kTimeTolerance = 1e-5f;      // seconds
constexpr float kBlendTolerance = 1e-3f;     // of a frame

// Draw options with the LOD rule the CPU reference applies (agentLod with lodViewOf(view)).
GpuDrawOptions lodRule(const FrameView& view) {
  GpuDrawOptions options;
  options.lod_view = lodViewOf(view, kGpuFrameSize);
  return options;
}

// An ES 3.1 device, or nullptr with what the driver lacks in `*missing` (THRONG_REQUIRE: a
// failure in CI, whose llvmpipe has it all; GpuCrowd's own failures always fail).
std::unique_ptr<Device> makeEs31Device(std::string* missing, CapsOverride caps = {}) {
  return test::makeEs31Device(missing, kGpuFrameSize, kGpuFrameSize, caps);
}

ClipSet sampleClipSet() {
  ClipSet set = clipSetByName(test::sampleWithLods().clips).value();
  set.walk_speed = 1.2f;  // the sample's clips are in place
  set.run_speed = 3.0f;
  return set;
}

// A grid of agents, 2 units apart, starting at different clip times and headings.
void populate(Crowd& crowd, int agents, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(agents))));
  for (int i = 0; i < agents; ++i) {
    Placement p;
    p.position = glm::vec3(2.0f * static_cast<float>(i % side - side / 2), 0.0f,
                           -2.0f * static_cast<float>(i / side));
    p.heading = (unit(random) * 2.0f - 1.0f) * 3.1f;
    p.scale = 0.8f + 0.4f * unit(random);
    crowd.addAgent(p, unit(random) * 2.0f);
  }
}

// The deterministic script: every 6th tick a sixth of the crowd gets a command of every kind
// (some agents two in the same tick, so their order matters).
std::vector<Command> scriptCommands(std::mt19937& random, uint32_t agents, int tick) {
  std::vector<Command> commands;
  if (tick % 6 != 0 || agents == 0) return commands;
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const uint32_t count = std::max(1u, agents / 6);
  const uint16_t clips = static_cast<uint16_t>(test::sampleWithLods().clips.size());
  for (uint32_t c = 0; c < count; ++c) {
    Command command;
    command.agent = static_cast<uint32_t>(random() % agents);
    const float roll = unit(random);
    command.type = roll < 0.35f   ? CommandType::kWalkTo
                   : roll < 0.6f  ? CommandType::kRunTo
                   : roll < 0.75f ? CommandType::kAttack
                   : roll < 0.85f ? CommandType::kPlay
                   : roll < 0.95f ? CommandType::kIdle
                                  : CommandType::kDie;
    const float x = unit(random) * 24.0f - 12.0f;
    const float z = -unit(random) * 24.0f;
    command.target = glm::vec2(x, z);
    command.clip = static_cast<uint16_t>(random() % clips);
    command.loop = unit(random) < 0.5f;
    commands.push_back(command);
    if (c % 7 == 0) {  // a second command for the same agent, the same tick
      Command second = command;
      second.type = CommandType::kRunTo;
      second.target = glm::vec2(-x, z);
      commands.push_back(second);
    }
  }
  return commands;
}

float headingDifference(float a, float b) {
  float d = std::fmod(std::abs(a - b), 6.2831853f);
  return std::min(d, 6.2831853f - d);
}

// Every agent of `gpu` (read back) against `cpu`. Returns the number of agents that differ.
int compareAgents(const Crowd& cpu, const Crowd& gpu, const char* when) {
  EXPECT_EQ(cpu.agentCount(), gpu.agentCount()) << when;
  int bad = 0;
  float worst_position = 0.0f, worst_heading = 0.0f, worst_time = 0.0f;
  for (uint32_t a = 0; a < std::min(cpu.agentCount(), gpu.agentCount()); ++a) {
    const AgentRecord c = cpu.agent(a);
    const AgentRecord g = gpu.agent(a);
    const float position = glm::length(c.placement.position - g.placement.position);
    const float heading = headingDifference(c.placement.heading, g.placement.heading);
    const float time = std::max({std::abs(c.playback.time - g.playback.time),
                                 std::abs(c.playback.previous_time - g.playback.previous_time),
                                 std::abs(c.playback.fade - g.playback.fade)});
    worst_position = std::max(worst_position, position);
    worst_heading = std::max(worst_heading, heading);
    worst_time = std::max(worst_time, time);
    const bool same = c.state == g.state && c.resume_state == g.resume_state &&
                      c.play_loop == g.play_loop && c.playback.clip == g.playback.clip &&
                      c.playback.previous_clip == g.playback.previous_clip &&
                      c.target == g.target && c.placement.scale == g.placement.scale &&
                      position <= kPositionTolerance && heading <= kHeadingTolerance &&
                      time <= kTimeTolerance;
    if (!same && bad++ < 5) {
      ADD_FAILURE() << when << ": agent " << a << " cpu " << agentStateName(c.state) << " clip "
                    << c.playback.clip << "/" << c.playback.previous_clip << " t "
                    << c.playback.time << " fade " << c.playback.fade << " at ("
                    << c.placement.position.x << ", " << c.placement.position.z << ") heading "
                    << c.placement.heading << "; gpu " << agentStateName(g.state) << " clip "
                    << g.playback.clip << "/" << g.playback.previous_clip << " t "
                    << g.playback.time << " fade " << g.playback.fade << " at ("
                    << g.placement.position.x << ", " << g.placement.position.z << ") heading "
                    << g.placement.heading;
    }
  }
  std::printf("  %s: %u agents, worst position %.3g, heading %.3g, time %.3g; %d differ\n", when,
              cpu.agentCount(), worst_position, worst_heading, worst_time, bad);
  return bad;
}

// The same pose: equal frames and blends, or the two sides of one frame boundary.
bool sameSample(const FrameSample& a, const FrameSample& b) {
  if (a.frame_a == b.frame_a && a.frame_b == b.frame_b) {
    return std::abs(a.blend - b.blend) <= kBlendTolerance;
  }
  const bool a_before_b =
      a.frame_b == b.frame_a && a.blend >= 1.0f - kBlendTolerance && b.blend <= kBlendTolerance;
  const bool b_before_a =
      b.frame_b == a.frame_a && b.blend >= 1.0f - kBlendTolerance && a.blend <= kBlendTolerance;
  return a_before_b || b_before_a;
}

// What the GPU drew (lists, LODs and instance records) against the CPU's jobs on the CPU crowd:
// PlaybackJob, CullJob and LodSelectJob. An agent whose culling sphere or LOD distance lies
// within float rounding of a boundary may go either way.
void compareFrame(GpuCrowd& gpu, const Crowd& cpu, const FrameView& view) {
  GpuFrameCapture capture;
  ASSERT_TRUE(gpu.captureLastFrame(capture).ok());
  const Package& package = test::sampleWithLods();
  const uint32_t n = cpu.agentCount();
  std::vector<InstanceFrames> frames(n);
  const PlaybackJob playback{package.clips, cpu.playback(), frames};
  ASSERT_TRUE(playback.run());
  std::vector<uint32_t> visible(n);
  uint32_t visible_count = 0;
  const Frustum frustum = frustumFromViewProjection(view.view_projection);
  const CullJob cull{package.clips, cpu.placements(), cpu.playback(),
                     frustum,       visible,          &visible_count};
  ASSERT_TRUE(cull.run());
  visible.resize(visible_count);
  std::vector<uint8_t> lods(visible_count);
  std::vector<uint32_t> lod_counts(package.lods.size(), 0);
  const LodSelectJob select{
      package.lods, lodViewOf(view, kGpuFrameSize), cpu.placements(), visible, {}, -1, lods,
      lod_counts};
  ASSERT_TRUE(select.run());
  std::vector<int> cpu_lod(n, -1);
  for (uint32_t i = 0; i < visible_count; ++i) cpu_lod[visible[i]] = lods[i];

  std::set<uint32_t> seen;
  int frame_mismatches = 0, lod_mismatches = 0;
  for (size_t i = 0; i < capture.agents.size(); ++i) {
    const uint32_t a = capture.agents[i];
    EXPECT_TRUE(seen.insert(a).second) << "agent " << a << " listed twice";
    if (cpu_lod[a] < 0) {
      ADD_FAILURE() << "agent " << a << " drawn by the GPU, culled by the CPU";
      continue;
    }
    lod_mismatches += capture.lods[i] != cpu_lod[a];
    const Instance& in = capture.instances[i];
    const Placement& p = cpu.placements()[a];
    EXPECT_LE(glm::length(in.placement.position - p.position), kPositionTolerance) << a;
    EXPECT_LE(headingDifference(in.placement.heading, p.heading), kHeadingTolerance) << a;
    EXPECT_EQ(in.placement.scale, p.scale);
    const InstanceFrames& f = frames[a];
    const bool same = sameSample(in.frames.primary, f.primary) &&
                      sameSample(in.frames.secondary, f.secondary) &&
                      std::abs(in.frames.fade - f.fade) <= kTimeTolerance;
    if (!same && frame_mismatches++ < 5) {
      ADD_FAILURE() << "agent " << a << " frames gpu " << in.frames.primary.frame_a << "/"
                    << in.frames.primary.frame_b << "@" << in.frames.primary.blend << " + "
                    << in.frames.secondary.frame_a << "/" << in.frames.secondary.frame_b << "@"
                    << in.frames.secondary.blend << " fade " << in.frames.fade << "; cpu "
                    << f.primary.frame_a << "/" << f.primary.frame_b << "@" << f.primary.blend
                    << " + " << f.secondary.frame_a << "/" << f.secondary.frame_b << "@"
                    << f.secondary.blend << " fade " << f.fade;
    }
    EXPECT_EQ(in.tint, glm::vec4(1.0f));
  }
  EXPECT_EQ(frame_mismatches, 0);
  EXPECT_EQ(capture.agents.size(), visible_count) << "the GPU and the CPU see as many agents";
  EXPECT_EQ(lod_mismatches, 0);
  std::printf("  frame: %zu of %u agents visible on the GPU (%u on the CPU)\n",
              capture.agents.size(), n, visible_count);
}

// A camera in front of the grid at eye level: some agents out of view, several LODs in use.
FrameView streetView() {
  return lookAtView(glm::vec3(0.0f, 2.0f, 6.0f), glm::vec3(0.0f, 0.8f, -10.0f), 0.9f, 1.0f, 0.1f,
                    100.0f);
}

struct Pair {
  std::string skip;  // what the driver lacks for the path (THRONG_REQUIRE)
  std::unique_ptr<Device> device;
  std::unique_ptr<InstancedRenderer> renderer;
  std::unique_ptr<GpuCrowd> gpu;
};

Pair makeGpuCrowd() {
  Pair pair;
  pair.device = makeEs31Device(&pair.skip);
  if (!pair.device) return pair;
  auto renderer = InstancedRenderer::create(*pair.device, test::sampleWithLods());
  EXPECT_TRUE(renderer.ok()) << renderer.status().toString();
  if (!renderer.ok()) return pair;
  pair.renderer = std::move(renderer).value();
  auto gpu = GpuCrowd::create(*pair.device, test::sampleWithLods(), *pair.renderer);
  EXPECT_TRUE(gpu.ok()) << gpu.status().toString();
  if (gpu.ok()) pair.gpu = std::move(gpu).value();
  return pair;
}

TEST(GpuCrowd, FollowsTheCpuCrowdThroughACommandScript) {
  Pair pair = makeGpuCrowd();
  THRONG_REQUIRE(pair.skip.empty(), pair.skip);
  ASSERT_NE(pair.gpu, nullptr);
  const Package& package = test::sampleWithLods();
  Crowd cpu(package.clips, sampleClipSet());
  Crowd gpu(package.clips, sampleClipSet());
  populate(cpu, 200, 7);
  populate(gpu, 200, 7);
  std::mt19937 script(11);
  const FrameView view = streetView();
  constexpr int kTicks = 90;
  for (int t = 0; t < kTicks; ++t) {
    for (const Command& c : scriptCommands(script, cpu.agentCount(), t)) {
      cpu.submit(c);
      gpu.submit(c);
    }
    cpu.update(kTick);
    ASSERT_TRUE(pair.gpu->update(gpu, kTick).ok());
    EXPECT_EQ(gpu.queuedCommands().size(), 0u) << "the GPU took the commands";
    // Updates without a draw run at the next one; few draws keep llvmpipe's vertex work small.
    if (t % 10 != 3 && t % 30 != 29) continue;
    pair.device->beginFrame(kGpuClear);
    ASSERT_TRUE(pair.gpu->draw(view, gpu, {}, lodRule(view)).ok());
    if (t % 30 == 29) {
      Result<bool> back = pair.gpu->readBack(gpu, true);
      ASSERT_TRUE(back.ok()) << back.status().toString();
      ASSERT_TRUE(*back);
      const std::string when = "tick " + std::to_string(t + 1);
      EXPECT_EQ(compareAgents(cpu, gpu, when.c_str()), 0);
      compareFrame(*pair.gpu, cpu, view);
    }
  }
  // The script drove every state.
  std::set<AgentState> states(cpu.states().begin(), cpu.states().end());
  EXPECT_GE(states.size(), 5u);
}

TEST(GpuCrowd, AddsAndRemovesAgentsSparsely) {
  Pair pair = makeGpuCrowd();
  THRONG_REQUIRE(pair.skip.empty(), pair.skip);
  ASSERT_NE(pair.gpu, nullptr);
  const Package& package = test::sampleWithLods();
  Crowd cpu(package.clips, sampleClipSet());
  Crowd gpu(package.clips, sampleClipSet());
  populate(cpu, 100, 3);
  populate(gpu, 100, 3);
  std::mt19937 script(5);
  std::mt19937 churn(9);
  const FrameView view = streetView();
  for (int t = 0; t < 90; ++t) {
    // Between updates: agents come and go (with commands queued for them and for the last).
    if (t % 10 == 5) {
      for (int k = 0; k < 3; ++k) {
        Placement p;
        p.position = glm::vec3(static_cast<float>(churn() % 20) - 10.0f, 0.0f,
                               -static_cast<float>(churn() % 20));
        cpu.addAgent(p, 0.3f * static_cast<float>(k));
        gpu.addAgent(p, 0.3f * static_cast<float>(k));
      }
      for (int k = 0; k < 4; ++k) {
        const uint32_t victim = static_cast<uint32_t>(churn() % cpu.agentCount());
        cpu.removeAgent(victim);
        gpu.removeAgent(victim);
      }
      cpu.removeAgent(cpu.agentCount() - 1);  // the last one: nothing moves
      gpu.removeAgent(gpu.agentCount() - 1);
    }
    for (const Command& c : scriptCommands(script, cpu.agentCount(), t)) {
      cpu.submit(c);
      gpu.submit(c);
    }
    if (t % 10 == 5) {  // commands queued before a removal follow their agents
      cpu.removeAgent(0);
      gpu.removeAgent(0);
    }
    if (t % 10 == 6) {  // speeds set between updates, one of them on an agent that then moves
      const uint32_t fast = static_cast<uint32_t>(churn() % cpu.agentCount());
      for (Crowd* crowd : {&cpu, &gpu}) {
        crowd->setSpeed(fast, 1.75f);
        crowd->setSpeed(crowd->agentCount() - 1, 0.5f);
        crowd->removeAgent(fast == 0 ? 1 : 0);
      }
    }
    if (t == 44) {  // the crowd cut short
      cpu.truncate(cpu.agentCount() - 5);
      gpu.truncate(gpu.agentCount() - 5);
    }
    cpu.update(kTick);
    ASSERT_TRUE(pair.gpu->update(gpu, kTick).ok());
    if (t % 15 == 7) {  // an agent added after the update is drawn but not advanced
      cpu.addAgent({glm::vec3(1.0f, 0.0f, -3.0f)}, 0.5f);
      gpu.addAgent({glm::vec3(1.0f, 0.0f, -3.0f)}, 0.5f);
    }
    // Draws after the churn, after the speeds and after the late additions, and the last.
    if (t % 10 != 5 && t % 10 != 6 && t % 15 != 7 && t != 44 && t != 89) continue;
    pair.device->beginFrame(kGpuClear);
    ASSERT_TRUE(pair.gpu->draw(view, gpu, {}, lodRule(view)).ok());
  }
  EXPECT_EQ(pair.gpu->agentCount(), cpu.agentCount());
  Result<bool> back = pair.gpu->readBack(gpu, true);
  ASSERT_TRUE(back.ok() && *back);
  EXPECT_EQ(compareAgents(cpu, gpu, "after churn"), 0);
  compareFrame(*pair.gpu, cpu, view);
}

// Two updates before a draw run as two steps, as on the CPU; a draw without an update only draws.
TEST(GpuCrowd, UpdatesWithoutDrawsAndDrawsWithoutUpdates) {
  Pair pair = makeGpuCrowd();
  THRONG_REQUIRE(pair.skip.empty(), pair.skip);
  ASSERT_NE(pair.gpu, nullptr);
  const Package& package = test::sampleWithLods();
  Crowd cpu(package.clips, sampleClipSet());
  Crowd gpu(package.clips, sampleClipSet());
  populate(cpu, 50, 1);
  populate(gpu, 50, 1);
  std::mt19937 script(2);
  const FrameView view = streetView();
  for (int t = 0; t < 40; ++t) {
    for (const Command& c : scriptCommands(script, cpu.agentCount(), t)) {
      cpu.submit(c);
      gpu.submit(c);
    }
    cpu.update(kTick);
    ASSERT_TRUE(pair.gpu->update(gpu, kTick).ok());
    if (t % 3 == 0) continue;  // no draw this tick
    for (int d = 0; d < (t % 4 == 1 ? 2 : 1); ++d) {
      pair.device->beginFrame(kGpuClear);
      ASSERT_TRUE(pair.gpu->draw(view, gpu, {}, lodRule(view)).ok());
    }
  }
  ASSERT_TRUE(pair.gpu->update(gpu, kTick).ok());  // pending: readBack(wait) runs it
  cpu.update(kTick);
  Result<bool> back = pair.gpu->readBack(gpu, true);
  ASSERT_TRUE(back.ok() && *back);
  EXPECT_EQ(compareAgents(cpu, gpu, "mixed updates and draws"), 0);
}

// Reading back without waiting never stalls: the first call only asks for copies, later calls
// deliver a recent frame's state.
TEST(GpuCrowd, ReadsBackAFrameLateWithoutWaiting) {
  Pair pair = makeGpuCrowd();
  THRONG_REQUIRE(pair.skip.empty(), pair.skip);
  ASSERT_NE(pair.gpu, nullptr);
  const Package& package = test::sampleWithLods();
  Crowd cpu(package.clips, sampleClipSet());
  Crowd gpu(package.clips, sampleClipSet());
  populate(cpu, 64, 4);
  populate(gpu, 64, 4);
  for (uint32_t a = 0; a < cpu.agentCount(); ++a) {
    const Command walk{a, CommandType::kWalkTo, glm::vec2(0.0f, -40.0f)};
    cpu.submit(walk);
    gpu.submit(walk);
  }
  Result<bool> first = pair.gpu->readBack(gpu, false);
  ASSERT_TRUE(first.ok());
  EXPECT_FALSE(*first) << "nothing has been copied yet";
  std::vector<std::vector<AgentRecord>> history;
  const FrameView view = streetView();
  int delivered = 0;
  for (int t = 0; t < 12; ++t) {
    cpu.update(kTick);
    std::vector<AgentRecord> snapshot;
    for (uint32_t a = 0; a < cpu.agentCount(); ++a) snapshot.push_back(cpu.agent(a));
    history.push_back(snapshot);
    ASSERT_TRUE(pair.gpu->update(gpu, kTick).ok());
    pair.device->beginFrame(kGpuClear);
    ASSERT_TRUE(pair.gpu->draw(view, gpu, {}, lodRule(view)).ok());
    Result<bool> back = pair.gpu->readBack(gpu, false);
    ASSERT_TRUE(back.ok());
    if (!*back) continue;
    ++delivered;
    // The agents are those of some recent tick (this one or up to two before).
    const float z = gpu.placements()[0].position.z;
    int matched = -1;
    for (int k = t; k >= std::max(0, t - 2) && matched < 0; --k) {
      if (std::abs(history[k][0].placement.position.z - z) <= kPositionTolerance) matched = k;
    }
    EXPECT_GE(matched, 0) << "tick " << t;
  }
  EXPECT_GT(delivered, 0);
}

TEST(GpuCrowd, RefusesCrowdsOfOtherClipsAndDevicesWithoutCompute) {
  Pair pair = makeGpuCrowd();
  THRONG_REQUIRE(pair.skip.empty(), pair.skip);
  ASSERT_NE(pair.gpu, nullptr);
  std::vector<BakedClip> clips = test::sampleWithLods().clips;
  clips.push_back(clips.back());
  clips.back().name = "extra";  // one clip more than the package has
  Crowd other(clips, clipSetByName(clips).value());
  other.addAgent({});
  EXPECT_EQ(pair.gpu->update(other, kTick).code(), ErrorCode::kInvalidArgument);
  // Crowds and spans that do not fit the package or each other.
  const ClipSet clip_set = clipSetByName(test::sampleWithLods().clips).value();
  const CrowdCharacter characters[2] = {{test::sampleWithLods().clips, clip_set},
                                        {test::sampleWithLods().clips, clip_set}};
  Crowd mixed(characters);
  mixed.addAgent({}, 0.0f, 1);
  const Status mixed_status = pair.gpu->update(mixed, kTick);
  EXPECT_EQ(mixed_status.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(mixed_status.message(),
            "GPU-driven crowd: a mixed crowd (2 characters); one character's crowd only");
  Crowd crowd(test::sampleWithLods().clips, clip_set);
  crowd.addAgent({});
  crowd.addAgent({});
  const FrameView view =
      lookAtView(glm::vec3(0.0f, 2.0f, 8.0f), glm::vec3(0.0f), 0.8f, 1.0f, 0.1f, 100.0f);
  GpuDrawOptions far_lod = lodRule(view);
  far_lod.fixed_lod = 9;
  EXPECT_EQ(pair.gpu->draw(view, crowd, {}, far_lod).message(),
            "GPU-driven crowd: LOD 9 asked for; the package has 4 LODs");
  const glm::vec4 one_tint[1] = {glm::vec4(1.0f)};
  EXPECT_EQ(pair.gpu->draw(view, crowd, one_tint, lodRule(view)).message(),
            "GPU-driven crowd: 1 tints for 2 agents (one per agent, or none)");
  const Placement placements[2] = {};
  const AgentPlayback playback[1] = {};
  EXPECT_EQ(pair.gpu->draw(view, placements, playback, {}, lodRule(view)).message(),
            "GPU-driven crowd: 2 placements, 1 playback states and 0 tints");
  // A package whose LODs are not the instanced renderer's (here: one LOD of the sample's four).
  Package one_lod = test::sampleWithLods();
  one_lod.lods.resize(1);
  auto mismatched = GpuCrowd::create(*pair.device, one_lod, *pair.renderer);
  EXPECT_EQ(mismatched.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(mismatched.status().message().find("LODs (the renderer has "), std::string::npos)
      << mismatched.status().message();

  CapsOverride no_compute;
  no_compute.disable_compute = true;
  std::string skip;
  auto es30 = makeEs31Device(&skip, no_compute);
  ASSERT_NE(es30, nullptr);
  auto renderer = InstancedRenderer::create(*es30, test::sampleWithLods());
  ASSERT_TRUE(renderer.ok());
  auto gpu = GpuCrowd::create(*es30, test::sampleWithLods(), **renderer);
  EXPECT_EQ(gpu.status().code(), ErrorCode::kUnsupported);
  EXPECT_NE(gpu.status().message().find("compute"), std::string::npos);
}

// The front end: the same user code on the gpu and the instanced paths draws the same picture.
TEST(GpuCrowd, TheFrontEndDrawsTheSameCrowdOnTheGpuAndInstancedPaths) {
  std::string skip;
  auto device = makeEs31Device(&skip);
  THRONG_REQUIRE(skip.empty(), skip);
  ASSERT_NE(device, nullptr);
  const Package& package = test::sampleWithLods();
  std::array<glm::vec4, kAgentStateCount> state_tints;
  for (int s = 0; s < kAgentStateCount; ++s) {
    state_tints[s] = glm::vec4(0.4f + 0.1f * static_cast<float>(s), 0.9f - 0.1f * s, 0.7f, 1.0f);
  }
  CrowdRendererDesc auto_desc;
  auto_desc.state_tints = state_tints;
  CrowdRenderer gpu_renderer(*device, package, auto_desc);
  ASSERT_TRUE(gpu_renderer.ok()) << gpu_renderer.status().toString();
  EXPECT_EQ(gpu_renderer.path(), RenderPath::kGpu);
  CrowdRendererDesc instanced_desc = auto_desc;
  instanced_desc.path = RenderPath::kInstanced;
  CrowdRenderer cpu_renderer(*device, package, instanced_desc);
  ASSERT_TRUE(cpu_renderer.ok());

  Crowd cpu(package.clips, sampleClipSet());
  Crowd gpu(package.clips, sampleClipSet());
  populate(cpu, 200, 21);
  populate(gpu, 200, 21);
  std::mt19937 script(17);
  const FrameView view = streetView();
  Image cpu_image, gpu_image;
  for (int t = 0; t < 30; ++t) {
    for (const Command& c : scriptCommands(script, cpu.agentCount(), t)) {
      cpu.submit(c);
      gpu.submit(c);
    }
    // The same calls on both paths.
    for (auto [renderer, crowd, image] : {std::tuple{&cpu_renderer, &cpu, &cpu_image},
                                          std::tuple{&gpu_renderer, &gpu, &gpu_image}}) {
      renderer->update(*crowd, kTick);
      if (t % 10 != 9) continue;  // updates without draws too
      device->beginFrame(kGpuClear);
      ASSERT_TRUE(renderer->draw(view, *crowd).ok()) << renderPathName(renderer->path());
      device->finish();
      if (t == 29) *image = device->readPixels().value();
    }
  }
  const ImageDifference d = compareImages(cpu_image, gpu_image, test::kPathChannelTolerance);
  std::printf("  gpu vs instanced: %lld pixels differ by more than %d (largest %d)\n",
              static_cast<long long>(d.bad_pixels), test::kPathChannelTolerance,
              d.max_channel_difference);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kGpuFrameSize * kGpuFrameSize),
            test::kPathMaxBadPixelShare);
  int lit = 0;
  for (size_t px = 0; px < gpu_image.rgba.size(); px += 4) {
    lit += std::abs(gpu_image.rgba[px] - static_cast<int>(kGpuClear.r * 255.0f)) >
           test::kPathChannelTolerance;
  }
  EXPECT_GT(lit, kGpuFrameSize * kGpuFrameSize / 20) << "the crowd must cover the frame";
  if (const char* dir = std::getenv("THRONG_TEST_IMAGES")) {
    ASSERT_TRUE(writePng(gpu_image, std::string(dir) + "/gpu_front_end.png").ok());
    ASSERT_TRUE(writePng(cpu_image, std::string(dir) + "/instanced_front_end.png").ok());
  }
  // The counters catch up with the GPU a frame or two late.
  // One indirect draw per (LOD, material), whatever the LOD's count (it is on the GPU).
  uint32_t material_draws = 0;
  for (int l = 0; l < gpu_renderer.lodCount(); ++l) {
    material_draws += static_cast<uint32_t>(gpu_renderer.lodInfo(l).materials);
  }
  EXPECT_GT(material_draws, static_cast<uint32_t>(gpu_renderer.lodCount()))
      << "the sample character has several materials";
  EXPECT_EQ(gpu_renderer.stats().draw_calls, material_draws);
  EXPECT_GT(gpu_renderer.stats().visible, 0u);
  EXPECT_LE(gpu_renderer.stats().visible, 200u);
  Result<bool> back = gpu_renderer.readBack(gpu, true);
  ASSERT_TRUE(back.ok() && *back);
  EXPECT_EQ(compareAgents(cpu, gpu, "front end"), 0);
  EXPECT_TRUE(*cpu_renderer.readBack(cpu, false)) << "CPU paths are always current";
}

// Blob shadows on the gpu path (drawn from its compute pass's lists, no read-back): at street
// view over the ground, the same picture as the instanced path's (whose blobs come from its CPU
// lists), and a different one from the gpu path's without them.
TEST(GpuCrowd, BlobShadowsFromTheListsMatchTheInstancedPaths) {
  std::string skip;
  auto device = makeEs31Device(&skip);
  THRONG_REQUIRE(skip.empty(), skip);
  ASSERT_NE(device, nullptr);
  const Package& package = test::sampleWithLods();
  CrowdRendererDesc desc;
  desc.ground.grid = true;
  desc.shadows = ShadowMode::kBlob;
  CrowdRenderer gpu_renderer(*device, package, desc);
  ASSERT_TRUE(gpu_renderer.ok()) << gpu_renderer.status().toString();
  ASSERT_EQ(gpu_renderer.path(), RenderPath::kGpu) << "auto picks gpu with blob shadows";
  ASSERT_EQ(gpu_renderer.shadows(), ShadowMode::kBlob) << gpu_renderer.shadowReason();
  CrowdRendererDesc instanced_desc = desc;
  instanced_desc.path = RenderPath::kInstanced;
  CrowdRenderer cpu_renderer(*device, package, instanced_desc);
  ASSERT_TRUE(cpu_renderer.ok());

  // The same script on both paths; the last frame read.
  auto run = [&](CrowdRenderer& renderer) {
    Crowd crowd(package.clips, sampleClipSet());
    populate(crowd, 200, 21);
    std::mt19937 script(17);
    for (int t = 0; t < 20; ++t) {
      for (const Command& c : scriptCommands(script, crowd.agentCount(), t)) crowd.submit(c);
      renderer.update(crowd, kTick);
    }
    device->beginFrame(kGpuClear);
    EXPECT_TRUE(renderer.draw(streetView(), crowd).ok()) << renderPathName(renderer.path());
    device->finish();
    return device->readPixels().value();
  };
  const Image gpu_image = run(gpu_renderer);
  const Image cpu_image = run(cpu_renderer);
  gpu_renderer.setShadows(ShadowMode::kOff);
  const Image bare = run(gpu_renderer);
  if (const char* dir = std::getenv("THRONG_TEST_IMAGES")) {
    ASSERT_TRUE(writePng(gpu_image, std::string(dir) + "/gpu_blobs.png").ok());
    ASSERT_TRUE(writePng(cpu_image, std::string(dir) + "/instanced_blobs.png").ok());
  }
  const int64_t shadowed = compareImages(gpu_image, bare, test::kPathChannelTolerance).bad_pixels;
  const ImageDifference d = compareImages(cpu_image, gpu_image, test::kPathChannelTolerance);
  std::printf(
      "  blob shadows change %lld pixels; gpu vs instanced: %lld differ by more than %d "
      "(largest %d)\n",
      static_cast<long long>(shadowed), static_cast<long long>(d.bad_pixels),
      test::kPathChannelTolerance, d.max_channel_difference);
  EXPECT_GT(shadowed, 10 * test::kPathMaxBadPixelShare * kGpuFrameSize * kGpuFrameSize);
  EXPECT_LE(static_cast<double>(d.bad_pixels) / (kGpuFrameSize * kGpuFrameSize),
            test::kPathMaxBadPixelShare);
  // The ground, then one blob draw per LOD (its count on the GPU); the instanced path's one.
  gpu_renderer.setShadows(ShadowMode::kBlob);
  run(gpu_renderer);
  EXPECT_EQ(gpu_renderer.stats().ground_draw_calls,
            1u + static_cast<uint32_t>(gpu_renderer.lodCount()));
}

}  // namespace
}  // namespace throng::render
