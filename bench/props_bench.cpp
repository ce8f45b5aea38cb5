// Props and layers (docs/props_and_layers.md, docs/benchmarks.md "Props and layers"): the
// instanced path's frame of a crowd carrying two props (one sharing the body's material, one of
// its own) with an upper-body layer playing on every agent, against the same crowd of the bare
// character with neither, in one run; and the package and texture bytes the props and the mask
// add.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include <benchmark/benchmark.h>

#include "bench_support.h"

#include "throng/core/attachment.h"
#include "throng/core/package.h"
#include "throng/crowd/layer.h"
#include "throng/offline/attachments.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
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
constexpr int kDefaultAgents[] = {10000};

// A box prop (24 vertices, flat faces, 12 triangles) of half sizes `half`, standing on its origin,
// in one material.
Character boxProp(const glm::vec3& half, const Material& material) {
  Character prop;
  SkinnedMesh& mesh = prop.mesh;
  for (int axis = 0; axis < 3; ++axis) {
    for (const float side : {-1.0f, 1.0f}) {
      glm::vec3 n(0.0f);
      n[axis] = side;
      const glm::vec3 u = axis == 1 ? glm::vec3(1, 0, 0) : glm::vec3(0, 1, 0);
      const glm::vec3 v = glm::cross(n, u);
      const uint32_t first = static_cast<uint32_t>(mesh.positions.size());
      for (const glm::vec2 c :
           {glm::vec2(-1, -1), glm::vec2(1, -1), glm::vec2(1, 1), glm::vec2(-1, 1)}) {
        mesh.positions.push_back((n + c.x * u + c.y * v) * half + glm::vec3(0, half.y, 0));
        mesh.normals.push_back(n);
        mesh.joints.push_back(glm::u16vec4(0));
        mesh.weights.push_back(glm::vec4(1, 0, 0, 0));
      }
      mesh.indices.insert(mesh.indices.end(),
                          {first, first + 1, first + 2, first, first + 2, first + 3});
    }
  }
  mesh.submeshes.push_back(SubMesh{"box", 0, static_cast<uint32_t>(mesh.indices.size()), 0, {}});
  prop.materials = {material};
  return prop;
}

// The sample with a club in the right hand (the body's "clothes" material: no draw call more), a
// shield on the left forearm (its own material: one more per LOD in use) and an "upper" mask.
Character propCharacter() {
  Character c = makeSampleCharacter();
  Material wood;
  wood.name = "wood";
  wood.base_color = glm::vec4(0.35f, 0.12f, 0.04f, 1.0f);
  wood.metallic_factor = 0.0f;
  const Character club = boxProp(glm::vec3(0.025f, 0.25f, 0.025f), c.materials[0]);
  const Character shield = boxProp(glm::vec3(0.15f, 0.2f, 0.02f), wood);
  if (!attachProp(c, "hand.R", club, {}, "club", "bench", "sample").ok() ||
      !attachProp(c, "lower_arm.L", shield, {}, "shield", "bench", "sample").ok() ||
      !addJointMask(c, {"upper", "spine_01"}, "sample").ok()) {
    die("attaching the props");
  }
  return c;
}

struct Shared {
  std::unique_ptr<Device> device;
  Package bare, props;
  std::unique_ptr<CrowdRenderer> bare_renderer, props_renderer;
};

// The package's size on disk (written to a temporary file).
uint64_t packageBytes(const Package& package, const char* name) {
  const std::filesystem::path path = std::filesystem::temp_directory_path() / name;
  if (Status st = writePackage(package, path.string()); !st.ok()) die(st.toString());
  const uint64_t bytes = std::filesystem::file_size(path);
  std::filesystem::remove(path);
  return bytes;
}

uint64_t textureBytes(const Package& package) {
  return uint64_t{package.animation.width} * package.animation.height * 16;  // RGBA32F
}

Shared& shared() {
  static Shared* s = [] {
    auto* out = new Shared();
    DeviceDesc desc;
    desc.width = desc.height = kFrameSize;
    out->device = take(Device::createHeadless(desc), "ES 3.0 headless device");
    // Both with the default LOD chain (as shadow_bench): 10,000 agents at LOD 0 would time the
    // rasteriser's vertex load, not what a real crowd draws.
    const Character bare = makeSampleCharacter();
    const Character props = propCharacter();
    out->bare = take(bakeCharacter(bare, BakeOptions{}), "bake sample");
    out->bare.lods = take(buildLodChain(bare, defaultLodChainOptions()), "bare LOD chain");
    out->props = take(bakeCharacter(props, BakeOptions{}), "bake sample with props");
    out->props.lods = take(buildLodChain(props, defaultLodChainOptions()), "props LOD chain");
    const Caps& caps = out->device->caps();
    const uint64_t bare_texture = textureBytes(out->bare);
    const uint64_t props_texture = textureBytes(out->props);
    const uint64_t bare_bytes = packageBytes(out->bare, "props_bench_bare.throng");
    const uint64_t props_bytes = packageBytes(out->props, "props_bench_props.throng");
    std::printf(
        "device: %s | %s\npackage bytes: bare %llu, with 2 props and a mask %llu (+%llu); "
        "animation texture bytes %llu and %llu (+%llu); vertices %zu and %zu\n",
        caps.renderer.c_str(), caps.version.c_str(), static_cast<unsigned long long>(bare_bytes),
        static_cast<unsigned long long>(props_bytes),
        static_cast<unsigned long long>(props_bytes - bare_bytes),
        static_cast<unsigned long long>(bare_texture),
        static_cast<unsigned long long>(props_texture),
        static_cast<unsigned long long>(props_texture - bare_texture),
        out->bare.lods[0].mesh.vertexCount(), out->props.lods[0].mesh.vertexCount());
    CrowdRendererDesc instanced;
    instanced.path = RenderPath::kInstanced;
    instanced.shadows = ShadowMode::kOff;
    out->bare_renderer = std::make_unique<CrowdRenderer>(*out->device, out->bare, instanced);
    out->props_renderer = std::make_unique<CrowdRenderer>(*out->device, out->props, instanced);
    if (!out->bare_renderer->ok()) die(out->bare_renderer->status().toString());
    if (!out->props_renderer->ok()) die(out->props_renderer->status().toString());
    return out;
  }();
  return *s;
}

// What a frame carries: nothing (the bare character), the props alone, or the props and a layer
// on every agent (another clip on the upper body) at weight 1 (re-rooting only) or 0.7 (the
// quaternion blend too).
enum class Load { kBare, kProps, kLayerWhole, kLayerBlended };

// One instanced frame of `agents` seen from above (LODs by the screen-space rule).
void runFrame(benchmark::State& state, Load load) {
  Shared& s = shared();
  const bool props = load != Load::kBare;
  CrowdRenderer& renderer = props ? *s.props_renderer : *s.bare_renderer;
  const Package& package = props ? s.props : s.bare;
  const bench::HashedCrowd crowd =
      bench::hashedCrowd(static_cast<int>(state.range(0)), kSpacing, package);
  const size_t agents = crowd.placements.size();
  std::vector<AgentLayer> layers;
  if (load == Load::kLayerWhole || load == Load::kLayerBlended) {
    layers.resize(agents);
    for (size_t i = 0; i < agents; ++i) {
      AgentLayer& l = layers[i];
      l.active = true;
      l.clip = static_cast<uint16_t>((crowd.playback[i].clip + 1) % package.clips.size());
      l.time = static_cast<float>(i % 89) * 0.01f;
      l.weight = load == Load::kLayerWhole ? 1.0f : 0.7f;
      l.level = 1.0f;
    }
  }
  const float half = crowd.half_side + kSpacing;
  const FrameView view =
      framingView(Bounds{glm::vec3(-half, 0.0f, -half), glm::vec3(half, 1.8f, half)}, 1.0f,
                  CameraFraming{.fit_corners = true});
  CrowdFrame frame{crowd.placements, crowd.playback};
  frame.layers = layers;
  // One frame first: the programs this load needs are compiled at their first use.
  s.device->beginFrame(kClear);
  if (Status st = renderer.draw(view, frame); !st.ok()) die(st.toString());
  s.device->finish();
  for (auto _ : state) {
    s.device->beginFrame(kClear);
    if (Status st = renderer.draw(view, frame); !st.ok()) die(st.toString());
    s.device->finish();
  }
  state.counters["agents"] = static_cast<double>(agents);
  state.counters["draw_calls"] = renderer.stats().draw_calls;
  state.counters["palette_pass"] = renderer.stats().palette_pass ? 1 : 0;
  state.counters["triangles"] = static_cast<double>(renderer.stats().triangles);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> agents = throng::bench::capAgents(
      throng::bench::takeCountsFlag(argc, argv, "--agents=", kDefaultAgents));
  const std::pair<const char*, Load> loads[] = {
      {"BM_InstancedFrameBare", Load::kBare},
      {"BM_InstancedFrameProps", Load::kProps},
      {"BM_InstancedFramePropsAndLayerWhole", Load::kLayerWhole},
      {"BM_InstancedFramePropsAndLayerBlended", Load::kLayerBlended},
  };
  for (const int n : agents) {
    for (const auto& [name, load] : loads) {
      benchmark::RegisterBenchmark(name, [load](benchmark::State& st) { runFrame(st, load); })
          ->Arg(n)
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
