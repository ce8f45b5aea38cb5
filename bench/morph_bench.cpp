// Morph animation (docs/morph.md, docs/benchmarks.md "Morph animation"): bake time and texture
// bytes of a VAT creature, and the instanced path's frame of a herd of it against the same crowd
// of the skinned character it was made from (same mesh, same vertex count): the cost of reading 2
// (4 in a cross-fade) texels per vertex and frame pair instead of the skinning's joint rows.
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"

#include "throng/crowd/agent_grid.h"
#include "throng/offline/bake.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace {

using namespace throng;
using namespace throng::render;
using throng::bench::die;
using throng::bench::take;

constexpr int kFrameSize = 512;
constexpr float kSpacing = 2.0f;
const glm::vec4 kClear(0.2f, 0.2f, 0.25f, 1.0f);

// The sample character made a creature: every vertex rides the root with weight 1 and two
// targets (a swell along the normals and a ripple along x) animate it, keyed over each clip:
// chooseMorphBakeKind bakes it as vertex frames. Same mesh, same vertex count as the sample.
Character makeCreature() {
  Character c = makeSampleCharacter();
  SkinnedMesh& mesh = c.mesh;
  const size_t n = mesh.vertexCount();
  MorphTarget swell{.name = "swell", .group = "body"};
  MorphTarget ripple{.name = "ripple", .group = "body"};
  for (size_t v = 0; v < n; ++v) {
    mesh.joints[v] = glm::u16vec4(0);
    mesh.weights[v] = glm::vec4(1, 0, 0, 0);
    swell.positions.push_back(0.05f * (mesh.normals.empty() ? glm::vec3(0) : mesh.normals[v]));
    ripple.positions.push_back(glm::vec3(0.1f * std::sin(4.0f * mesh.positions[v].y), 0, 0));
  }
  mesh.morph_targets = {swell, ripple};
  for (Clip& clip : c.clips) {
    const float mid = 0.5f * (clip.start_time + clip.end_time);
    FloatTrack a, b;
    a.times = b.times = {clip.start_time, mid, clip.end_time};
    a.values = {0.0f, 1.0f, 0.0f};
    b.values = {1.0f, 0.0f, 1.0f};
    clip.weights = {a, b};
  }
  return c;
}

struct Shared {
  std::unique_ptr<Device> device;
  Package skinned, creature;
  std::unique_ptr<CrowdRenderer> skinned_renderer, creature_renderer;
};

Shared& shared() {
  static Shared* s = [] {
    auto* out = new Shared();
    DeviceDesc desc;
    desc.width = desc.height = kFrameSize;
    out->device = take(Device::createHeadless(desc), "ES 3.0 headless device");
    out->skinned = take(bakeCharacter(makeSampleCharacter(), BakeOptions{}), "bake sample");
    BakeReport report;
    out->creature = take(bakeCharacter(makeCreature(), BakeOptions{}, &report), "bake creature");
    if (out->creature.morph.kind != MorphBakeKind::kVertexFrames)
      die("the creature did not bake as vertex frames");
    uint64_t bytes = 0;
    for (const VertexTexture& t : out->creature.morph.lods) bytes += t.byteSize();
    const Caps& caps = out->device->caps();
    std::printf(
        "device: %s | %s | %zu vertices, %u frames; VAT %llu bytes per character (RGBA32F; "
        "the bone texture %llu)\n",
        caps.renderer.c_str(), caps.version.c_str(), out->creature.lods[0].mesh.vertexCount(),
        out->creature.animation.frame_count, static_cast<unsigned long long>(bytes),
        static_cast<unsigned long long>(uint64_t{out->creature.animation.width} *
                                        out->creature.animation.height * 16));
    CrowdRendererDesc instanced;
    instanced.path = RenderPath::kInstanced;
    instanced.shadows = ShadowMode::kOff;
    out->skinned_renderer = std::make_unique<CrowdRenderer>(*out->device, out->skinned, instanced);
    out->creature_renderer =
        std::make_unique<CrowdRenderer>(*out->device, out->creature, instanced);
    if (!out->skinned_renderer->ok()) die(out->skinned_renderer->status().toString());
    if (!out->creature_renderer->ok()) die(out->creature_renderer->status().toString());
    return out;
  }();
  return *s;
}

void runBake(benchmark::State& state, const Character& character) {
  for (auto _ : state) {
    Result<Package> p = bakeCharacter(character, BakeOptions{});
    if (!p.ok()) {
      state.SkipWithError(p.status().toString().c_str());
      return;
    }
    benchmark::DoNotOptimize(p->animation.texels32.data());
  }
}

void BM_BakeSkinned(benchmark::State& state) {
  runBake(state, makeSampleCharacter());
}
void BM_BakeVat(benchmark::State& state) {
  runBake(state, makeCreature());
}

// One instanced frame of `agents` on a grid seen from above, every 4th agent cross-fading.
void runFrame(benchmark::State& state, bool creature) {
  Shared& s = shared();
  CrowdRenderer& renderer = creature ? *s.creature_renderer : *s.skinned_renderer;
  const Package& package = creature ? s.creature : s.skinned;
  const uint32_t agents = static_cast<uint32_t>(state.range(0));
  const AgentGrid grid = squareGrid(agents, kSpacing);
  std::vector<Placement> placements(agents);
  std::vector<AgentPlayback> playback(agents);
  const uint16_t clips = static_cast<uint16_t>(package.clips.size());
  for (uint32_t i = 0; i < agents; ++i) {
    placements[i].position = grid.position(i);
    placements[i].heading = static_cast<float>(i % 16) * 0.39f;
    playback[i].clip = static_cast<uint16_t>(i % clips);
    playback[i].time = static_cast<float>(i % 97) * 0.01f;
    if (i % 4 == 0) {
      playback[i].previous_clip = static_cast<uint16_t>((i + 1) % clips);
      playback[i].fade = 0.5f;
    }
  }
  const float half = -grid.origin.x + kSpacing;
  const FrameView view =
      framingView(Bounds{glm::vec3(-half, 0.0f, -half), glm::vec3(half, 1.8f, half)}, 1.0f,
                  CameraFraming{.fit_corners = true});
  for (auto _ : state) {
    s.device->beginFrame(kClear);
    if (Status st = renderer.draw(view, CrowdFrame{placements, playback}); !st.ok())
      die(st.toString());
    s.device->finish();
  }
  state.counters["agents"] = agents;
}

void BM_InstancedFrameSkinned(benchmark::State& state) {
  runFrame(state, false);
}
void BM_InstancedFrameVat(benchmark::State& state) {
  runFrame(state, true);
}

}  // namespace

BENCHMARK(BM_BakeSkinned)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_BakeVat)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_InstancedFrameSkinned)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(BM_InstancedFrameVat)->Arg(200)->Unit(benchmark::kMillisecond)->UseRealTime();

BENCHMARK_MAIN();
