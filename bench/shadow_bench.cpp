// What shadows cost on every render path, in one process: a whole frame (with glFinish) with the
// shadow map, with blob shadows and without shadows, and the shadow map's depth pass alone
// (CrowdRenderer::drawDepth into a 2048² depth texture from the frame's own light view) against
// the colour pass (the frame without shadows). Ratios within a path at the end (medians with
// --benchmark_repetitions). On llvmpipe fragment work dominates; the figures go in
// docs/benchmarks.md.
#include <cstdio>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include <GLES3/gl3.h>
#include <benchmark/benchmark.h>
#include <fmt/core.h>

#include "bench_support.h"
#include "throng/crowd/agent_grid.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::render {
namespace {

using bench::CameraKind;
using bench::cameraName;
using bench::capAgents;
using bench::die;
using bench::kCameras;
using bench::take;
using bench::takeCountsFlag;

// The frame of docs/benchmarks.md's CLI rows: 640x480; the crowd framed from above (overview) and
// seen from its front row (street), where shadows cover the most pixels.
constexpr int kFrameWidth = 640;
constexpr int kFrameHeight = 480;
// Crowd sizes run when --agents is not given (the 10,000).
constexpr int kDefaultAgents[] = {10000};
// Grid spacing in multiples of the character's size (the demo's).
constexpr float kGridSpacing = 1.1f;
// The depth pass's target: CrowdRendererDesc::shadow_map_size's default.
constexpr int kShadowMapSize = 2048;
const glm::vec4 kClear(0.12f, 0.13f, 0.16f, 1.0f);
// The image check before timing: blob and mapped shadows each darken at least this share of the
// frame against the frame without shadows.
constexpr double kMinShadowedShare = 0.005;

constexpr RenderPath kPaths[] = {RenderPath::kPerCharacter, RenderPath::kMerged,
                                 RenderPath::kInstanced, RenderPath::kGpu};
constexpr ShadowMode kModes[] = {ShadowMode::kOff, ShadowMode::kBlob, ShadowMode::kMap};

struct Shared {
  std::unique_ptr<Device> device;
  Character character;
  Package package;
  std::map<RenderPath, std::unique_ptr<CrowdRenderer>> renderers;
  GLuint depth_texture = 0, depth_framebuffer = 0;
  std::set<std::pair<RenderPath, ShadowMode>> drawn;  // the modes each path draws as asked
};

Shared& shared() {
  static Shared* s = [] {
    auto* out = new Shared();
    DeviceDesc desc;
    desc.gles_major = 3;
    desc.gles_minor = 1;  // the gpu path's compute
    desc.width = kFrameWidth;
    desc.height = kFrameHeight;
    out->device = take(Device::createHeadless(desc), "ES 3.1 headless device");
    out->character = makeSampleCharacter();
    out->package = take(bakeCharacter(out->character, BakeOptions{}), "bake");
    out->package.lods =
        take(buildLodChain(out->character, defaultLodChainOptions()), "default LOD chain");
    for (RenderPath path : kPaths) {
      CrowdRendererDesc d;
      d.path = path;
      d.shadow_map_size = kShadowMapSize;
      d.ground.grid = true;  // the shadows fall on it, as in the CLI's frames
      auto renderer = std::make_unique<CrowdRenderer>(*out->device, out->package, d);
      if (!renderer->ok()) {
        die(std::string(renderPathName(path)) + ": " + renderer->status().toString());
      }
      out->renderers[path] = std::move(renderer);
    }
    glGenTextures(1, &out->depth_texture);
    glBindTexture(GL_TEXTURE_2D, out->depth_texture);
    glTexImage2D(GL_TEXTURE_2D, 0, GL_DEPTH_COMPONENT24, kShadowMapSize, kShadowMapSize, 0,
                 GL_DEPTH_COMPONENT, GL_UNSIGNED_INT, nullptr);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
    glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
    glGenFramebuffers(1, &out->depth_framebuffer);
    glBindFramebuffer(GL_FRAMEBUFFER, out->depth_framebuffer);
    glFramebufferTexture2D(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_TEXTURE_2D, out->depth_texture,
                           0);
    const GLenum none = GL_NONE;
    glDrawBuffers(1, &none);
    if (glCheckFramebufferStatus(GL_FRAMEBUFFER) != GL_FRAMEBUFFER_COMPLETE) {
      die("the depth pass's framebuffer is incomplete");
    }
    glBindFramebuffer(GL_FRAMEBUFFER, 0);
    const Caps& caps = out->device->caps();
    std::printf("device: %s | %s | %dx%d frame, %d² shadow map\n", caps.renderer.c_str(),
                caps.version.c_str(), kFrameWidth, kFrameHeight, kShadowMapSize);
    return out;
  }();
  return *s;
}

// A crowd on a square grid, each agent on its own clip and frame, seen from one camera.
struct Scene {
  int agents = 0;
  CameraKind camera = CameraKind::kOverview;
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  FrameView view;
};

Scene makeScene(int agents, CameraKind camera) {
  Shared& s = shared();
  Scene scene;
  scene.agents = agents;
  scene.camera = camera;
  const float size = s.character.size();
  bench::HashedCrowd crowd = bench::hashedCrowd(agents, kGridSpacing * size, s.package);
  scene.placements = std::move(crowd.placements);
  scene.playback = std::move(crowd.playback);
  scene.view = bench::crowdView(camera, crowd.half_side, kGridSpacing * size, size,
                                static_cast<float>(kFrameWidth) / kFrameHeight);
  return scene;
}

CrowdFrame frameOf(const Scene& scene) {
  return CrowdFrame{scene.placements, scene.playback, {}};
}

// One whole frame of `path` with `mode`, finished.
void drawFrame(RenderPath path, ShadowMode mode, const Scene& scene) {
  Shared& s = shared();
  CrowdRenderer& renderer = *s.renderers.at(path);
  renderer.setShadows(mode);
  s.device->beginFrame(kClear);
  if (Status st = renderer.draw(scene.view, frameOf(scene)); !st.ok()) {
    die(std::string(renderPathName(path)) + ": " + st.toString());
  }
  s.device->finish();
}

// The depth pass alone, from the light view the last map frame of `path` used, finished.
void drawDepthPass(RenderPath path, const Scene& scene) {
  Shared& s = shared();
  CrowdRenderer& renderer = *s.renderers.at(path);
  glBindFramebuffer(GL_FRAMEBUFFER, s.depth_framebuffer);
  glViewport(0, 0, kShadowMapSize, kShadowMapSize);
  glEnable(GL_DEPTH_TEST);
  glDepthMask(GL_TRUE);
  glClear(GL_DEPTH_BUFFER_BIT);
  if (Status st = renderer.drawDepth(renderer.shadowView(), frameOf(scene)); !st.ok()) {
    die(std::string(renderPathName(path)) + " depth pass: " + st.toString());
  }
  s.device->finish();
  glBindFramebuffer(GL_FRAMEBUFFER, 0);
}

// Not timed: on every path the map's shadows and the blobs darken the ground against the frame
// without shadows (so the crowd is in view, and each mode draws what it says).
void checkImages(const Scene& scene) {
  Shared& s = shared();
  for (RenderPath path : kPaths) {
    drawFrame(path, ShadowMode::kOff, scene);
    const Image off = take(s.device->readPixels(), "read back");
    if (s.renderers.at(path)->shadows() != ShadowMode::kOff) die("shadows off were not off");
    double shares[2] = {0.0, 0.0};
    for (ShadowMode mode : {ShadowMode::kBlob, ShadowMode::kMap}) {
      drawFrame(path, mode, scene);
      const Image image = take(s.device->readPixels(), "read back");
      if (s.renderers.at(path)->shadows() != mode) {
        // Said, and left out of the timings below: a path that draws another mode than asked
        // would be timed as what it is not.
        std::printf("NOTE: %s: asked for %s shadows, draws %s (%s): not timed\n",
                    renderPathName(path), shadowModeName(mode),
                    shadowModeName(s.renderers.at(path)->shadows()),
                    s.renderers.at(path)->shadowReason().c_str());
        continue;
      }
      s.drawn.insert({path, mode});
      int64_t darker = 0;
      for (size_t px = 0; px < off.rgba.size(); px += 4)
        darker += image.rgba[px] + 8 < off.rgba[px];
      const double share = static_cast<double>(darker) / static_cast<double>(off.rgba.size() / 4);
      shares[mode == ShadowMode::kMap] = share;
      if (share < kMinShadowedShare) {
        die(std::string(renderPathName(path)) + ": " + shadowModeName(mode) +
            " shadows darken nothing");
      }
    }
    std::printf(
        "%s, %d agents, %s: blob shadows darken %.1f%%, the shadow map %.1f%% of the frame\n",
        renderPathName(path), scene.agents, cameraName(scene.camera), 100.0 * shares[0],
        100.0 * shares[1]);
  }
}

// Medians (or single runs) by (agents, path) and row name, for the ratios at the end.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    ConsoleReporter::ReportRuns(runs);
    for (const Run& run : runs) {
      const bool median = run.run_type == Run::RT_Aggregate && run.aggregate_name == "median";
      if (run.run_type != Run::RT_Iteration && !median) continue;
      // "BM_<row>/<path>/<agents>/<camera>/real_time..."
      const std::string name = run.benchmark_name();
      const size_t a = name.find('/'), b = name.find('/', a + 1), c = name.find('/', b + 1);
      const size_t d = name.find('/', c + 1);
      const std::string key = name.substr(b + 1, c - b - 1) + " " + name.substr(c + 1, d - c - 1) +
                              ", " + name.substr(a + 1, b - a - 1);
      auto& slot = ms_[key][name.substr(3, a - 3)];
      if (median || slot.first == 0.0) slot = {run.GetAdjustedRealTime(), median};
    }
  }
  void Finalize() override {
    ConsoleReporter::Finalize();
    std::printf("\nratios within each path (same run):\n");
    std::printf("%-32s %12s %12s %12s %14s\n", "", "map / blob", "map / off", "blob / off",
                "depth / colour");
    for (const auto& [key, rows] : ms_) {
      auto at = [&](const char* row) {
        const auto it = rows.find(row);
        return it == rows.end() ? 0.0 : it->second.first;
      };
      const double off = at("FrameOff"), blob = at("FrameBlob"), map = at("FrameMap");
      const double depth = at("DepthPass");
      auto ratio = [](double a, double b) {
        return a > 0.0 && b > 0.0 ? fmt::format("{:.2f}x", a / b) : std::string("-");
      };
      std::printf("%-32s %12s %12s %12s %14s\n", key.c_str(), ratio(map, blob).c_str(),
                  ratio(map, off).c_str(), ratio(blob, off).c_str(), ratio(depth, off).c_str());
    }
  }

 private:
  std::map<std::string, std::map<std::string, std::pair<double, bool>>> ms_;
};

const char* rowName(ShadowMode mode) {
  return mode == ShadowMode::kOff    ? "FrameOff"
         : mode == ShadowMode::kBlob ? "FrameBlob"
                                     : "FrameMap";
}

}  // namespace
}  // namespace throng::render

int main(int argc, char** argv) {
  using namespace throng::render;
  const std::vector<int> agents =
      capAgents(takeCountsFlag(argc, argv, "--agents=", kDefaultAgents));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  std::vector<std::pair<int, CameraKind>> runs;
  for (int n : agents) {
    for (CameraKind camera : kCameras) runs.push_back({n, camera});
  }
  static std::map<std::pair<int, CameraKind>, Scene> scenes;
  for (const auto& [n, camera] : runs) {
    const Scene& scene = scenes.emplace(std::pair{n, camera}, makeScene(n, camera)).first->second;
    checkImages(scene);
    for (RenderPath path : kPaths) {
      const std::string suffix = std::string("/") + renderPathName(path) + "/" + std::to_string(n) +
                                 "/" + cameraName(camera);
      for (ShadowMode mode : kModes) {
        if (mode != ShadowMode::kOff && shared().drawn.count({path, mode}) == 0) continue;
        benchmark::RegisterBenchmark((std::string("BM_") + rowName(mode) + suffix).c_str(),
                                     [path, mode, &scene](benchmark::State& state) {
                                       for (auto _ : state) drawFrame(path, mode, scene);
                                     })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
      if (shared().drawn.count({path, ShadowMode::kMap}) == 0) continue;
      benchmark::RegisterBenchmark(("BM_DepthPass" + suffix).c_str(),
                                   [path, &scene](benchmark::State& state) {
                                     drawFrame(path, ShadowMode::kMap, scene);  // its light view
                                     for (auto _ : state) drawDepthPass(path, scene);
                                   })
          ->Unit(benchmark::kMillisecond)
          ->UseRealTime();
    }
  }
  std::fflush(stdout);
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  benchmark::Shutdown();
  return 0;
}
