// The soak (label soak): a crowd lives 100,000 frames with random commands, agents coming and
// going and characters loaded and unloaded, drawn on llvmpipe every 200th frame; resident memory
// stays flat and every agent stays finite.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <limits>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <malloc.h>
#include <unistd.h>

#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/crowd/command_script.h"
#include "throng/crowd/crowd.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace throng {
namespace {

constexpr int kFrames = 100'000;
// A character is unloaded (its crowd and renderer destroyed) and another read from its file this
// often: 40 loads in the run, going through kPackageCount packages, each drawn on the path the
// front end picks (the gpu path on llvmpipe) and then on the instanced path.
constexpr int kFramesPerCharacter = 2'500;
constexpr int kPackageCount = 2;
constexpr int kLoadCycle = 2 * kPackageCount;
// Resident memory is sampled from the second cycle of loads on. By then every buffer has grown to
// its working size, and llvmpipe has compiled the shader variants of every package's texture
// format on every path (after the first compile of a variant LLVM keeps several MiB, measured
// with an empty Mesa shader cache). Within a cycle it moves by up to 4 MiB, the same in every
// cycle (which package, which path, the load's own frame), so the second cycle's peak is the
// baseline that the later cycles' peaks are held to.
constexpr int kCycleFrames = kFramesPerCharacter * kLoadCycle;
constexpr int kWarmUpFrames = kCycleFrames;
// Agents come and go between these counts.
constexpr uint32_t kMinAgents = 16;
constexpr uint32_t kMaxAgents = 160;
// Growth allowed from the baseline peak to the peak of the 8 cycles after it: allocator slack
// (measured: within 0.1 MiB). Renderers kept at each unload (their GL objects) fail it by 120
// MiB, and a leak of 32 bytes a frame by 1.5 MiB (both tried).
constexpr double kMaxGrowthMiB = 2.0;
// Resident memory is sampled this often (after an empty frame, see settledResidentMiB).
constexpr int kFramesPerSample = 500;
constexpr float kTick = 1.0f / 30.0f;
// Every this many frames the crowd is drawn on the real driver (llvmpipe). Not every frame: a
// software rasteriser takes milliseconds a frame here. Not on GALLIUM_NOOP: Mesa's no-op driver
// never frees what a draw uploads (its resident memory grows by every byte of instance records
// or palettes sent, about 8 KiB to 100 KiB a frame, while llvmpipe's stays flat).
constexpr int kFramesPerDraw = 200;
#if defined(__SANITIZE_ADDRESS__)
constexpr bool kSanitized = true;
#elif defined(__has_feature)
constexpr bool kSanitized = __has_feature(address_sanitizer);
#else
constexpr bool kSanitized = false;
#endif

// Freed heap memory is handed back to the system first (glibc keeps it otherwise), so that what
// remains is what is still allocated.
double residentMiB() {
  ::malloc_trim(0);
  std::ifstream statm("/proc/self/statm");
  long pages = 0, resident = 0;
  statm >> pages >> resident;
  return static_cast<double>(resident) * static_cast<double>(::sysconf(_SC_PAGESIZE)) /
         (1024.0 * 1024.0);
}

// llvmpipe (Mesa 22.3) keeps the triangles it binned for a frame (about 180 bytes each, up to 36
// MiB per "scene") until it reuses that scene, and with rasterizer threads a large frame fills
// several scenes, the later ones kept until a frame as large comes again: up to 70 MiB here, that
// follow the triangles of the last large frames, not the loads (it was the soak's "2.4-4 MiB per
// load"). So the soak rasterizes on the calling thread (LP_NUM_THREADS=0: one scene, reused by
// every frame) and measures after an empty frame, whose clear makes llvmpipe free that scene's
// triangles first: what remains is ours and the driver's lasting state.
double settledResidentMiB(render::Device& device) {
  device.beginFrame(glm::vec4(0.0f));
  device.finish();
  return residentMiB();
}

std::string pathNames(const std::set<std::string>& names) {
  std::string joined;
  for (const std::string& name : names) joined += (joined.empty() ? "" : " and ") + name;
  return joined;
}

bool finite(const glm::vec3& v) {
  return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

// The packages the soak loads, written once and read back at every load: the sample character
// with two LODs, and the same baked at another rate in half floats. The far LOD keeps a
// 160-agent frame small on the 32-pixel view (~200,000 triangles; all at LOD 0 it would be 1.9
// million, and the soak 3 times slower); the default chain's middle levels would not be drawn
// there and would triple the time spent building it (most of the soak's time under ASan).
std::vector<std::string> writePackages(const std::filesystem::path& dir) {
  const Character character = makeSampleCharacter();
  LodChainOptions chain = defaultLodChainOptions();
  chain.levels = {chain.levels.front(), chain.levels.back()};
  const std::vector<MeshLod> lods = buildLodChain(character, chain).value();
  std::vector<std::string> paths;
  BakeOptions bake;
  Package full = bakeCharacter(character, bake).value();
  full.lods = lods;
  paths.push_back((dir / "sample-lods.throng").string());
  EXPECT_TRUE(writePackage(full, paths.back()).ok());
  bake.fps = 20.0f;
  bake.format = TexelFormat::kRgba16F;
  Package half = bakeCharacter(character, bake).value();
  half.lods = lods;
  paths.push_back((dir / "sample-20fps-half.throng").string());
  EXPECT_TRUE(writePackage(half, paths.back()).ok());
  static_assert(kPackageCount == 2);
  return paths;
}

// One loaded character: its package, its crowd and the renderer drawing it.
struct Loaded {
  Package package;
  std::unique_ptr<Crowd> crowd;
  std::unique_ptr<render::CrowdRenderer> renderer;
};

Placement randomPlacement(std::mt19937& rng) {
  std::uniform_real_distribution<float> pos(-30.0f, 30.0f), turn(-3.14f, 3.14f);
  Placement p;
  p.position = glm::vec3(pos(rng), 0.0f, pos(rng));
  p.heading = turn(rng);
  return p;
}

// A crowd of the same agents minus the removed ones (Crowd has no removal of its own): what a
// game does when characters leave, rebuilding from what it keeps.
std::unique_ptr<Crowd> withoutSome(const Crowd& crowd, const Package& package, std::mt19937& rng,
                                   uint32_t remove) {
  const ClipSet clips = clipSetByName(package.clips).value();
  auto next = std::make_unique<Crowd>(package.clips, clips);
  std::vector<uint32_t> keep(crowd.agentCount());
  for (uint32_t a = 0; a < keep.size(); ++a) keep[a] = a;
  std::shuffle(keep.begin(), keep.end(), rng);
  keep.resize(keep.size() - std::min<size_t>(remove, keep.size()));
  std::sort(keep.begin(), keep.end());
  for (uint32_t a : keep) next->addAgent(crowd.placements()[a], crowd.playback()[a].time);
  return next;
}

TEST(Soak, HundredThousandFramesStayFiniteAndFlat) {
  THRONG_REQUIRE(!std::getenv("GALLIUM_NOOP"), "GALLIUM_NOOP keeps every upload (see above)");
  const auto dir = test::makeTempDir("soak");
  const std::vector<std::string> paths = writePackages(dir);
  render::DeviceDesc desc;
  desc.width = desc.height = 32;
  test::useGlesVersion(3);
  // Read when the display is initialised, i.e. by the device made below (see settledResidentMiB).
  setenv("LP_NUM_THREADS", "0", 1);
  Result<std::unique_ptr<render::Device>> made = render::Device::createHeadless(desc);
  ASSERT_TRUE(made.ok()) << made.status().toString();
  std::unique_ptr<render::Device> device = std::move(made).value();
  const render::FrameView view = render::lookAtView(
      glm::vec3(0.0f, 20.0f, 45.0f), glm::vec3(0.0f, 0.0f, 0.0f), 0.9f, 1.0f, 0.1f, 300.0f);

  std::set<std::string> paths_drawn;
  std::mt19937 rng(16);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f), target(-40.0f, 40.0f);
  Loaded loaded;
  int loads = 0;
  uint64_t commands = 0, drawn = 0;
  int draws = 0;
  uint32_t most_agents = 0;
  double baseline_peak = 0.0, least_resident = std::numeric_limits<double>::infinity(),
         peak_resident = 0.0, driver_frame = 0.0;
  const auto start = std::chrono::steady_clock::now();

  for (int frame = 0; frame < kFrames; ++frame) {
    if (frame % kFramesPerCharacter == 0) {
      // Unload before loading, as a game swapping levels does.
      loaded = {};
      Result<Package> package = readPackage(paths[static_cast<size_t>(loads) % paths.size()]);
      ASSERT_TRUE(package.ok()) << package.status().toString();
      loaded.package = std::move(package).value();
      Result<ClipSet> clips = clipSetByName(loaded.package.clips);
      ASSERT_TRUE(clips.ok()) << clips.status().toString();
      loaded.crowd = std::make_unique<Crowd>(loaded.package.clips, *clips);
      for (uint32_t a = 0; a < kMinAgents; ++a) loaded.crowd->addAgent(randomPlacement(rng));
      render::CrowdRendererDesc path;
      if (loads % kLoadCycle >= kPackageCount) path.path = render::RenderPath::kInstanced;
      loaded.renderer = std::make_unique<render::CrowdRenderer>(*device, loaded.package, path);
      ASSERT_TRUE(loaded.renderer->ok()) << loaded.renderer->status().toString();
      paths_drawn.insert(render::renderPathName(loaded.renderer->path()));
      ++loads;
    }
    Crowd& crowd = *loaded.crowd;
    // On the gpu path the agents live on the GPU; their CPU copy is brought up to date (a stall)
    // before it is read: on the frames drawn, and before agents are removed.
    const bool on_gpu = loaded.renderer->path() == render::RenderPath::kGpu;
    auto readBack = [&](Crowd& c) {
      Result<bool> read = loaded.renderer->readBack(c, true);
      ASSERT_TRUE(read.ok()) << "frame " << frame << ": " << read.status().toString();
      ASSERT_TRUE(*read) << "frame " << frame << ": the gpu path's agents were not read back";
    };

    // Agents come and go.
    const float roll = unit(rng);
    if (roll < 0.05f && crowd.agentCount() < kMaxAgents) {
      crowd.addAgent(randomPlacement(rng), unit(rng));
    } else if (roll > 0.998f && crowd.agentCount() > kMinAgents) {
      if (on_gpu) readBack(crowd);
      loaded.crowd = withoutSome(crowd, loaded.package, rng, crowd.agentCount() / 4);
    }
    Crowd& live = *loaded.crowd;
    most_agents = std::max(most_agents, live.agentCount());

    // A few commands a frame, as objects and (one in eight) as script lines.
    const int count = static_cast<int>(unit(rng) * 4.0f);
    for (int c = 0; c < count; ++c) {
      Command command;
      command.agent = static_cast<uint32_t>(unit(rng) * static_cast<float>(live.agentCount() + 2));
      command.type = static_cast<CommandType>(static_cast<int>(unit(rng) * 6.0f) % 6);
      command.target = glm::vec2(target(rng), target(rng));
      command.clip =
          static_cast<uint16_t>(unit(rng) * static_cast<float>(loaded.package.clips.size()));
      command.loop = unit(rng) < 0.5f;
      if (command.type == CommandType::kDie && unit(rng) < 0.9f) command.type = CommandType::kIdle;
      if (unit(rng) < 0.125f) {
        const std::string line = "0 " + std::to_string(command.agent % live.agentCount()) +
                                 " walk-to " + std::to_string(command.target.x) + " " +
                                 std::to_string(command.target.y);
        CommandScript script;
        script.source = "soak";
        Result<std::optional<ScriptCommand>> parsed = parseScriptLine(line, 1, "soak");
        ASSERT_TRUE(parsed.ok() && parsed->has_value()) << line;
        script.commands.push_back(**parsed);
        ASSERT_TRUE(bindCommandScript(script, loaded.package.clips, live.agentCount()).ok());
        size_t next = 0;
        commands += submitDueCommands(script, 0.0, &next, live);
      } else {
        live.submit(command);
        ++commands;
      }
    }

    loaded.renderer->update(live, kTick);
    if (frame % kFramesPerDraw == 0) {
      device->beginFrame(glm::vec4(0.0f));
      const Status drew = loaded.renderer->draw(view, live);
      ASSERT_TRUE(drew.ok()) << "frame " << frame << ": " << drew.toString();
      drawn += loaded.renderer->stats().visible;
      device->finish();  // the end of a frame, as a swap is
      ++draws;
    }

    if (on_gpu && frame % kFramesPerDraw == 0) readBack(live);
    for (uint32_t a = 0; a < live.agentCount() && (!on_gpu || frame % kFramesPerDraw == 0); ++a) {
      const Placement& p = live.placements()[a];
      const AgentPlayback& b = live.playback()[a];
      ASSERT_TRUE(finite(p.position) && std::isfinite(p.heading) && std::isfinite(p.scale) &&
                  std::isfinite(b.time) && std::isfinite(b.previous_time) &&
                  std::isfinite(b.fade) && b.fade >= 0.0f && b.fade <= 1.0f)
          << "frame " << frame << ": agent " << a << " is not finite";
    }
    if (frame >= kWarmUpFrames && frame % kFramesPerSample == 0) {
      const double unsettled = residentMiB();
      const double resident = settledResidentMiB(*device);
      driver_frame = std::max(driver_frame, unsettled - resident);
      least_resident = std::min(least_resident, resident);
      double& peak = frame < kWarmUpFrames + kCycleFrames ? baseline_peak : peak_resident;
      peak = std::max(peak, resident);
    }
  }
  device->finish();
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "soak: %d frames in %.1f s, %d character loads, up to %u agents, %llu commands, %d "
      "draws of %llu agents (%s paths); resident memory from frame %d: least %.1f MiB, peak %.1f "
      "MiB over the %d frames after it, then %.1f MiB (and llvmpipe's last frame, up to %.1f MiB, "
      "until the next frame frees it)\n",
      kFrames, seconds, loads, most_agents, static_cast<unsigned long long>(commands), draws,
      static_cast<unsigned long long>(drawn), pathNames(paths_drawn).c_str(), kWarmUpFrames,
      least_resident, baseline_peak, kCycleFrames, peak_resident, driver_frame);
  // AddressSanitizer keeps freed memory in quarantine, so resident memory says nothing there;
  // the sanitized run checks the rest (no crash, no overrun, finite agents).
  if (!kSanitized) {
    EXPECT_LE(peak_resident - baseline_peak, kMaxGrowthMiB)
        << "resident memory grew after the warm-up, over " << loads << " character loads";
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
