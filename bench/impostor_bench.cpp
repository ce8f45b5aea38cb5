// Impostor bake time, atlas bytes and measured error: the sample character at three byte budgets,
// against the method B bake of the same character in the same run (the baseline: what
// `throng bake` costs without --impostors); and the sample and three shared-asset characters at the
// default budget with per-clip frame rates (the bake's default) and with one rate for every clip
// (the layout search before per-clip rates), each impostor's error measured as drawn.
#include <optional>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "throng/impostor/impostor_bake.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
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

// The characters of the per-character rows: a name, the glTF (empty: the sample) and the files
// its clips come from (KayKit's live in mesh-less files).
struct BenchCharacter {
  const char* name;
  const char* file;
  std::vector<const char*> clip_files;
};
const std::vector<BenchCharacter>& characters() {
  static const std::vector<BenchCharacter> list = {
      {"sample", "", {}},
      {"CesiumMan", "CesiumMan/CesiumMan.glb", {}},
      {"KayKit",
       "KayKitMannequin/manny_med_mod.gltf",
       {"KayKitMannequin/Med_General.glb", "KayKitMannequin/Med_MovementBasic.glb"}},
      {"Quaternius", "QuaterniusCharacter/Character.glb", {}},
  };
  return list;
}

// Character `index` baked with the default options (LOD 0 only), once; an error message when its
// asset is missing or does not bake.
const throng::Result<throng::Package>& characterPackage(size_t index) {
  static std::vector<std::optional<throng::Result<throng::Package>>> cache(characters().size());
  if (!cache[index]) {
    const BenchCharacter& c = characters()[index];
    if (std::string(c.file).empty()) {
      cache[index] = throng::bakeCharacter(throng::makeSampleCharacter(), throng::BakeOptions{});
    } else {
      throng::ImportOptions import;
      for (const char* f : c.clip_files) {
        import.clip_files.push_back(std::string(THRONG_ASSETS_DIR) + "/" + f);
      }
      throng::Result<throng::Character> character =
          throng::importGltf(std::string(THRONG_ASSETS_DIR) + "/" + c.file, import);
      if (!character.ok()) {
        cache[index] = character.status();
      } else {
        cache[index] = throng::bakeCharacter(*character, throng::BakeOptions{});
      }
    }
  }
  return *cache[index];
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

// One bake of `package` with `options`, timed by the loop; its layout and error as counters.
void bakeAndCount(benchmark::State& state, const throng::Package& package,
                  const throng::impostor::ImpostorBakeOptions& options) {
  throng::impostor::ImpostorPlan plan;
  throng::impostor::ImpostorError error;
  uint64_t bytes = 0;
  std::vector<uint32_t> clip_frames;
  for (auto _ : state) {
    throng::Result<throng::Impostor> m =
        throng::impostor::bakeImpostors(package, options, &plan, &error);
    if (!m.ok()) {
      state.SkipWithError(m.status().toString().c_str());
      return;
    }
    bytes = m->byteSize();
    clip_frames = m->clip_frames;
    benchmark::DoNotOptimize(m->color.data());
  }
  const float height = throng::computeBounds(package.lods[0].mesh.positions).largestExtent();
  state.counters["atlas_bytes"] = static_cast<double>(bytes);
  state.counters["azimuths"] = plan.layout.azimuths;
  state.counters["elevations"] = plan.layout.elevations;
  double frames = 0;
  for (uint32_t n : clip_frames) frames += n;
  state.counters["frames"] = frames;
  state.counters["tile_height"] = plan.layout.tile_height;
  state.counters["error_pct"] = 100.0 * error.total() / height;
  state.counters["p90_pct"] = 100.0 * error.silhouette_p90 / height;
  state.counters["texel_pct"] = 100.0 * error.texel / height;
}

// bakeImpostors on the baked sample with a budget of state.range(0) MiB.
void BM_ImpostorBakeSample(benchmark::State& state) {
  throng::impostor::ImpostorBakeOptions options;
  options.budget_bytes = static_cast<uint64_t>(state.range(0)) << 20;
  bakeAndCount(state, samplePackage(), options);
}

// bakeImpostors on character state.range(0) (characters()) at the default budget, per-clip rates
// when state.range(1) is 1, one rate for every clip when 0.
void BM_ImpostorBakeCharacter(benchmark::State& state) {
  const size_t index = static_cast<size_t>(state.range(0));
  state.SetLabel(characters()[index].name);
  const throng::Result<throng::Package>& package = characterPackage(index);
  if (!package.ok()) {
    state.SkipWithError(package.status().toString().c_str());
    return;
  }
  throng::impostor::ImpostorBakeOptions options;
  options.per_clip_rates = state.range(1) != 0;
  bakeAndCount(state, *package, options);
}

}  // namespace

BENCHMARK(BM_BakeSampleBaseline)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_ImpostorBakeSample)
    ->Arg(16)
    ->Arg(4)
    ->Arg(1)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK(BM_ImpostorBakeCharacter)
    ->ArgsProduct({{0, 1, 2, 3}, {0, 1}})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_MAIN();
