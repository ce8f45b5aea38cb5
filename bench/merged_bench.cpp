// Method A benchmark on an ES 2.0 context: per-character draws vs merged batches (both palette
// sources), plus the CPU cost of each palette source; prints ratios against the baseline.
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <string>

#include <benchmark/benchmark.h>
#include <glm/gtc/matrix_transform.hpp>

#include "render/merged_path.h"
#include "render/test_hooks.h"
#include "throng/core/joint_encoding.h"
#include "throng/core/pose.h"
#include "throng/crowd/batch_palette.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {
namespace {

// Characters in the benchmark crowd: a 25 x 40 grid, enough for many batches per LOD.
constexpr int kColumns = 25;
constexpr int kRows = 40;
constexpr float kFps = 30.0f;

// One ES2 device, character, LOD chain and crowd shared by every benchmark of the run.
struct Fixture {
  std::unique_ptr<Device> device;
  Character character;
  std::vector<MeshLod> lods;
  std::vector<BakedClip> baked_clips;
  AnimationTexture texture;
  std::vector<Placement> placements;
  std::vector<glm::mat4> worlds;  // placementMatrix(placements[i])
  std::vector<AgentPlayback> agents;
  std::vector<InstanceFrames> frames;
  FrameView view;
  std::unique_ptr<MergedBatchRenderer> merged;
  std::unique_ptr<MergedBatchRenderer> merged_quat;  // 2 vec4 per joint
  std::unique_ptr<MergedBatchRenderer> per_character;
  Package package;                 // for the front end's 10,000 agents
  SoaSkeleton soa;                 // the fast pose chain's skeleton
  std::vector<PackedClip> packed;  // character.clips, packed for it

  MergedScene scene() const {
    return {&character.skeleton, character.clips, baked_clips, &texture, lods};
  }
};

Fixture& fixture() {
  static Fixture* f = [] {
    auto* out = new Fixture();
    DeviceDesc desc;
    desc.gles_major = 2;
    desc.width = 512;
    desc.height = 512;
    DeviceTestHooks phone;
    phone.caps.max_vertex_uniform_vectors = 256;  // a common ES2 phone
    desc.test_hooks = &phone;
    // Mesa gives a real ES 2.0 context only with this in the environment when the EGL display is
    // initialised; the library never sets it, the program that wants ES 2.0 does.
    setenv("MESA_GLES_VERSION_OVERRIDE", "2.0", 0);
    Result<std::unique_ptr<Device>> device = Device::createHeadless(desc);
    if (!device.ok()) {
      std::fprintf(stderr, "merged_bench: %s\n", device.status().toString().c_str());
      std::exit(1);
    }
    out->device = std::move(device).value();
    out->character = makeSampleCharacter();
    out->lods = std::move(buildLodChain(out->character, defaultLodChainOptions()).value());
    BakeOptions bake_options;
    bake_options.fps = kFps;
    Result<Package> package = bakeCharacter(out->character, bake_options);
    if (!package.ok()) {
      std::fprintf(stderr, "merged_bench: %s\n", package.status().toString().c_str());
      std::exit(1);
    }
    out->package = *package;
    out->package.lods = out->lods;
    out->baked_clips = std::move(package->clips);
    out->texture = std::move(package->animation);
    const float size = out->character.size();
    for (int r = 0; r < kRows; ++r) {
      for (int c = 0; c < kColumns; ++c) {
        Placement p;
        p.position = glm::vec3((static_cast<float>(c) - kColumns / 2.0f) * size, 0.0f,
                               -static_cast<float>(r) * size * 1.5f);
        out->placements.push_back(p);
        out->worlds.push_back(placementMatrix(p));
        AgentPlayback a;
        a.clip = static_cast<uint16_t>((r + c) % out->baked_clips.size());
        a.time = 0.037f * static_cast<float>(r * kColumns + c);
        out->agents.push_back(a);
      }
    }
    out->soa = SoaSkeleton(out->character.skeleton);
    for (const Clip& clip : out->character.clips) {
      out->packed.push_back(packClip(clip, out->character.skeleton.restPoses()));
    }
    out->frames.resize(out->agents.size());
    PlaybackJob{out->baked_clips, out->agents, out->frames}.run();
    out->view =
        lookAtView(glm::vec3(0.0f, size * 4.0f, size * 6.0f), glm::vec3(0.0f, 0.0f, -size * 20.0f),
                   0.9f, 1.0f, 0.1f * size, 200.0f * size);
    // The sample's materials are plain factors (no images).
    const Looks looks{out->character.materials, {}};
    out->merged =
        std::move(MergedBatchRenderer::create(*out->device, out->lods,
                                              out->character.skeleton.jointCount(), {}, looks)
                      .value());
    MergedBatchDesc quat;
    quat.joint_encoding = JointEncoding::kQuatScale;
    out->merged_quat =
        std::move(MergedBatchRenderer::create(*out->device, out->lods,
                                              out->character.skeleton.jointCount(), quat, looks)
                      .value());
    std::printf("uniform budget %d vectors; characters per draw (LOD: 3 vec4 -> 2 vec4):",
                out->merged->uniformBudget());
    for (int l = 0; l < out->merged->lodCount(); ++l) {
      std::printf(" %d: %d -> %d (%d joints)", l, out->merged->lodInfo(l).characters_per_batch,
                  out->merged_quat->lodInfo(l).characters_per_batch,
                  out->merged->lodInfo(l).joints);
    }
    std::printf("\n");
    MergedBatchDesc one;
    one.max_characters_per_batch = 1;
    out->per_character =
        std::move(MergedBatchRenderer::create(*out->device, out->lods,
                                              out->character.skeleton.jointCount(), one, looks)
                      .value());
    return out;
  }();
  return *f;
}

void drawFrames(benchmark::State& state, MergedBatchRenderer& renderer, PaletteSource source) {
  Fixture& f = fixture();
  MergedPathScratch scratch;
  MergedFrameStats stats;
  for (auto _ : state) {
    f.device->beginFrame({0.2f, 0.2f, 0.25f, 1.0f});
    stats = drawMergedCrowd(renderer, f.scene(), source, f.view, f.placements, f.agents, f.frames,
                            scratch);
    f.device->finish();
  }
  state.counters["characters"] = stats.characters;
  state.counters["draw_calls"] = stats.draw_calls;
  state.counters["K_lod0"] = renderer.lodInfo(0).characters_per_batch;
}

void BM_PerCharacter_Tree(benchmark::State& state) {
  drawFrames(state, *fixture().per_character, PaletteSource::kSkeletonTree);
}
void BM_Merged_Tree(benchmark::State& state) {
  drawFrames(state, *fixture().merged, PaletteSource::kSkeletonTree);
}
void BM_Merged_Baked(benchmark::State& state) {
  drawFrames(state, *fixture().merged, PaletteSource::kBakedFrames);
}
void BM_Merged_BakedQuat(benchmark::State& state) {
  drawFrames(state, *fixture().merged_quat, PaletteSource::kBakedFrames);
}

// The front end's merged path (cull, LOD pick, palettes, draws) for 10,000 agents in a 100 x 100
// grid seen from above, 3 vec4 (arg 0) or 2 vec4 (arg 1) per joint: draw calls and time.
void BM_FrontMerged10k(benchmark::State& state) {
  Fixture& f = fixture();
  constexpr int kSide = 100;
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  const float size = f.character.size();
  for (int i = 0; i < kSide * kSide; ++i) {
    Placement p;
    p.position = glm::vec3((static_cast<float>(i % kSide) - kSide / 2.0f) * size * 1.5f, 0.0f,
                           -static_cast<float>(i / kSide) * size * 1.5f);
    placements.push_back(p);
    AgentPlayback a;
    a.clip = static_cast<uint16_t>(i % f.baked_clips.size());
    a.time = 0.037f * static_cast<float>(i);
    playback.push_back(a);
  }
  const float extent = kSide * size * 1.5f;
  const FrameView view =
      lookAtView(glm::vec3(0.0f, extent * 0.8f, extent * 0.4f),
                 glm::vec3(0.0f, 0.0f, -extent * 0.45f), 0.9f, 1.0f, 0.1f * size, 4.0f * extent);
  CrowdRendererDesc desc;
  desc.path = RenderPath::kMerged;
  desc.joint_encoding = state.range(0) == 0 ? JointEncoding::kRows : JointEncoding::kQuatScale;
  CrowdRenderer renderer(*f.device, f.package, desc);
  if (!renderer.ok()) {
    state.SkipWithError(renderer.status().toString().c_str());
    return;
  }
  const CrowdFrame frame{placements, playback, {}};
  for (auto _ : state) {
    f.device->beginFrame({0.2f, 0.2f, 0.25f, 1.0f});
    if (!renderer.draw(view, frame).ok()) state.SkipWithError("draw failed");
    f.device->finish();
  }
  state.counters["visible"] = renderer.stats().visible;
  state.counters["draw_calls"] = renderer.stats().draw_calls;
  state.counters["palette_ms"] = renderer.stats().cpu_ms.pack_upload;
  state.counters["submit_ms"] = renderer.stats().cpu_ms.submit;
}

// CPU cost alone of filling one character's LOD-1 palette (placed in the world) from each source,
// agent after agent.
void BM_PaletteFill_Tree(benchmark::State& state) {
  Fixture& f = fixture();
  PoseScratch scratch;
  const auto joints = f.merged->paletteJoints(1);
  std::vector<JointRows> out(joints.size());
  size_t i = 0;
  for (auto _ : state) {
    if (++i == f.agents.size()) i = 0;  // the next agent (no division in the timed loop)
    const AgentPlayback& a = f.agents[i];
    const Clip& clip = f.character.clips[a.clip];
    treePalette(f.character.skeleton, &clip, clipTime(clip, a.time, true), f.worlds[i], joints,
                scratch, out);
    benchmark::DoNotOptimize(out.data());
  }
}
// The same on the fast pose chain: packed clips, one set of key cursors per agent.
void BM_PaletteFill_TreeFast(benchmark::State& state) {
  Fixture& f = fixture();
  PoseScratch scratch;
  const auto joints = f.merged->paletteJoints(1);
  std::vector<JointRows> out(joints.size());
  std::vector<SamplingContext> contexts(f.agents.size());
  size_t agent = 0;
  for (auto _ : state) {
    if (++agent == f.agents.size()) agent = 0;
    const AgentPlayback& a = f.agents[agent];
    treePalette(f.soa, &f.packed[a.clip], clipTime(f.character.clips[a.clip], a.time, true),
                contexts[agent], f.worlds[agent], joints, scratch, out);
    benchmark::DoNotOptimize(out.data());
  }
}
void BM_PaletteFill_Baked(benchmark::State& state) {
  Fixture& f = fixture();
  const auto joints = f.merged->paletteJoints(1);
  std::vector<JointRows> out(joints.size());
  size_t i = 0;
  for (auto _ : state) {
    if (++i == f.frames.size()) i = 0;
    bakedPalette(f.texture, f.frames[i], f.worlds[i], joints, out);
    benchmark::DoNotOptimize(out.data());
  }
}

// The baked fill plus the 2-vec4 encoding the quat renderer applies at upload (about each slot's
// pivot), and the encoding alone: the CPU price of fitting ~1.5x the characters per draw.
void BM_PaletteFill_BakedQuat(benchmark::State& state) {
  Fixture& f = fixture();
  const auto joints = f.merged_quat->paletteJoints(1);
  const auto pivots = f.merged_quat->palettePivots(1);
  std::vector<JointRows> out(joints.size());
  std::vector<QuatJoint> encoded(joints.size());
  size_t i = 0;
  for (auto _ : state) {
    if (++i == f.frames.size()) i = 0;
    bakedPalette(f.texture, f.frames[i], f.worlds[i], joints, out);
    encodeQuatJoints(out, pivots, encoded);
    benchmark::DoNotOptimize(encoded.data());
  }
}
void BM_PaletteEncode_Quat(benchmark::State& state) {
  Fixture& f = fixture();
  const auto joints = f.merged_quat->paletteJoints(1);
  const auto pivots = f.merged_quat->palettePivots(1);
  std::vector<JointRows> out(joints.size());
  std::vector<QuatJoint> encoded(joints.size());
  bakedPalette(f.texture, f.frames[0], f.worlds[0], joints, out);
  for (auto _ : state) {
    encodeQuatJoints(out, pivots, encoded);
    benchmark::DoNotOptimize(encoded.data());
    benchmark::ClobberMemory();
  }
}

BENCHMARK(BM_PerCharacter_Tree)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Merged_Tree)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_Merged_Baked)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PaletteFill_Tree)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PaletteFill_TreeFast)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PaletteFill_Baked)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_Merged_BakedQuat)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_PaletteFill_BakedQuat)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_PaletteEncode_Quat)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_FrontMerged10k)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->UseRealTime();

// Console output plus a ratio table against the per-character baseline of the same run.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      // With repetitions, keep the medians (plain runs have no aggregate name).
      if (run.run_type == Run::RT_Aggregate && run.aggregate_name != "median") continue;
      std::string name = run.benchmark_name();
      if (run.run_type == Run::RT_Aggregate) name = name.substr(0, name.rfind("_median"));
      times_[name] = run.GetAdjustedCPUTime() * 1000.0;  // ns (the palette fills are in us)
      real_[name] = run.GetAdjustedRealTime();
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    const auto baked = times_.find("BM_PaletteFill_Baked");
    if (baked != times_.end()) {
      std::printf("\npalette fill per character (CPU time), relative to the baked frames:\n");
      for (const char* name : {"BM_PaletteFill_Tree", "BM_PaletteFill_TreeFast"}) {
        const auto tree = times_.find(name);
        if (tree == times_.end()) continue;
        std::printf("  %-32s %8.1f ns  baked is %.2fx cheaper\n", name, tree->second,
                    tree->second / baked->second);
      }
      std::printf("  %-32s %8.1f ns\n", "BM_PaletteFill_Baked", baked->second);
      for (const char* name : {"BM_PaletteFill_BakedQuat", "BM_PaletteEncode_Quat"}) {
        const auto quat = times_.find(name);
        if (quat == times_.end()) continue;
        std::printf("  %-32s %8.1f ns  %.2fx the baked fill (2 vec4 per joint)\n", name,
                    quat->second, quat->second / baked->second);
      }
    }
    const auto base = real_.find("BM_PerCharacter_Tree/real_time");
    if (base == real_.end()) return;
    std::printf("\nframe time relative to the per-character baseline (lower is faster):\n");
    for (const auto& [name, time] : real_) {
      if (name.rfind("BM_PaletteFill", 0) == 0) continue;
      std::printf("  %-32s %8.3f ms  x%.3f  (speed-up %.2f)\n", name.c_str(), time,
                  time / base->second, base->second / time);
    }
  }

 private:
  std::map<std::string, double> times_;  // CPU time
  std::map<std::string, double> real_;   // wall time
};

}  // namespace
}  // namespace throng::render

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  throng::render::RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
