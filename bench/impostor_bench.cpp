// Impostor bake time and atlas bytes for the sample character, at three byte budgets, against the
// method B bake of the same character in the same run (the baseline: what `throng bake` costs
// without --impostors).
#include <benchmark/benchmark.h>

#include "throng/impostor/impostor_bake.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"

namespace {

const throng::Package& samplePackage() {
  static const throng::Package package = [] {
    throng::Result<throng::Package> p =
        throng::bakeCharacter(throng::makeSampleCharacter(), throng::BakeOptions{});
    return p.ok() ? *p : throng::Package{};
  }();
  return package;
}

// The baseline: the sample's method B bake (all clips, 30 fps, RGBA32F, all threads).
void BM_BakeSampleBaseline(benchmark::State& state) {
  const throng::Character character = throng::makeSampleCharacter();
  for (auto _ : state) {
    throng::Result<throng::Package> p = throng::bakeCharacter(character, throng::BakeOptions{});
    if (!p.ok()) {
      state.SkipWithError(p.status().toString().c_str());
      return;
    }
    benchmark::DoNotOptimize(p->animation.texels32.data());
  }
}

// bakeImpostors on the baked sample with a budget of state.range(0) MiB.
void BM_ImpostorBakeSample(benchmark::State& state) {
  const throng::Package& package = samplePackage();
  throng::impostor::ImpostorBakeOptions options;
  options.budget_bytes = static_cast<uint64_t>(state.range(0)) << 20;
  throng::impostor::ImpostorPlan plan;
  uint64_t bytes = 0;
  for (auto _ : state) {
    throng::Result<throng::Impostor> m = throng::impostor::bakeImpostors(package, options, &plan);
    if (!m.ok()) {
      state.SkipWithError(m.status().toString().c_str());
      return;
    }
    bytes = m->byteSize();
    benchmark::DoNotOptimize(m->color.data());
  }
  const float height = throng::computeBounds(package.lods[0].mesh.positions).largestExtent();
  state.counters["atlas_bytes"] = static_cast<double>(bytes);
  state.counters["views"] = plan.layout.viewCount();
  state.counters["frames"] = plan.layout.frameCount();
  state.counters["tile_height"] = plan.layout.tile_height;
  state.counters["error_pct"] = 100.0 * plan.layout.max_error / height;
}

}  // namespace

BENCHMARK(BM_BakeSampleBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ImpostorBakeSample)
    ->Arg(16)
    ->Arg(4)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
