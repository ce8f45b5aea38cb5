// The gpu path at parity with the CPU-fed ones (issue 22, item 4): material variants drawn as the
// instanced path draws them, animation events gathered on the GPU exactly as the CPU Crowd
// reports them (overflow counted), and agentDrawInfo / drawOrder read back on demand, agreeing
// with the instanced path's for the same frame.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "render/gpu_crowd.h"
#include "render_test_support.h"
#include "support/gpu_support.h"
#include "support/require.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/picking.h"
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/frame_view.h"

namespace throng::render {
namespace gpu_parity_test {

constexpr float kTick = 1.0f / 30.0f;
constexpr int kSize = 256;
const glm::vec4 kClear(0.12f, 0.13f, 0.16f, 1.0f);

// An ES 3.1 device with compute, or null with what the driver lacks in `missing`.
std::unique_ptr<Device> es31Device(std::string& missing) {
  return test::makeEs31Device(&missing, kSize, kSize);
}

// A camera over rows of the quads, in perspective.
FrameView quadsView() {
  return lookAtView(glm::vec3(9.0f, 4.0f, 9.0f), glm::vec3(9.0f, 0.5f, -6.0f), 0.9f, 1.0f, 0.1f,
                    100.0f);
}

// Agents in three rows of two, appearance a % 3 (own, "plain", "all red"); `own`: all 0.
void addQuadAgents(Crowd& crowd, bool own) {
  for (uint32_t a = 0; a < 6; ++a) {
    Placement p;
    p.position = glm::vec3(10.0f * static_cast<float>(a % 2), 0.0f, -3.0f * (a / 2));
    crowd.addAgent(p, 0.0f, 0, own ? uint16_t{0} : static_cast<uint16_t>(a % 3));
  }
}

Image drawCrowd(Device& device, CrowdRenderer& renderer, const Crowd& crowd) {
  device.beginFrame(kClear);
  const Status s = renderer.draw(quadsView(), crowd);
  EXPECT_TRUE(s.ok()) << s.toString();
  device.finish();
  return device.readPixels().value();
}

double badShare(const Image& a, const Image& b) {
  const ImageDifference d = compareImages(a, b, test::kPathChannelTolerance);
  std::printf("  %lld pixels differ by more than %d (largest %d)\n",
              static_cast<long long>(d.bad_pixels), test::kPathChannelTolerance,
              d.max_channel_difference);
  return static_cast<double>(d.bad_pixels) / (kSize * kSize);
}

// Each agent's appearance reaches the gpu path's draws (auto picks it for a package with
// variants): the picture equals the instanced path's within the path tolerance, before and after
// an agent is removed (the appearances are uploaded again then), and differs from the crowd
// drawn in its own materials.
TEST(GpuParity, MaterialVariantsDrawAsOnTheInstancedPath) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  const Package& package = test::materialCharacterPackage();
  ASSERT_EQ(package.variants.size(), 2u);
  CrowdRendererDesc desc;
  desc.fixed_lod = 0;
  CrowdRenderer gpu(*device, package, desc);
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  EXPECT_EQ(gpu.path(), RenderPath::kGpu) << "auto, a package with variants: " << gpu.pathReason();
  desc.path = RenderPath::kInstanced;
  CrowdRenderer instanced(*device, package, desc);
  ASSERT_TRUE(instanced.ok());

  const ClipSet clips = clipSetByName(package.clips).value();
  Crowd gpu_crowd(package.clips, clips), cpu_crowd(package.clips, clips), own(package.clips, clips);
  addQuadAgents(gpu_crowd, false);
  addQuadAgents(cpu_crowd, false);
  addQuadAgents(own, true);
  for (int frame = 0; frame < 3; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    if (frame == 2) {  // agent 5 moves into agent 1's place: its appearance too
      gpu_crowd.removeAgent(1);
      cpu_crowd.removeAgent(1);
      own.removeAgent(1);
    }
    gpu.update(gpu_crowd, kTick);
    instanced.update(cpu_crowd, kTick);
    const Image gpu_image = drawCrowd(*device, gpu, gpu_crowd);
    const Image cpu_image = drawCrowd(*device, instanced, cpu_crowd);
    EXPECT_LE(badShare(gpu_image, cpu_image), test::kPathMaxBadPixelShare) << "gpu vs instanced";
    gpu.update(own, kTick);
    const Image own_image = drawCrowd(*device, gpu, own);
    EXPECT_GT(badShare(gpu_image, own_image), 20 * test::kPathMaxBadPixelShare)
        << "the variants must show";
    if (const char* dir = std::getenv("THRONG_TEST_IMAGES"); dir && frame == 2) {
      ASSERT_TRUE(writePng(gpu_image, std::string(dir) + "/gpu_variants.png").ok());
      ASSERT_TRUE(writePng(cpu_image, std::string(dir) + "/instanced_variants.png").ok());
    }
  }
}

// The sample character with a joint mask (for layers), events on every clip: at its start, at
// 0.37 of it and at its end; clip 0 with `many` events instead (for the overflow).
Package eventPackage(int many = 0) {
  Character c = makeSampleCharacter();
  EXPECT_TRUE(addJointMask(c, {"upper", "spine_01"}, "sample").ok());
  BakeOptions bake;
  bake.threads = 1;
  Package p = bakeCharacter(c, bake).value();
  for (size_t i = 0; i < p.clips.size(); ++i) {
    BakedClip& clip = p.clips[i];
    clip.events.clear();
    if (i == 0 && many > 0) {
      for (int e = 0; e < many; ++e) {
        clip.events.push_back({"tick", clip.duration * static_cast<float>(e) / many});
      }
      continue;
    }
    clip.events.push_back({"start", 0.0f});
    clip.events.push_back({"mid", 0.37f * clip.duration});
    clip.events.push_back({"end", clip.duration});
  }
  return p;
}

std::tuple<uint32_t, uint16_t, uint16_t, float, bool> key(const EventHit& e) {
  return {e.agent, e.clip, e.event, e.weight, e.layer};
}

// A script of plays (looped and once: loop wraps, returns, cross-fades), attacks, idles, deaths,
// walks and runs to far targets (no arrival, which float rounding could move by a tick), speeds
// and layers, run on a CPU Crowd (the reference) and on the gpu path: every update's events are
// the same list, in the same order, with the same weights.
TEST(GpuParity, EventsEqualTheCpuCrowdsOverManyUpdates) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  const Package package = eventPackage();
  ASSERT_EQ(package.masks.size(), 1u);
  CrowdRendererDesc desc;
  desc.events = true;
  CrowdRenderer gpu(*device, package, desc);
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  EXPECT_EQ(gpu.path(), RenderPath::kGpu) << "auto with events: " << gpu.pathReason();

  ClipSet clips = clipSetByName(package.clips).value();
  clips.walk_speed = 1.2f;
  clips.run_speed = 3.0f;
  CrowdDesc crowd_desc;
  crowd_desc.cross_fade_seconds = 0.2f;
  Crowd cpu(package.clips, clips, crowd_desc, package.masks.size());
  Crowd mirrored(package.clips, clips, crowd_desc, package.masks.size());
  constexpr uint32_t kAgents = 150;
  std::mt19937 random(5);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  for (uint32_t a = 0; a < kAgents; ++a) {
    Placement p;
    p.position = glm::vec3(static_cast<float>(a % 15) * 2.0f, 0.0f, -2.0f * (a / 15));
    const float start = unit(random) * 2.0f;
    cpu.addAgent(p, start);
    mirrored.addAgent(p, start);
    if (a % 5 == 0) {
      cpu.setSpeed(a, 0.75f);
      mirrored.setSpeed(a, 0.75f);
    }
  }
  const uint16_t clip_count = static_cast<uint16_t>(package.clips.size());
  std::vector<std::vector<EventHit>> expected;
  std::vector<UpdateEvents> arrived;
  constexpr int kUpdates = 120;
  for (int t = 0; t < kUpdates; ++t) {
    if (t % 4 == 0) {
      for (uint32_t i = 0; i < kAgents / 5; ++i) {
        Command c;
        c.agent = static_cast<uint32_t>(random() % kAgents);
        const float roll = unit(random);
        c.type = roll < 0.45f   ? CommandType::kPlay
                 : roll < 0.6f  ? CommandType::kAttack
                 : roll < 0.75f ? CommandType::kIdle
                 : roll < 0.87f ? CommandType::kWalkTo
                                : CommandType::kRunTo;
        // Only agents 9, 19, ... die (the mirrored crowd's CPU states stand still, and playLayer
        // refuses the dead: the layers below go to the others).
        if (c.agent % 10 == 9 && unit(random) < 0.1f) c.type = CommandType::kDie;
        c.clip = static_cast<uint16_t>(random() % clip_count);
        c.loop = unit(random) < 0.5f;
        c.target = glm::vec2(500.0f, -500.0f);  // far: walkers never arrive in the test
        cpu.submit(c);
        mirrored.submit(c);
      }
      uint32_t a = static_cast<uint32_t>(random() % kAgents);
      if (a % 10 == 9) --a;
      const uint16_t clip = static_cast<uint16_t>(random() % clip_count);
      const LayerLoop loop = unit(random) < 0.5f ? LayerLoop::kLoop : LayerLoop::kOnce;
      EXPECT_EQ(cpu.playLayer(a, clip, 0, 0.8f, 0.1f, loop),
                mirrored.playLayer(a, clip, 0, 0.8f, 0.1f, loop));
    }
    cpu.update(kTick);
    expected.emplace_back(cpu.events().begin(), cpu.events().end());
    gpu.update(mirrored, kTick);
    if (t % 3 != 2) {  // some updates without a draw: their pass runs at the next update
      device->beginFrame(kClear);
      // Looking away from the crowd: the pass runs whole, llvmpipe rasterises nothing.
      ASSERT_TRUE(
          gpu.draw(lookAtView(glm::vec3(0, 2, 10), glm::vec3(0, 2, 30), 0.9f, 1.0f, 0.1f, 200.0f),
                   mirrored)
              .ok());
    }
    ASSERT_TRUE(gpu.takeEvents(arrived).ok());  // without waiting: what has arrived
  }
  const size_t before_wait = arrived.size();
  ASSERT_TRUE(gpu.takeEvents(arrived, true).ok());
  std::printf("  %zu of %d updates' events arrived without waiting\n", before_wait, kUpdates);
  ASSERT_EQ(arrived.size(), expected.size());
  size_t total = 0, layered = 0, faded = 0;
  for (size_t u = 0; u < arrived.size(); ++u) {
    SCOPED_TRACE("update " + std::to_string(u + 1));
    EXPECT_EQ(arrived[u].update, u + 1);
    EXPECT_EQ(arrived[u].overflow, 0u);
    ASSERT_EQ(arrived[u].events.size(), expected[u].size());
    for (size_t i = 0; i < expected[u].size(); ++i) {
      EXPECT_EQ(key(arrived[u].events[i]), key(expected[u][i])) << "event " << i;
      layered += expected[u][i].layer;
      faded += expected[u][i].weight < 1.0f && !expected[u][i].layer;
    }
    total += expected[u].size();
  }
  std::printf("  %zu events (%zu of layers, %zu cross-faded) over %d updates\n", total, layered,
              faded, kUpdates);
  EXPECT_GT(total, 1000u);
  EXPECT_GT(layered, 10u);
  EXPECT_GT(faded, 10u);
}

// More events in one update than the buffer holds: kGpuEventCapacity of them arrive, each one
// the CPU's, and the rest are counted, not silently dropped. (Many agents with a few events each:
// llvmpipe ends any shader loop after 65,535 iterations, so one agent crossing tens of thousands
// of events in a tick would be cut short there; docs/gpu_driven.md.)
TEST(GpuParity, EventsPastTheCapacityAreCounted) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  const Package package = eventPackage(10);
  CrowdRendererDesc desc;
  desc.events = true;
  desc.path = RenderPath::kGpu;
  CrowdRenderer gpu(*device, package, desc);
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  ClipSet clips = clipSetByName(package.clips).value();
  Crowd cpu(package.clips, clips), mirrored(package.clips, clips);
  for (int a = 0; a < 500; ++a) {
    for (Crowd* crowd : {&cpu, &mirrored}) {
      crowd->addAgent(Placement{});
      crowd->submit(Command{static_cast<uint32_t>(a), CommandType::kPlay, {}, 0, true});
    }
  }
  // A long stall: every agent loops clip 0 (and the clip fading out) for 100 seconds.
  constexpr float kStall = 100.0f;
  cpu.update(kStall);
  gpu.update(mirrored, kStall);
  std::vector<UpdateEvents> arrived;
  ASSERT_TRUE(gpu.takeEvents(arrived, true).ok());
  ASSERT_EQ(arrived.size(), 1u);
  const size_t crossed = cpu.events().size();
  ASSERT_GT(crossed, size_t{kGpuEventCapacity}) << "the test must overflow the buffer";
  EXPECT_EQ(arrived[0].events.size(), size_t{kGpuEventCapacity});
  EXPECT_EQ(arrived[0].overflow, crossed - kGpuEventCapacity);
  std::vector<std::tuple<uint32_t, uint16_t, uint16_t, float, bool>> cpu_keys, gpu_keys;
  for (const EventHit& e : cpu.events()) cpu_keys.push_back(key(e));
  for (const EventHit& e : arrived[0].events) gpu_keys.push_back(key(e));
  std::sort(cpu_keys.begin(), cpu_keys.end());
  std::sort(gpu_keys.begin(), gpu_keys.end());
  EXPECT_TRUE(std::includes(cpu_keys.begin(), cpu_keys.end(), gpu_keys.begin(), gpu_keys.end()))
      << "every event that arrived is one the CPU crossed";
  std::printf("  %zu crossed, %zu arrived, %llu counted past the capacity\n", crossed,
              arrived[0].events.size(), static_cast<unsigned long long>(arrived[0].overflow));
}

// The sample with LODs on both paths for the same frames: `gpu` mirrors `gpu_crowd`, `instanced`
// draws `cpu_crowd` (walked on the CPU); the tests give both crowds the same agents.
struct BothPaths {
  BothPaths(Device& on, const ClipSet& clips)
      : device(on),
        gpu(on, test::sampleWithLods(), pathDesc(RenderPath::kGpu)),
        instanced(on, test::sampleWithLods(), pathDesc(RenderPath::kInstanced)),
        gpu_crowd(test::sampleWithLods().clips, clips),
        cpu_crowd(test::sampleWithLods().clips, clips) {}

  // Both renderers made; else the first's status.
  ::testing::AssertionResult made() const {
    for (const CrowdRenderer* renderer : {&gpu, &instanced}) {
      if (!renderer->ok()) return ::testing::AssertionFailure() << renderer->status().toString();
    }
    return ::testing::AssertionSuccess();
  }

  static CrowdRendererDesc pathDesc(RenderPath path) {
    CrowdRendererDesc desc;
    desc.path = path;
    return desc;
  }

  // Updates each renderer's crowd by a tick and draws it from `view` (then, with `light`, its
  // depth from there); the first failure, or ok.
  Status updateAndDraw(const FrameView& view, const FrameView* light = nullptr) {
    for (auto [renderer, crowd] :
         {std::pair{&gpu, &gpu_crowd}, std::pair{&instanced, &cpu_crowd}}) {
      renderer->update(*crowd, kTick);
      device.beginFrame(kClear);
      if (Status s = renderer->draw(view, *crowd); !s.ok()) return s;
      if (light != nullptr) {
        if (Status s = renderer->drawDepth(*light, *crowd); !s.ok()) return s;
      }
    }
    return Status::okStatus();
  }

  Device& device;
  CrowdRenderer gpu;
  CrowdRenderer instanced;
  Crowd gpu_crowd;
  Crowd cpu_crowd;
};

ClipSet sampleClips() {
  return clipSetByName(test::sampleWithLods().clips).value();
}

// A camera over the rows of agents nearest it, the rows behind culled.
FrameView nearRowsView() {
  return lookAtView(glm::vec3(0.0f, 2.0f, 6.0f), glm::vec3(0.0f, 0.8f, -10.0f), 0.9f, 1.0f, 0.1f,
                    100.0f);
}

// agentDrawInfo and drawOrder on the gpu path (its lists read back on demand) agree with the
// instanced path's for the same frame: visibility, LOD, draw and slot of every agent.
TEST(GpuParity, AgentDrawInfoAgreesWithTheInstancedPath) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  BothPaths both(*device, sampleClips());
  ASSERT_TRUE(both.made());
  EXPECT_FALSE(both.gpu.agentDrawInfo(0).visible) << "nothing drawn yet";
  constexpr uint32_t kAgents = 300;
  for (uint32_t a = 0; a < kAgents; ++a) {
    Placement p;
    p.position = glm::vec3(2.0f * static_cast<float>(a % 20) - 20.0f, 0.0f, -2.0f * (a / 20));
    p.heading = 0.1f * static_cast<float>(a);
    both.gpu_crowd.addAgent(p, 0.05f * static_cast<float>(a % 17));
    both.cpu_crowd.addAgent(p, 0.05f * static_cast<float>(a % 17));
  }
  const FrameView view = nearRowsView();
  for (int frame = 0; frame < 2; ++frame) {
    SCOPED_TRACE("frame " + std::to_string(frame));
    const Status drawn = both.updateAndDraw(view);
    ASSERT_TRUE(drawn.ok()) << drawn.toString();
    const std::vector<uint32_t> order(both.instanced.drawOrder().begin(),
                                      both.instanced.drawOrder().end());
    ASSERT_GT(order.size(), 20u);
    ASSERT_LT(order.size(), kAgents) << "some agents must be culled";
    const std::span<const uint32_t> gpu_order = both.gpu.drawOrder();
    EXPECT_TRUE(std::equal(order.begin(), order.end(), gpu_order.begin(), gpu_order.end()));
    std::vector<int> lods_used(static_cast<size_t>(both.gpu.lodCount()), 0);
    for (uint32_t a = 0; a <= kAgents; ++a) {  // kAgents: out of range
      const AgentDrawInfo g = both.gpu.agentDrawInfo(a);
      const AgentDrawInfo c = both.instanced.agentDrawInfo(a);
      EXPECT_EQ(std::tie(g.visible, g.lod, g.drawn_lod, g.draw_call, g.slot),
                std::tie(c.visible, c.lod, c.drawn_lod, c.draw_call, c.slot))
          << "agent " << a;
      if (g.visible) ++lods_used[static_cast<size_t>(g.lod)];
    }
    EXPECT_GE(std::count_if(lods_used.begin(), lods_used.end(), [](int n) { return n > 0; }), 2)
        << "several LODs in view";
  }
}

// A drawDepth after draw (another view: the light's) leaves the colour pass's lists: the gpu
// path's agentDrawInfo and drawOrder still say what draw() drew, as the instanced path's do.
TEST(GpuParity, ADepthPassAfterTheDrawKeepsTheDrawsLists) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  BothPaths both(*device, sampleClips());
  ASSERT_TRUE(both.made());
  constexpr uint32_t kAgents = 200;
  for (uint32_t a = 0; a < kAgents; ++a) {
    Placement p;
    p.position = glm::vec3(2.0f * static_cast<float>(a % 20) - 20.0f, 0.0f, -2.0f * (a / 20));
    both.gpu_crowd.addAgent(p, 0.0f);
    both.cpu_crowd.addAgent(p, 0.0f);
  }
  // The camera sees the near rows; the "light" looks at the far left corner only.
  const FrameView light = lookAtView(glm::vec3(-18.0f, 30.0f, -14.0f),
                                     glm::vec3(-18.0f, 0.0f, -16.0f), 0.2f, 1.0f, 1.0f, 100.0f);
  const Status drawn = both.updateAndDraw(nearRowsView(), &light);
  ASSERT_TRUE(drawn.ok()) << drawn.toString();
  const std::vector<uint32_t> order(both.instanced.drawOrder().begin(),
                                    both.instanced.drawOrder().end());
  ASSERT_GT(order.size(), 20u);
  const std::span<const uint32_t> gpu_order = both.gpu.drawOrder();
  EXPECT_TRUE(std::equal(order.begin(), order.end(), gpu_order.begin(), gpu_order.end()))
      << order.size() << " agents drawn, " << gpu_order.size() << " in the gpu path's lists";
  for (uint32_t a = 0; a < kAgents; ++a) {
    const AgentDrawInfo g = both.gpu.agentDrawInfo(a);
    const AgentDrawInfo c = both.instanced.agentDrawInfo(a);
    EXPECT_EQ(std::tie(g.visible, g.lod, g.draw_call, g.slot),
              std::tie(c.visible, c.lod, c.draw_call, c.slot))
        << "agent " << a;
  }
}

// Picking a crowd the gpu path mirrors (the viewer's selection): its CPU arrays stand still while
// the GPU walks the agents, and readBack(crowd, true) on demand brings them where the instanced
// path's crowd is, so a ray from the camera through any agent picks it on both.
TEST(GpuParity, PickingAfterAReadBackOnDemandFindsTheSameAgents) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  ClipSet clips = sampleClips();
  clips.walk_speed = 1.2f;
  BothPaths both(*device, clips);
  ASSERT_TRUE(both.made());
  CrowdRenderer& gpu = both.gpu;
  Crowd& gpu_crowd = both.gpu_crowd;
  Crowd& cpu_crowd = both.cpu_crowd;
  for (uint32_t a = 0; a < 12; ++a) {
    for (Crowd* crowd : {&gpu_crowd, &cpu_crowd}) {
      Placement p;
      p.position = glm::vec3(3.0f * static_cast<float>(a % 4) - 4.5f, 0.0f, -3.0f * (a / 4));
      crowd->addAgent(p);
      // Everyone walks 2 units sideways (well apart from where they stood).
      crowd->submit({a, CommandType::kWalkTo, glm::vec2(p.position.x + 2.0f, p.position.z)});
    }
  }
  const FrameView view = lookAtView(glm::vec3(0.0f, 12.0f, 8.0f), glm::vec3(0.0f, 0.0f, -3.0f),
                                    0.9f, 1.0f, 0.1f, 100.0f);
  for (int t = 0; t < 45; ++t) {
    const Status drawn = both.updateAndDraw(view);
    ASSERT_TRUE(drawn.ok()) << drawn.toString();
  }
  const Result<bool> back = gpu.readBack(gpu_crowd, true);
  ASSERT_TRUE(back.ok() && *back);
  int moved = 0;
  for (uint32_t a = 0; a < cpu_crowd.agentCount(); ++a) {
    // A ray from the eye through agent a's middle, where the CPU crowd has it.
    const glm::vec3 middle = cpu_crowd.placements()[a].position + glm::vec3(0.0f, 0.9f, 0.0f);
    const Ray ray{view.eye, middle - view.eye};
    const int64_t on_cpu =
        pickAgent(cpu_crowd.clips(), cpu_crowd.placements(), cpu_crowd.playback(), ray);
    const int64_t on_gpu =
        pickAgent(gpu_crowd.clips(), gpu_crowd.placements(), gpu_crowd.playback(), ray);
    EXPECT_EQ(on_gpu, on_cpu) << "agent " << a;
    EXPECT_GE(on_cpu, 0) << "agent " << a;
    moved += glm::length(cpu_crowd.placements()[a].position.x -
                         (3.0f * static_cast<float>(a % 4) - 4.5f)) > 1.0f;
  }
  EXPECT_EQ(moved, 12) << "every agent walked away from where it stood";
}

// What the gpu path refuses of events and appearances: a clip of more events than an EventHit
// can index (at creation), and appearances that are not one per agent.
TEST(GpuParity, RefusesClipsOfTooManyEventsAndAppearancesNotOnePerAgent) {
  std::string missing;
  std::unique_ptr<Device> device = es31Device(missing);
  THRONG_REQUIRE(device != nullptr, missing);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kGpu;
  CrowdRenderer crowded(*device, eventPackage(0x10000), desc);
  EXPECT_EQ(crowded.status().code(), ErrorCode::kInvalidData);
  EXPECT_NE(crowded.status().message().find("has 65536 events (at most 65535"), std::string::npos)
      << crowded.status().toString();

  const Package& package = test::sampleWithLods();
  auto renderer = InstancedRenderer::create(*device, package);
  ASSERT_TRUE(renderer.ok()) << renderer.status().toString();
  auto gpu = GpuCrowd::create(*device, package, **renderer);
  ASSERT_TRUE(gpu.ok()) << gpu.status().toString();
  const std::vector<Placement> placements(3);
  const std::vector<AgentPlayback> playback(3);
  const std::vector<uint16_t> variants(2, 1);
  GpuDrawOptions options;
  options.variants = variants;
  const Status s =
      (*gpu)->draw(lookAtView(glm::vec3(0, 1, 5), glm::vec3(0, 1, 0), 0.9f, 1.0f, 0.1f, 50.0f),
                   placements, playback, {}, options);
  EXPECT_EQ(s.code(), ErrorCode::kInvalidArgument);
  EXPECT_EQ(s.message(), "GPU-driven crowd: 2 appearances for 3 agents (one per agent, or none)");
}

}  // namespace gpu_parity_test
}  // namespace throng::render
