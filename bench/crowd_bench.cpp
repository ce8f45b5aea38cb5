// All render paths on one ES 3.0 device, same crowd, same frame: per-character draws with the
// seed's skeleton-tree palettes (the baseline), merged batches from the tree, and the crowd front
// end's three paths (CrowdRenderer: per-character, merged and instanced, with culling, the LOD
// pick and the sort by LOD); ratios against the baseline. With --cpu-frame (run under
// GALLIUM_NOOP=1): the CPU's frame of the GPU-driven path against the CPU-fed instanced path.
// With --palette (llvmpipe, real rasterisation): the instanced path's palette pass against direct
// fetching, on a character of over 10,000 vertices with cross-fades.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include <time.h>
#include <unistd.h>

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include "bench_support.h"
#include "render/merged_path.h"
#include "render/test_hooks.h"
#include "throng/core/job_system.h"
#include "throng/crowd/agent_grid.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/lod_select.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

using bench::capAgents;
using bench::die;
using bench::take;
using bench::takeCountsFlag;
using bench::takeFlag;

// Frame size of every path (pixels per side).
constexpr int kFrameSize = 512;
// Vertex uniform budget imposed on the ES 3 context: a common ES2 phone, so the merged path's K
// (characters per batch) is what a phone would get, not what llvmpipe's 4096 vectors allow.
constexpr int kPhoneUniformVectors = 256;
// Grid spacing in multiples of the character's size (the demo's 1.1 plus room for headings).
constexpr float kGridSpacing = 1.5f;
// Crowd sizes run when --agents is not given.
constexpr int kDefaultAgents[] = {100, 1000, 10000};
// Image agreement demanded before timing (as tests/render/merged_cross_path_test.cpp): the paths
// differ only in float rounding of the skinning and in which edge pixels rasterisation keeps, so
// at most 0.1% of the pixels may differ by more than 4 (of 255) in a channel.
constexpr int kTolerance = 4;
constexpr double kMaxBadPixelShare = 0.001;
const glm::vec4 kClear(0.12f, 0.13f, 0.16f, 1.0f);

using bench::CameraKind;
using bench::cameraName;
using bench::kCameras;

// Device, character, package and the renderers: shared by every crowd size.
struct Shared {
  std::unique_ptr<Device> device;
  Character character;
  Package package;  // baked at 30 fps; lods = the default LOD chain
  std::unique_ptr<MergedBatchRenderer> per_character;
  std::unique_ptr<MergedBatchRenderer> merged;
  // The front end, one renderer per path (all on the same device).
  std::unique_ptr<CrowdRenderer> front_per_character;
  std::unique_ptr<CrowdRenderer> front_merged;
  std::unique_ptr<CrowdRenderer> front_instanced;

  MergedScene mergedScene() const {
    return {&character.skeleton, character.clips, package.clips, &package.animation, package.lods};
  }
};

// One crowd: placements and clip times from one generator, the camera framing it, and the
// per-frame buffers every path fills (allocated once).
struct Scene {
  int agents = 0;
  CameraKind camera = CameraKind::kOverview;
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  FrameView view;
  uint64_t triangles = 0;            // per frame, the LODs drawn by the baseline (every agent)
  std::vector<uint32_t> lod_agents;  // agents per LOD (for the report)
  MergedPathScratch merged_scratch;
};

Shared& shared() {
  static Shared* s = [] {
    auto* out = new Shared();
    DeviceDesc desc;
    desc.gles_major = 3;
    desc.width = desc.height = kFrameSize;
    DeviceTestHooks phone;
    phone.caps.max_vertex_uniform_vectors = kPhoneUniformVectors;
    desc.test_hooks = &phone;
    out->device = take(Device::createHeadless(desc), "ES 3.0 headless device");
    if (out->device->caps().gles_major < 3)
      die("asked for ES 3.0, got " + out->device->caps().version);
    out->character = makeSampleCharacter();
    BakeOptions bake;  // 30 fps, RGBA32F
    out->package = take(bakeCharacter(out->character, bake), "bake");
    out->package.lods =
        take(buildLodChain(out->character, defaultLodChainOptions()), "default LOD chain");
    const int joints = out->character.skeleton.jointCount();
    // The ES2 merged renderer's GLSL ES 1.00 shaders compile in this ES 3 context (create fails
    // with kGlError and the shader log otherwise); the image check below shows they draw right.
    MergedBatchDesc one;
    one.max_characters_per_batch = 1;
    const Looks looks{out->package.materials, out->package.images};
    out->per_character =
        take(MergedBatchRenderer::create(*out->device, out->package.lods, joints, one, looks),
             "per-character renderer");
    out->merged =
        take(MergedBatchRenderer::create(*out->device, out->package.lods, joints, {}, looks),
             "merged renderer");
    auto front = [&](RenderPath path) {
      CrowdRendererDesc front_desc;
      front_desc.path = path;
      auto renderer = std::make_unique<CrowdRenderer>(*out->device, out->package, front_desc);
      if (!renderer->ok()) {
        die(std::string("crowd renderer, ") + renderPathName(path) + ": " +
            renderer->status().toString());
      }
      return renderer;
    };
    out->front_per_character = front(RenderPath::kPerCharacter);
    out->front_merged = front(RenderPath::kMerged);
    out->front_instanced = front(RenderPath::kInstanced);
    const Caps& caps = out->device->caps();
    std::printf("device: %s | %s | GLSL %s | uniform budget %d vectors\n", caps.renderer.c_str(),
                caps.version.c_str(), caps.shading_language.c_str(), out->merged->uniformBudget());
    std::printf("LODs (triangles, joints, K merged, K baseline, max distance in model units):\n");
    for (int l = 0; l < out->merged->lodCount(); ++l) {
      const MergedLodInfo& info = out->merged->lodInfo(l);
      std::printf("  LOD %d: %zu tris, %d joints, K = %d, K = %d, %.2f (drawn as LOD %d)\n", l,
                  out->package.lods[l].mesh.triangleCount(), info.joints, info.characters_per_batch,
                  out->per_character->lodInfo(l).characters_per_batch,
                  out->package.lods[l].max_distance, info.drawn_lod);
    }
    return out;
  }();
  return *s;
}

// One crowd (bench::hashedCrowd: whole baked frames, so every path holds the same pose) framed by
// `camera`.
Scene makeScene(int agents, CameraKind camera) {
  Shared& s = shared();
  Scene scene;
  scene.agents = agents;
  scene.camera = camera;
  const float size = s.character.size();
  const float spacing = kGridSpacing * size;
  bench::HashedCrowd crowd = bench::hashedCrowd(agents, spacing, s.package);
  scene.placements = std::move(crowd.placements);
  scene.playback = std::move(crowd.playback);
  const float half = crowd.half_side;
  scene.view = bench::crowdView(camera, half, spacing, size, 1.0f);

  const int lod_count = static_cast<int>(s.package.lods.size());
  scene.lod_agents.assign(lod_count, 0);
  // The front end's LOD rule (every path's, drawMergedCrowd's too): the frame's height, measured to
  // each agent's nearest point.
  LodView lod_view = lodViewOf(scene.view, kFrameSize);
  lod_view.reach = lodReach(s.package.lods);
  for (const Placement& p : scene.placements) {
    const int lod = agentLod(s.package.lods, lod_view, p);
    ++scene.lod_agents[lod];
    scene.triangles += s.package.lods[s.merged->lodInfo(lod).drawn_lod].mesh.triangleCount();
  }
  return scene;
}

// Paths compared; each frame includes its CPU work, uploads, draws and glFinish. The first two
// draw every agent (drawMergedCrowd does not cull); the front end's three cull first.
enum class Path { kPerCharacterTree, kMergedTree, kPerCharacter, kMerged, kInstanced };
constexpr Path kPaths[] = {Path::kPerCharacterTree, Path::kMergedTree, Path::kPerCharacter,
                           Path::kMerged, Path::kInstanced};

const char* pathName(Path path) {
  switch (path) {
    case Path::kPerCharacterTree:
      return "PerCharacter_Tree";
    case Path::kMergedTree:
      return "Merged_Tree";
    case Path::kPerCharacter:
      return "Front_PerCharacter";
    case Path::kMerged:
      return "Front_Merged";
    case Path::kInstanced:
      return "Front_Instanced";
  }
  return "?";
}

// One whole frame of `path`; returns its draw calls.
int drawFrame(Path path, Scene& scene) {
  Shared& s = shared();
  s.device->beginFrame(kClear);
  int draw_calls = 0;
  if (path == Path::kPerCharacterTree || path == Path::kMergedTree) {
    MergedBatchRenderer& renderer = path == Path::kPerCharacterTree ? *s.per_character : *s.merged;
    const MergedFrameStats stats =
        drawMergedCrowd(renderer, s.mergedScene(), PaletteSource::kSkeletonTree, scene.view,
                        scene.placements, scene.playback, {}, scene.merged_scratch);
    draw_calls = stats.draw_calls;
  } else {
    CrowdRenderer& renderer = path == Path::kPerCharacter ? *s.front_per_character
                              : path == Path::kMerged     ? *s.front_merged
                                                          : *s.front_instanced;
    if (Status st = renderer.draw(scene.view, CrowdFrame{scene.placements, scene.playback, {}});
        !st.ok()) {
      die(std::string(pathName(path)) + ": " + st.toString());
    }
    draw_calls = static_cast<int>(renderer.stats().draw_calls);
  }
  s.device->finish();
  return draw_calls;
}

// Not timed: every path's image must match the baseline's, or the comparison is meaningless.
void checkImages(Scene& scene) {
  Shared& s = shared();
  drawFrame(Path::kPerCharacterTree, scene);
  const Image baseline = take(s.device->readPixels(), "read back");
  int64_t lit = 0;
  for (size_t px = 0; px < baseline.rgba.size(); px += 4) {
    lit += std::abs(baseline.rgba[px] - static_cast<int>(kClear.r * 255.0f)) > kTolerance;
  }
  std::printf("%d agents, %s camera: LOD mix", scene.agents, cameraName(scene.camera));
  for (size_t l = 0; l < scene.lod_agents.size(); ++l) std::printf(" %u", scene.lod_agents[l]);
  std::printf(", %llu triangles, %lld pixels covered; images vs baseline:",
              static_cast<unsigned long long>(scene.triangles), static_cast<long long>(lit));
  if (lit < static_cast<int64_t>(baseline.rgba.size() / 4 / 100)) die("the crowd is not in view");
  for (Path path : {Path::kMergedTree, Path::kPerCharacter, Path::kMerged, Path::kInstanced}) {
    drawFrame(path, scene);
    const Image image = take(s.device->readPixels(), "read back");
    const ImageDifference d = compareImages(baseline, image, kTolerance);
    const double share =
        static_cast<double>(d.bad_pixels) / static_cast<double>(baseline.width * baseline.height);
    std::printf(" %s %lld px (max %d)", pathName(path), static_cast<long long>(d.bad_pixels),
                d.max_channel_difference);
    if (share > kMaxBadPixelShare) {
      std::printf("\n");
      die(std::string(pathName(path)) + " draws a different image than the baseline");
    }
  }
  std::printf("\n");
}

// Scenes by name ("1000/street"); nodes never move, so benchmarks keep references.
std::map<std::string, Scene>& scenes() {
  static std::map<std::string, Scene> all;
  return all;
}

void runPath(benchmark::State& state, Path path, Scene& scene) {
  int draw_calls = 0;
  for (auto _ : state) draw_calls = drawFrame(path, scene);
  state.counters["agents"] = scene.agents;
  state.counters["draw_calls"] = draw_calls;
  state.counters["triangles"] = static_cast<double>(scene.triangles);
}

// BM_CpuFrame: the whole CPU side of an instanced frame of a Crowd (update, playback, culling,
// LOD pick and sort, packing, upload, submit, glFinish) through the front end, its jobs on a
// JobSystem of every core (BM_CpuFrame) or of one thread (BM_CpuFrameOneThread, the baseline of
// the thread speed-up). Meant for GALLIUM_NOOP=1, where the driver skips rasterisation and what
// remains is the CPU's work (with rasterisation the GPU's time is in the figure too).
// Crowd sizes of BM_CpuFrame when --cpu-agents is not given.
constexpr int kDefaultCpuAgents[] = {100000, 1000000};
// The instance record's bytes (InstancedRenderer's GpuInstance): the floor's write size.
constexpr size_t kInstanceRecordBytes = sizeof(InstanceRecord);

// Nanoseconds per agent to write `agents` instance records to memory (memset of a buffer that
// large, best of a few): what no packer can beat.
double recordWriteFloorNs(size_t agents) {
  std::vector<unsigned char> buffer(agents * kInstanceRecordBytes, 1);
  double best = 1e30;
  for (int repeat = 0; repeat < 7; ++repeat) {
    const auto start = std::chrono::steady_clock::now();
    std::memset(buffer.data(), repeat, buffer.size());
    benchmark::DoNotOptimize(buffer.data());
    benchmark::ClobberMemory();
    const std::chrono::duration<double, std::nano> d = std::chrono::steady_clock::now() - start;
    best = std::min(best, d.count() / static_cast<double>(agents));
  }
  return best;
}

struct CpuScene {
  std::unique_ptr<Crowd> crowd;
  FrameView view;
};

// A crowd of `agents` on a grid, every 4th walking to the far corner (so update does work), all
// in the overview camera's view (every agent survives culling and is packed).
CpuScene makeCpuScene(int agents) {
  Shared& s = shared();
  Scene layout = makeScene(agents, CameraKind::kOverview);
  CpuScene scene;
  scene.crowd =
      std::make_unique<Crowd>(s.package.clips, take(clipSetByName(s.package.clips), "clip set"));
  for (int i = 0; i < agents; ++i) {
    const uint32_t a = scene.crowd->addAgent(layout.placements[i], layout.playback[i].time);
    if (i % 4 == 0) scene.crowd->submit({a, CommandType::kWalkTo, glm::vec2(1e6f, 1e6f)});
  }
  scene.view = layout.view;
  return scene;
}

void runCpuFrame(benchmark::State& state, int threads) {
  Shared& s = shared();
  const int agents = static_cast<int>(state.range(0));
  static std::map<int, CpuScene> cpu_scenes;  // built once per size, shared by both benchmarks
  CpuScene& scene = cpu_scenes.try_emplace(agents, makeCpuScene(agents)).first->second;
  JobSystem jobs(threads);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kInstanced;
  desc.jobs = &jobs;
  CrowdRenderer renderer(*s.device, s.package, desc);
  if (!renderer.ok()) die("crowd renderer, instanced: " + renderer.status().toString());
  auto frame = [&] {
    renderer.update(*scene.crowd, 1.0f / 60.0f);
    s.device->beginFrame(kClear);
    if (Status st = renderer.draw(scene.view, *scene.crowd); !st.ok()) die(st.toString());
    s.device->finish();
  };
  frame();  // buffers grown, first upload done: not timed
  double ns = 0.0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    frame();
    ns +=
        std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
  }
  const double floor = recordWriteFloorNs(static_cast<size_t>(agents));
  state.counters["agents"] = agents;
  state.counters["threads"] = jobs.threadCount();
  state.counters["visible"] = renderer.stats().visible;
  state.counters["ns_per_agent"] =
      ns / (static_cast<double>(state.iterations()) * static_cast<double>(agents));
  state.counters["floor_ns_per_agent"] = floor;
  const CpuPhaseTimes& t = renderer.stats().cpu_ms;
  state.counters["update_ms"] = t.update;
  state.counters["playback_ms"] = t.playback;
  state.counters["cull_ms"] = t.cull;
  state.counters["lod_ms"] = t.lod;
  state.counters["pack_upload_ms"] = t.pack_upload;
  state.counters["submit_ms"] = t.submit;
}

// Console output plus, per crowd size, each path's frame time relative to the baseline.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  explicit RatioReporter(OutputOptions options) : ConsoleReporter(options) {}
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      // With --benchmark_repetitions the median stands for the benchmark; otherwise its one run.
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      if (run.benchmark_name().rfind("BM_CpuFrame", 0) == 0) {
        // "BM_CpuFrame/<agents>/real_time" or "BM_CpuFrameOneThread/...".
        const bool one = run.benchmark_name().rfind("BM_CpuFrameOneThread", 0) == 0;
        CpuRow& slot = cpu_rows_[static_cast<int>(run.counters.at("agents"))][one];
        if (median || !slot.median) {
          slot = {run.GetAdjustedRealTime(), run.counters.at("ns_per_agent"),
                  run.counters.at("floor_ns_per_agent"), run.counters.at("threads"), median};
        }
        continue;
      }
      Row row;
      row.median = median;
      row.ms = run.GetAdjustedRealTime();
      row.draw_calls = run.counters.at("draw_calls");
      row.triangles = run.counters.at("triangles");
      // "BM_<path>/<agents>/<camera>/real_time": group by agents and camera.
      const std::string name = run.benchmark_name();
      const size_t slash = name.find('/');
      const size_t end = name.find("/real_time");  // also ends "/real_time_median"
      Key key{static_cast<int>(run.counters.at("agents")), name.substr(slash + 1, end - slash - 1)};
      Row& slot = rows_[key][name.substr(0, slash)];
      if (median || !slot.median) slot = row;
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    if (!cpu_rows_.empty()) {
      std::printf(
          "\nCPU frame (instanced, all agents in view): ns per agent against the record's "
          "write floor, and the speed-up of all threads over one:\n");
      std::printf("%9s %8s %10s %12s %10s %9s %10s\n", "agents", "threads", "frame ms", "ns/agent",
                  "floor ns", "x floor", "speed-up");
      for (const auto& [agents, by_threads] : cpu_rows_) {
        const auto all = by_threads.find(false), one = by_threads.find(true);
        for (const auto* it : {&one, &all}) {
          if (*it == by_threads.end()) continue;
          const CpuRow& r = (*it)->second;
          std::printf("%9d %8.0f %10.2f %12.2f %10.2f %9.2f", agents, r.threads, r.ms,
                      r.ns_per_agent, r.floor_ns, r.ns_per_agent / r.floor_ns);
          if (it == &all && one != by_threads.end()) {
            std::printf(" %9.2fx", one->second.ms / r.ms);
          }
          std::printf("\n");
        }
      }
    }
    if (rows_.empty()) return;
    std::printf("\nframe time relative to the per-character baseline of the same run:\n");
    std::printf("%-15s  %-18s %10s %7s %10s %8s %9s\n", "scene", "path", "frame ms", "draws",
                "triangles", "vs base", "speed-up");
    for (const auto& [key, by_path] : rows_) {
      const auto base = by_path.find("BM_PerCharacter_Tree");
      for (Path path : kPaths) {
        const auto it = by_path.find(std::string("BM_") + pathName(path));
        if (it == by_path.end()) continue;
        const Row& r = it->second;
        if (base == by_path.end()) {
          std::printf("%-15s  %-18s %10.2f %7.0f %10.0f\n", key.second.c_str(), pathName(path),
                      r.ms, r.draw_calls, r.triangles);
          continue;
        }
        std::printf("%-15s  %-18s %10.2f %7.0f %10.0f %8.3f %8.2fx\n", key.second.c_str(),
                    pathName(path), r.ms, r.draw_calls, r.triangles, r.ms / base->second.ms,
                    base->second.ms / r.ms);
      }
    }
  }

 private:
  struct Row {
    double ms = 0.0;
    double draw_calls = 0.0;
    double triangles = 0.0;
    bool median = false;  // from the median aggregate of repetitions
  };
  using Key = std::pair<int, std::string>;  // agents (sorts numerically), "agents/camera"
  std::map<Key, std::map<std::string, Row>> rows_;
  struct CpuRow {
    double ms = 0.0;
    double ns_per_agent = 0.0;
    double floor_ns = 0.0;
    double threads = 0.0;
    bool median = false;
  };
  std::map<int, std::map<bool, CpuRow>> cpu_rows_;  // agents -> one thread? -> row
};

// --cpu-frame: the same Crowd driven through CrowdRenderer on the GPU-driven path (BM_GpuDriven;
// BM_GpuDrivenReadBack also reads the crowd back every frame) and on the CPU-fed instanced path
// (BM_CpuFed), the same calls each frame: a few commands, update, draw, glFinish. Meant for
// GALLIUM_NOOP=1, where Mesa skips the GPU's work, so what is left is the CPU's; images are blank
// there and not compared (gpu_crowd_test checks them). Commands each frame: a fixed number (a game
// issues commands as events happen, not per agent).
constexpr int kCommandsPerFrame = 64;
constexpr int kCpuFrameAgents[] = {1000, 100000, 1000000};

struct CpuFrameShared {
  std::unique_ptr<Device> device;
  Package package;
  ClipSet clip_set;
  std::unique_ptr<CrowdRenderer> gpu;
  std::unique_ptr<CrowdRenderer> instanced;
};

CpuFrameShared& cpuFrameShared() {
  static CpuFrameShared* s = [] {
    auto* out = new CpuFrameShared();
    DeviceDesc desc;
    desc.gles_major = 3;
    desc.gles_minor = 1;
    desc.width = desc.height = kFrameSize;
    out->device = take(Device::createHeadless(desc), "ES 3.1 headless device");
    const Character character = makeSampleCharacter();
    out->package = take(bakeCharacter(character, BakeOptions{}), "bake");
    out->package.lods = take(buildLodChain(character, defaultLodChainOptions()), "LOD chain");
    out->clip_set = take(clipSetByName(out->package.clips), "clip set");
    out->clip_set.walk_speed = 1.2f;  // the sample's clips walk in place
    out->clip_set.run_speed = 3.0f;
    for (auto [path, slot] : {std::pair{RenderPath::kGpu, &out->gpu},
                              std::pair{RenderPath::kInstanced, &out->instanced}}) {
      CrowdRendererDesc front;
      front.path = path;
      *slot = std::make_unique<CrowdRenderer>(*out->device, out->package, front);
      if (!(*slot)->ok())
        die(std::string(renderPathName(path)) + ": " + (*slot)->status().toString());
    }
    const Caps& caps = out->device->caps();
    const char* noop = std::getenv("GALLIUM_NOOP");
    std::printf("device: %s | %s | GALLIUM_NOOP=%s | gpu path: %s\n", caps.renderer.c_str(),
                caps.version.c_str(), noop ? noop : "(unset)", out->gpu->pathReason().c_str());
    return out;
  }();
  return *s;
}

double threadCpuMilliseconds() {
  timespec t{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return static_cast<double>(t.tv_sec) * 1e3 + static_cast<double>(t.tv_nsec) * 1e-6;
}

// How a --cpu-frame benchmark frames: the CPU-fed path, the GPU-driven path alone, or the
// GPU-driven path with the crowd read back every frame (CrowdRenderer::readBack without waiting:
// what a game pays to see its agents' positions and states on the CPU).
enum class CpuFrameKind { kCpuFed, kGpuDriven, kGpuDrivenReadBack };

void runPathCpuFrame(benchmark::State& state, CpuFrameKind kind) {
  const bool gpu_driven = kind != CpuFrameKind::kCpuFed;
  CpuFrameShared& s = cpuFrameShared();
  CrowdRenderer& renderer = gpu_driven ? *s.gpu : *s.instanced;
  const int agents = static_cast<int>(state.range(0));
  Crowd crowd(s.package.clips, s.clip_set);
  const float spacing = kGridSpacing * 1.8f;
  const AgentGrid grid = squareGrid(static_cast<uint32_t>(agents), spacing);
  const float half = -grid.origin.x;
  for (int i = 0; i < agents; ++i) {
    const uint32_t hash = static_cast<uint32_t>(i) * 2654435761u;
    Placement p;
    p.position = grid.position(static_cast<uint32_t>(i));
    p.heading = static_cast<float>(hash >> 16) * (6.2831853f / 65536.0f);
    crowd.addAgent(p, static_cast<float>(hash % 1000) * 0.001f);
  }
  const Bounds bounds{glm::vec3(-half - spacing, 0.0f, -half - spacing),
                      glm::vec3(half + spacing, 1.8f, half + spacing)};
  const FrameView view = framingView(bounds, 1.0f, CameraFraming{.fit_corners = true});
  uint32_t next = 12345;
  auto frame = [&] {
    // Commands to random agents, targets anywhere on the grid: generating them touches no agent.
    for (int c = 0; c < kCommandsPerFrame; ++c) {
      next = next * 1664525u + 1013904223u;
      const uint32_t agent = next % static_cast<uint32_t>(agents);
      next = next * 1664525u + 1013904223u;
      const glm::vec2 target(static_cast<float>(next & 0xffffu) / 65535.0f * 2.0f * half - half,
                             static_cast<float>(next >> 16) / 65535.0f * 2.0f * half - half);
      crowd.submit({agent, (next & 1u) != 0 ? CommandType::kWalkTo : CommandType::kRunTo, target});
    }
    renderer.update(crowd, 1.0f / 30.0f);
    s.device->beginFrame(kClear);
    if (Status st = renderer.draw(view, crowd); !st.ok()) die(st.toString());
    s.device->finish();
  };
  frame();  // untimed: the gpu path uploads the new crowd whole here
  const bool read_back = kind == CpuFrameKind::kGpuDrivenReadBack;
  if (read_back) {
    // The first call only starts the copies; then a frame and a read-back, so that every timed
    // read-back has a copy to take.
    if (Result<bool> r = renderer.readBack(crowd); !r.ok()) die(r.status().toString());
    frame();
  }
  double cpu_ms = 0.0, read_back_ms = 0.0;
  int64_t delivered = 0;
  for (auto _ : state) {
    const double start = threadCpuMilliseconds();
    frame();
    const double drawn = threadCpuMilliseconds();
    if (read_back) {
      Result<bool> r = renderer.readBack(crowd);
      if (!r.ok()) die(r.status().toString());
      delivered += *r;
      read_back_ms += threadCpuMilliseconds() - drawn;
    }
    cpu_ms += threadCpuMilliseconds() - start;
  }
  const double iterations = static_cast<double>(state.iterations());
  state.counters["agents"] = agents;
  // The whole frame's CPU time; with the read-back it includes it (read_back_ms of it).
  state.counters["cpu_ms"] = cpu_ms / iterations;
  if (read_back) {
    state.counters["read_back_ms"] = read_back_ms / iterations;
    // Frames whose read-back found a finished copy (one or two frames late); the others cost the
    // check only.
    state.counters["delivered"] = static_cast<double>(delivered) / iterations;
  }
  state.counters["draw_calls"] = renderer.stats().draw_calls;
  state.counters["triangles"] = 0;
}

// --palette: the instanced path drawing the same crowd with the palette pass (BM_PalettePass) and
// with direct fetching (BM_DirectFetch), wall time per frame (update-free: the crowd's
// placements and playback are fixed; culling, LOD pick, packing, upload, draws, glFinish).
// The character: the sample with every triangle split in four (midpoints of its edges), 24,162
// vertices, because no shared asset has 10,000 (the sample has 6,054, CesiumMan 3,273).
// Names: BM_<PalettePass|DirectFetch>/<agents>/lod<N> (every agent at LOD N: the threshold's
// sweeps, from the coarsest LOD's few vertices up) or /lods (the LOD rule over the dense
// character's default LOD chain, overview camera: the 10,000 agents).
// The series of a few hundred vertices per agent, where the pass stops paying: a fifth level
// (1% of the triangles, as far as the simplifier goes) appended to the chain, drawn only by
// fixed-LOD renderers (the LOD rule's series keeps the default chain).
constexpr int kTinyLod = 4;
constexpr float kTinyTriangleRatio = 0.01f;
struct PaletteSeries {
  int lod;  // -1: the LOD rule
  std::vector<int> agents;
};
const PaletteSeries kPaletteSeries[] = {{kTinyLod, {1, 2, 4, 8, 16, 64}},
                                        {3, {1, 2, 4, 8, 32}},
                                        {0, {1, 4, 16, 64, 256}},
                                        {-1, {1000, 10000}}};
// Agents in a cross-fade: every other one, half way (fade 0.5): the direct path's worst case, 12
// texels per influence, for half the crowd.
constexpr int kCrossFadeEvery = 2;

// `mesh` with each triangle split in four at its edges' midpoints; a midpoint vertex averages
// its edge's attributes (normal renormalised, influences merged by reduceInfluences).
SkinnedMesh subdivide(const SkinnedMesh& mesh) {
  SkinnedMesh out = mesh;
  std::unordered_map<uint64_t, uint32_t> midpoints;
  auto midpoint = [&](uint32_t a, uint32_t b) {
    const uint64_t key = (uint64_t{std::min(a, b)} << 32) | std::max(a, b);
    const auto [it, added] = midpoints.try_emplace(key, static_cast<uint32_t>(out.vertexCount()));
    if (!added) return it->second;
    out.positions.push_back(0.5f * (mesh.positions[a] + mesh.positions[b]));
    if (!mesh.normals.empty())
      out.normals.push_back(glm::normalize(mesh.normals[a] + mesh.normals[b]));
    if (!mesh.uvs.empty()) out.uvs.push_back(0.5f * (mesh.uvs[a] + mesh.uvs[b]));
    if (!mesh.uvs1.empty()) out.uvs1.push_back(0.5f * (mesh.uvs1[a] + mesh.uvs1[b]));
    if (!mesh.colors.empty()) out.colors.push_back(0.5f * (mesh.colors[a] + mesh.colors[b]));
    Influence influences[8];
    for (int i = 0; i < 4; ++i) {
      influences[i] = {mesh.joints[a][i], 0.5f * mesh.weights[a][i]};
      influences[4 + i] = {mesh.joints[b][i], 0.5f * mesh.weights[b][i]};
    }
    glm::u16vec4 joints;
    glm::vec4 weights;
    reduceInfluences(influences, 8, joints, weights);
    out.joints.push_back(joints);
    out.weights.push_back(weights);
    return it->second;
  };
  out.indices.clear();
  for (SubMesh& sub : out.submeshes) {
    const uint32_t first = static_cast<uint32_t>(out.indices.size());
    for (uint32_t t = sub.first_index; t < sub.first_index + sub.index_count; t += 3) {
      const uint32_t a = mesh.indices[t], b = mesh.indices[t + 1], c = mesh.indices[t + 2];
      const uint32_t ab = midpoint(a, b), bc = midpoint(b, c), ca = midpoint(c, a);
      out.indices.insert(out.indices.end(), {a, ab, ca, ab, b, bc, ca, bc, c, ab, bc, ca});
    }
    sub.first_index = first;
    sub.index_count = static_cast<uint32_t>(out.indices.size()) - first;
  }
  return out;
}

struct PaletteShared {
  std::unique_ptr<Device> device;
  Package package;  // the dense sample, default LOD chain
  Package tiny;     // the same plus the kTinyLod level
  std::map<std::pair<bool, int>, std::unique_ptr<CrowdRenderer>> renderers;  // (pass, lod)

  CrowdRenderer& renderer(bool pass, int lod) {
    std::unique_ptr<CrowdRenderer>& r = renderers[{pass, lod}];
    if (r) return *r;
    CrowdRendererDesc front;
    front.path = RenderPath::kInstanced;
    front.palette_pass = pass ? PalettePassMode::kOn : PalettePassMode::kOff;
    if (lod >= 0) front.fixed_lod = lod;
    r = std::make_unique<CrowdRenderer>(*device, lod == kTinyLod ? tiny : package, front);
    if (!r->ok()) die(r->status().toString());
    return *r;
  }
};

PaletteShared& paletteShared() {
  static PaletteShared* s = [] {
    auto* out = new PaletteShared();
    DeviceDesc desc;
    desc.gles_major = 3;
    desc.width = desc.height = kFrameSize;
    out->device = take(Device::createHeadless(desc), "ES 3.0 headless device");
    Character character = makeSampleCharacter();
    character.mesh = subdivide(character.mesh);
    if (Status st = validateMesh(character.mesh, character.skeleton.jointCount(), "dense sample");
        !st.ok())
      die(st.toString());
    out->package = take(bakeCharacter(character, BakeOptions{}), "bake");
    out->package.lods = take(buildLodChain(character, defaultLodChainOptions()), "LOD chain");
    out->tiny = out->package;
    LodChainOptions tiny_chain;
    tiny_chain.levels = {LodLevel{}, LodLevel{.triangle_ratio = kTinyTriangleRatio}};
    out->tiny.lods.push_back(take(buildLodChain(character, tiny_chain), "tiny LOD").back());
    const Caps& caps = out->device->caps();
    std::printf("device: %s | %s | dense sample: %zu vertices, %zu triangles, %d joints; LODs",
                caps.renderer.c_str(), caps.version.c_str(), character.mesh.vertexCount(),
                character.mesh.triangleCount(), character.skeleton.jointCount());
    for (const MeshLod& lod : out->tiny.lods) std::printf(" %zu", lod.mesh.vertexCount());
    std::printf(" vertices\n");
    return out;
  }();
  return *s;
}

struct PaletteScene {
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  FrameView view;
};

// A grid of `agents` seen whole from above; clips, times and headings from an integer hash; every
// kCrossFadeEvery-th agent half way through a cross-fade from another clip.
PaletteScene makePaletteScene(int agents) {
  const Package& package = paletteShared().package;
  PaletteScene scene;
  const float spacing = kGridSpacing * 1.8f;
  const AgentGrid grid = squareGrid(static_cast<uint32_t>(agents), spacing);
  const float half = -grid.origin.x;
  const uint32_t clips = static_cast<uint32_t>(package.clips.size());
  for (int i = 0; i < agents; ++i) {
    const uint32_t hash = static_cast<uint32_t>(i) * 2654435761u;
    Placement p;
    p.position = grid.position(static_cast<uint32_t>(i));
    p.heading = static_cast<float>(hash >> 16) * (6.2831853f / 65536.0f);
    scene.placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(hash % clips);
    a.time = static_cast<float>(hash % 997) * 0.001f;
    if (i % kCrossFadeEvery == 0) {
      a.previous_clip = static_cast<uint16_t>((a.clip + 1) % clips);
      a.previous_time = static_cast<float>(hash % 613) * 0.001f;
      a.fade = 0.5f;
    }
    scene.playback.push_back(a);
  }
  const Bounds bounds{glm::vec3(-half - spacing, 0.0f, -half - spacing),
                      glm::vec3(half + spacing, 1.8f, half + spacing)};
  scene.view = framingView(bounds, 1.0f, CameraFraming{.fit_corners = true});
  return scene;
}

void drawPaletteFrame(CrowdRenderer& renderer, const PaletteScene& scene) {
  Device& device = *paletteShared().device;
  device.beginFrame(kClear);
  if (Status st = renderer.draw(scene.view, CrowdFrame{scene.placements, scene.playback}); !st.ok())
    die(st.toString());
  device.finish();
}

// Not timed: both images must agree (and not be blank), or the comparison means nothing.
void checkPaletteImages(const PaletteScene& scene, int lod, const std::string& name) {
  PaletteShared& s = paletteShared();
  drawPaletteFrame(s.renderer(false, lod), scene);
  const Image direct = take(s.device->readPixels(), "read pixels");
  drawPaletteFrame(s.renderer(true, lod), scene);
  const Image pass = take(s.device->readPixels(), "read pixels");
  if (!s.renderer(true, lod).stats().palette_pass || s.renderer(false, lod).stats().palette_pass)
    die(name + ": the palette pass was not (or was) used as asked");
  int64_t lit = 0;
  for (size_t px = 0; px < direct.rgba.size(); px += 4)
    lit += std::abs(direct.rgba[px] - static_cast<int>(kClear.r * 255.0f)) > kTolerance;
  const ImageDifference d = compareImages(direct, pass, kTolerance);
  std::printf("%s: %lld of %d pixels differ by more than %d (largest %d); %lld lit\n", name.c_str(),
              static_cast<long long>(d.bad_pixels), kFrameSize * kFrameSize, kTolerance,
              d.max_channel_difference, static_cast<long long>(lit));
  if (lit == 0) die(name + ": blank image (GALLIUM_NOOP?)");
  if (static_cast<double>(d.bad_pixels) > kMaxBadPixelShare * kFrameSize * kFrameSize)
    die(name + ": the palette pass's image differs from direct fetching's");
}

void runPaletteFrame(benchmark::State& state, bool pass, int lod, const PaletteScene& scene) {
  CrowdRenderer& renderer = paletteShared().renderer(pass, lod);
  for (auto _ : state) drawPaletteFrame(renderer, scene);
  uint64_t skinned = 0;
  const CrowdFrameStats& stats = renderer.stats();
  for (int l = 0; l < renderer.lodCount(); ++l)
    skinned += uint64_t{stats.agents_per_lod[l]} *
               paletteShared().tiny.lods[static_cast<size_t>(l)].mesh.vertexCount();
  state.counters["agents"] = static_cast<double>(scene.placements.size());
  state.counters["skinned_vertices"] = static_cast<double>(skinned);
  state.counters["visible"] = stats.visible;
}

}  // namespace
}  // namespace throng::render

int main(int argc, char** argv) {
  using namespace throng::render;
  // Mesa 22.3's no-op driver crashes in its threaded context on the gpu path's agent upload
  // (glBufferSubData over a range glCopyBufferSubData wrote: scripts/repro/mesa_noop_threaded.c
  // reproduces it without throng). Without its thread the driver's CPU time is also counted on
  // the calling thread, which cpu_ms measures. Set before the first EGL display is made.
  if (std::getenv("GALLIUM_NOOP") != nullptr && std::getenv("GALLIUM_THREAD") == nullptr) {
    setenv("GALLIUM_THREAD", "0", 1);
    std::printf(
        "GALLIUM_NOOP without GALLIUM_THREAD: running with GALLIUM_THREAD=0 (see "
        "scripts/repro/mesa_noop_threaded.c)\n");
  }
  const bool cpu_frame = takeFlag(argc, argv, "--cpu-frame");
  // --palette runs every series; --palette=lods (or lod0, lod3, lod4) one of them.
  std::string palette_series;
  bool palette = takeFlag(argc, argv, "--palette");
  for (const std::string series : {"lods", "lod0", "lod3", "lod4"}) {
    if (takeFlag(argc, argv, "--palette=" + series)) {
      palette = true;
      palette_series = series;
    }
  }
  bool agents_given = false;
  const std::vector<int> agents = capAgents(takeCountsFlag(
      argc, argv, "--agents=",
      cpu_frame ? std::span<const int>(kCpuFrameAgents) : std::span<const int>(kDefaultAgents),
      &agents_given));
  bool cpu_given = false;
  const std::vector<int> cpu_agents =
      capAgents(takeCountsFlag(argc, argv, "--cpu-agents=", kDefaultCpuAgents, &cpu_given));
  if (const char* cap = std::getenv("THRONG_BENCH_MAX_AGENTS")) {
    std::printf("crowd sizes capped at %s agents (THRONG_BENCH_MAX_AGENTS)\n", cap);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  if (palette) {
    paletteShared();
    static std::map<std::string, PaletteScene> palette_scenes;
    for (const PaletteSeries& series : kPaletteSeries) {
      const int lod = series.lod;
      const std::string series_name = lod < 0 ? std::string("lods") : "lod" + std::to_string(lod);
      if (!palette_series.empty() && series_name != palette_series) continue;
      for (int n : agents_given ? agents : capAgents(series.agents)) {
        const std::string name = std::to_string(n) + "/" + series_name;
        PaletteScene& scene = palette_scenes.emplace(name, makePaletteScene(n)).first->second;
        checkPaletteImages(scene, lod, name);
        for (bool pass : {false, true}) {
          benchmark::RegisterBenchmark(
              (std::string(pass ? "BM_PalettePass/" : "BM_DirectFetch/") + name).c_str(),
              [pass, lod, &scene](benchmark::State& state) {
                runPaletteFrame(state, pass, lod, scene);
              })
              ->Unit(benchmark::kMillisecond)
              ->UseRealTime();
        }
      }
    }
    benchmark::ConsoleReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
  }
  if (cpu_frame) {
    cpuFrameShared();
    // The no-op driver never runs the GPU's copies, so a read-back finds garbage (and says so):
    // the read-back's CPU cost is measured where the GPU works (llvmpipe), the frame without it
    // here.
    const bool noop = !cpuFrameShared().device->caps().rasterizes;
    if (noop) {
      std::printf(
          "NOTE: the no-op driver runs no GPU work: BM_GpuDrivenReadBack runs on a real "
          "driver only\n");
    }
    for (const auto& [name, kind] :
         {std::pair{"BM_GpuDriven", CpuFrameKind::kGpuDriven},
          std::pair{"BM_GpuDrivenReadBack", CpuFrameKind::kGpuDrivenReadBack},
          std::pair{"BM_CpuFed", CpuFrameKind::kCpuFed}}) {
      if (noop && kind == CpuFrameKind::kGpuDrivenReadBack) continue;
      auto* b = benchmark::RegisterBenchmark(
          name, [kind = kind](benchmark::State& state) { runPathCpuFrame(state, kind); });
      for (int n : agents) b->Arg(n);
      b->Unit(benchmark::kMillisecond)->UseRealTime();
    }
    benchmark::ConsoleReporter reporter;
    benchmark::RunSpecifiedBenchmarks(&reporter);
    benchmark::Shutdown();
    return 0;
  }
  shared();
  // Under Mesa's no-op driver every image is blank: the image checks would reject it (as they
  // should), so only the CPU-side benchmark runs, and the run says so.
  const bool noop = !shared().device->caps().rasterizes;
  if (noop) {
    std::printf(
        "NOTE: GL renderer '%s' is Mesa's no-op driver (GALLIUM_NOOP): nothing is "
        "rasterised, so the image checks and the render-path benchmarks are skipped; "
        "BM_CpuFrame measures the CPU side of a frame.\n",
        shared().device->caps().renderer.c_str());
  }
  if (noop || cpu_given) {
    for (const bool one : {true, false}) {
      auto* b = benchmark::RegisterBenchmark(
          one ? "BM_CpuFrameOneThread" : "BM_CpuFrame",
          [one](benchmark::State& state) { runCpuFrame(state, one ? 1 : 0); });
      for (int n : cpu_agents) b->Arg(n);
      b->Unit(benchmark::kMillisecond)->UseRealTime();
    }
  }
  for (int n : noop ? std::vector<int>{} : agents) {
    for (CameraKind camera : kCameras) {
      const std::string name = std::to_string(n) + "/" + cameraName(camera);
      Scene& scene = scenes().emplace(name, makeScene(n, camera)).first->second;
      checkImages(scene);
      for (Path path : kPaths) {
        benchmark::RegisterBenchmark(
            (std::string("BM_") + pathName(path) + "/" + name).c_str(),
            [path, &scene](benchmark::State& state) { runPath(state, path, scene); })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
    }
  }
  std::fflush(stdout);
  // Colour only on a terminal (a custom reporter does not read --benchmark_color).
  RatioReporter reporter(isatty(fileno(stdout)) ? benchmark::ConsoleReporter::OO_ColorTabular
                                                : benchmark::ConsoleReporter::OO_Tabular);
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
