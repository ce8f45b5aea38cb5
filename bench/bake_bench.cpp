// Bake time per character and per frame (Method B), with one thread and with all of them.
#include <algorithm>
#include <filesystem>
#include <string>
#include <thread>

#include <benchmark/benchmark.h>

#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"

namespace {

void runBake(benchmark::State& state, const throng::Character& character) {
  throng::BakeOptions options;
  options.threads = static_cast<int>(state.range(0));
  throng::BakeReport report;
  for (auto _ : state) {
    throng::Result<throng::Package> package = throng::bakeCharacter(character, options, &report);
    if (!package.ok()) {
      state.SkipWithError(package.status().toString().c_str());
      return;
    }
    benchmark::DoNotOptimize(package->animation.texels32.data());
  }
  state.counters["frames"] = report.frames;
  state.counters["vertices"] = static_cast<double>(character.mesh.vertexCount());
  state.counters["joints"] = character.skeleton.jointCount();
  // Seconds per baked frame (the benchmark's time divided by the frame count).
  state.counters["per_frame"] = benchmark::Counter(
      report.frames, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

void BM_BakeSample(benchmark::State& state) {
  static const throng::Character character = throng::makeSampleCharacter();
  runBake(state, character);
}

void BM_BakeCesiumMan(benchmark::State& state) {
  static const std::string path = std::string(THRONG_ASSETS_DIR) + "/CesiumMan/CesiumMan.glb";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError(("asset not present: " + path).c_str());
    return;
  }
  static const throng::Result<throng::Character> character = throng::importGltf(path);
  if (!character.ok()) {
    state.SkipWithError(character.status().toString().c_str());
    return;
  }
  runBake(state, *character);
}

const int kAllThreads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));

}  // namespace

BENCHMARK(BM_BakeSample)->Arg(1)->Arg(kAllThreads)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BakeCesiumMan)->Arg(1)->Arg(kAllThreads)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
