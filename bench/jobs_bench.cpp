// CPU jobs per frame: palette evaluation, CPU skinning, playback, crowd update and the baked-frame
// palette, for the built-in sample character; throughput in items (characters, vertices, agents).
// The pose chain (sample, local->model, palette) for crowds of 1..10,000 characters, fast and
// reference, on the benchmark humanoid and the shared asset with the most joints.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/agent_grid.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/playback.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

// Seconds per crowd tick: a 30 Hz simulation, as the demo.
constexpr float kTickSeconds = 1.0f / 30.0f;
// Agents of the crowd benchmarks: a large crowd, still far inside the L2 cache per array.
constexpr int kCrowdAgents = 1000;
// Commands per crowd tick: 1% of the agents are told something new every frame.
constexpr int kCommandsPerTick = kCrowdAgents / 100;

struct Fixture {
  Character character;
  Package package;
  std::vector<AgentPlayback> playback;  // kCrowdAgents agents, spread over clips and times
};

const Fixture& fixture() {
  static const Fixture* f = [] {
    auto* out = new Fixture();
    out->character = makeSampleCharacter();
    Result<Package> package = bakeCharacter(out->character, BakeOptions{});
    if (!package.ok()) {
      std::fprintf(stderr, "jobs_bench: bake: %s\n", package.status().toString().c_str());
      std::exit(1);
    }
    out->package = std::move(package).value();
    for (int i = 0; i < kCrowdAgents; ++i) {
      AgentPlayback a;
      a.clip = static_cast<uint16_t>(i % out->package.clips.size());
      a.time = 0.037f * static_cast<float>(i);
      // Every fourth agent is in a cross-fade, so both frame pairs are read.
      if (i % 4 == 0) {
        a.previous_clip = static_cast<uint16_t>((i + 1) % out->package.clips.size());
        a.previous_time = 0.011f * static_cast<float>(i);
        a.fade = 0.5f;
      }
      out->playback.push_back(a);
    }
    return out;
  }();
  return *f;
}

// Sample clip + local->model + palette for one character (23 joints); items = characters.
void BM_EvaluatePalette(benchmark::State& state) {
  const Fixture& f = fixture();
  PoseScratch scratch;
  std::vector<JointRows> palette(f.character.skeleton.jointCount());
  size_t i = 0;
  for (auto _ : state) {
    const AgentPlayback& a = f.playback[i++ % f.playback.size()];
    const Clip& clip = f.character.clips[a.clip];
    evaluatePalette(f.character.skeleton, &clip,
                    clipTime(clip, a.time, f.package.clips[a.clip].loop), scratch, palette);
    benchmark::DoNotOptimize(palette.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["joints"] = f.character.skeleton.jointCount();
}

// The CPU reference skinner over the full mesh (positions and normals); items = vertices.
void BM_SkinJob(benchmark::State& state) {
  const Fixture& f = fixture();
  const SkinnedMesh& mesh = f.character.mesh;
  PoseScratch scratch;
  std::vector<JointRows> palette(f.character.skeleton.jointCount());
  evaluatePalette(f.character.skeleton, &f.character.clips[1], f.character.clips[1].start_time,
                  scratch, palette);
  std::vector<glm::vec3> positions(mesh.vertexCount());
  std::vector<glm::vec3> normals(mesh.vertexCount());
  const SkinJob job{mesh.positions, mesh.normals, mesh.joints, mesh.weights,
                    palette,        positions,    normals};
  if (!job.validate()) {
    state.SkipWithError("SkinJob rejected the sample mesh");
    return;
  }
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(positions.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(mesh.vertexCount()));
  state.counters["vertices"] = static_cast<double>(mesh.vertexCount());
}

// (clip, time) -> frame pairs for the whole crowd; items = agents.
void BM_PlaybackJob(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<InstanceFrames> frames(f.playback.size());
  const PlaybackJob job{f.package.clips, f.playback, frames};
  if (!job.validate()) {
    state.SkipWithError("PlaybackJob rejected the crowd");
    return;
  }
  for (auto _ : state) {
    job.run();
    benchmark::DoNotOptimize(frames.data());
  }
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(frames.size()));
}

// One 30 Hz tick of the state machine with 1% of the agents getting a command (walk, run,
// attack, idle; never die, so the crowd stays alive however long the benchmark runs); items =
// agents.
void BM_CrowdUpdate(benchmark::State& state) {
  const Fixture& f = fixture();
  Result<ClipSet> clip_set = clipSetByName(f.package.clips);
  if (!clip_set.ok()) {
    state.SkipWithError(clip_set.status().toString().c_str());
    return;
  }
  clip_set->walk_speed = kSampleWalkSpeed;
  clip_set->run_speed = kSampleRunSpeed;
  Crowd crowd(f.package.clips, *clip_set);
  // The square grid, its first agent at the origin.
  AgentGrid grid = squareGrid(kCrowdAgents, 1.5f * f.character.size());
  grid.origin = glm::vec2(0.0f);
  for (int i = 0; i < kCrowdAgents; ++i) {
    Placement p;
    p.position = grid.position(static_cast<uint32_t>(i));
    crowd.addAgent(p, 0.013f * static_cast<float>(i));
  }
  constexpr CommandType kTypes[] = {CommandType::kWalkTo, CommandType::kRunTo, CommandType::kAttack,
                                    CommandType::kIdle};
  const float extent = grid.spacing * static_cast<float>(grid.columns);
  uint32_t next = 0;
  for (auto _ : state) {
    for (int c = 0; c < kCommandsPerTick; ++c, ++next) {
      const uint32_t hash = next * 2654435761u;
      Command command;
      command.agent = hash % kCrowdAgents;
      command.type = kTypes[(hash >> 8) % 4];
      command.target = glm::vec2(static_cast<float>((hash >> 12) % 1000) * 0.001f * extent,
                                 static_cast<float>((hash >> 22) % 1000) * 0.001f * extent);
      crowd.submit(command);
    }
    crowd.update(kTickSeconds);
    benchmark::DoNotOptimize(crowd.playback().data());
  }
  state.SetItemsProcessed(state.iterations() * kCrowdAgents);
  state.counters["commands_per_tick"] = kCommandsPerTick;
}

// The CPU twin of the instanced shader's palette: two frame pairs blended and cross-faded for
// all 23 joints of one character; items = characters.
void BM_FramePaletteJob(benchmark::State& state) {
  const Fixture& f = fixture();
  std::vector<InstanceFrames> frames(f.playback.size());
  PlaybackJob{f.package.clips, f.playback, frames}.run();
  std::vector<JointRows> palette(f.package.animation.joint_count);
  FramePaletteJob job{&f.package.animation, frames[0], palette};
  size_t i = 0;
  for (auto _ : state) {
    job.frames = frames[i++ % frames.size()];
    job.run();
    benchmark::DoNotOptimize(palette.data());
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["joints"] = static_cast<double>(palette.size());
}

// A character as both pose chains read it.
struct PoseCharacter {
  std::string name;
  Character character;
  SoaSkeleton soa;
  std::vector<PackedClip> packed;  // character.clips, packed
  int max_timelines = 0;
};

PoseCharacter makePoseCharacter(std::string name, Character character,
                                const PackOptions& options = {}) {
  PoseCharacter out;
  out.name = std::move(name);
  out.character = std::move(character);
  out.soa = SoaSkeleton(out.character.skeleton);
  for (const Clip& clip : out.character.clips) {
    out.packed.push_back(packClip(clip, out.character.skeleton.restPoses(), options));
    out.max_timelines = std::max(out.max_timelines, out.packed.back().timelineCount());
  }
  return out;
}

const PoseCharacter& humanoid() {
  static const PoseCharacter* c =
      new PoseCharacter(makePoseCharacter("benchmark humanoid", makeBenchmarkHumanoid()));
  return *c;
}

// The same with constant tracks kept as tracks (every channel interpolated, as unpacked).
const PoseCharacter& humanoidUnfolded() {
  static const PoseCharacter* c = new PoseCharacter(makePoseCharacter(
      "benchmark humanoid, constant tracks kept", makeBenchmarkHumanoid(), {false}));
  return *c;
}

// The shared asset with the most joints that has clips (null when the assets are absent).
const PoseCharacter* largestAsset() {
  static const PoseCharacter* c = []() -> const PoseCharacter* {
    const char* candidates[] = {"CesiumMan/CesiumMan.glb", "RiggedFigure/RiggedFigure.glb",
                                "QuaterniusCharacter/Character.glb",
                                "KayKitMannequin/Med_General.glb"};
    PoseCharacter* best = nullptr;
    for (const char* relative : candidates) {
      const std::string path = std::string(THRONG_ASSETS_DIR) + "/" + relative;
      if (!std::filesystem::exists(path)) continue;
      Result<Character> character = importGltf(path);
      if (!character.ok() || character->clips.empty()) continue;
      if (best == nullptr ||
          character->skeleton.jointCount() > best->character.skeleton.jointCount()) {
        delete best;
        best = new PoseCharacter(makePoseCharacter(relative, std::move(character).value()));
      }
    }
    return best;
  }();
  return c;
}

// Characters of a pose-chain crowd: each plays clip (i % clips) from its own start time, all
// clips looping, and advances one 30 Hz tick per iteration; every character has its own palette
// in one buffer, as a crowd's palettes gathered for upload (and, on the fast chain, its own key
// cursors); one PoseScratch serves them all (one thread).
enum class Output {
  kStreamed,    // every character's palette kept (a crowd's upload buffer), streaming stores
  kCached,      // the same with ordinary stores
  kOnePalette,  // every character writes the same palette (diagnostic: the compute alone)
};

template <bool kFast, Output kOutput = Output::kStreamed>
void poseChain(benchmark::State& state, const PoseCharacter* c) {
  if (c == nullptr) {
    state.SkipWithError("shared assets not present");
    return;
  }
  const int n = static_cast<int>(state.range(0));
  const int joints = c->character.skeleton.jointCount();
  const size_t clips = c->character.clips.size();
  std::vector<float> playback(n);
  for (int i = 0; i < n; ++i) playback[i] = 0.0137f * static_cast<float>(i);
  std::vector<SamplingContext> contexts(n);
  for (SamplingContext& context : contexts) context.reserve(c->max_timelines);
  constexpr bool kOnePalette = kOutput == Output::kOnePalette;
  const PaletteStore store =
      kOutput == Output::kStreamed ? PaletteStore::kStreaming : PaletteStore::kCached;
  std::vector<JointRows> palettes(static_cast<size_t>(kOnePalette ? 1 : n) * joints);
  PoseScratch scratch;
  scratch.resize(joints);
  for (auto _ : state) {
    for (int i = 0; i < n; ++i) {
      playback[i] += kTickSeconds;
      const size_t clip = static_cast<size_t>(i) % clips;
      const float time = clipTime(c->character.clips[clip], playback[i], true);
      const size_t first = kOnePalette ? 0 : static_cast<size_t>(i) * joints;
      const std::span<JointRows> palette(palettes.data() + first, static_cast<size_t>(joints));
      if constexpr (kFast) {
        evaluatePalette(c->soa, &c->packed[clip], time, contexts[i], scratch, palette, store);
      } else {
        evaluatePalette(c->character.skeleton, &c->character.clips[clip], time, scratch, palette);
      }
    }
    benchmark::DoNotOptimize(palettes.data());
    benchmark::ClobberMemory();
  }
  state.SetItemsProcessed(state.iterations() * n);
  state.SetLabel(c->name);
  state.counters["joints"] = joints;
  // Iteration-invariant rate of n * joints * 1e-9 per second, inverted: nanoseconds per joint.
  state.counters["ns_per_joint"] = benchmark::Counter(
      static_cast<double>(n) * joints * 1e-9,
      benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

// The fast chain (packed clips, key cursors, SoA, SIMD, streaming palette stores) on the benchmark
// humanoid; argument: characters.
void BM_PoseChain(benchmark::State& state) {
  poseChain<true>(state, &humanoid());
}
// The reference chain (SampleClipJob + LocalToModelJob + PaletteJob), same crowd.
void BM_PoseChainReference(benchmark::State& state) {
  poseChain<false>(state, &humanoid());
}
// Diagnostic: the fast chain with every character writing the same palette, so that the 48
// bytes per joint of a large crowd's palettes never leave the cache: the compute alone.
void BM_PoseChainOnePalette(benchmark::State& state) {
  poseChain<true, Output::kOnePalette>(state, &humanoid());
}
// The fast chain with ordinary (cached) palette stores: what streaming saves.
void BM_PoseChainCached(benchmark::State& state) {
  poseChain<true, Output::kCached>(state, &humanoid());
}
// The fast chain without folding constant tracks (what the folding saves).
void BM_PoseChainUnfolded(benchmark::State& state) {
  poseChain<true>(state, &humanoidUnfolded());
}
// Both on the shared asset with the most joints.
void BM_PoseChainAsset(benchmark::State& state) {
  poseChain<true>(state, largestAsset());
}
void BM_PoseChainAssetReference(benchmark::State& state) {
  poseChain<false>(state, largestAsset());
}

}  // namespace
}  // namespace throng

BENCHMARK(throng::BM_PoseChain)->Arg(1)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainReference)
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainOnePalette)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainCached)->Arg(1)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainUnfolded)
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainAsset)->Arg(1)->Arg(100)->Arg(10000)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PoseChainAssetReference)
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_EvaluatePalette)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_SkinJob)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_PlaybackJob)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_CrowdUpdate)->Unit(benchmark::kMicrosecond);
BENCHMARK(throng::BM_FramePaletteJob)->Unit(benchmark::kMicrosecond);

BENCHMARK_MAIN();
