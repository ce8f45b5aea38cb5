// What impostors save at run time, in one process, on one path that draws them (instanced, or
// gpu with --path gpu, merged with --path merged on an ES 2.0 context, per-character with
// --path per-character): a whole overview frame (with glFinish) of a crowd drawn mesh-only
// (impostors off), with the LOD rule picking the impostor by its error (auto), and with every agent
// an impostor (the floor), at each crowd size: median frame time of --repeats frames, triangles,
// impostor agents, and the share of pixels differing from the mesh-only picture (both averaged over
// 4x4 blocks; a pixel differs when a channel moves by more than 16/255, the measure). The
// sample character is baked with its default LOD chain and bakeImpostors' defaults (or --package P:
// a package with an impostor). Figures go in docs/benchmarks.md.
//
//   impostor_draw_bench [--agents=10000,100000] [--repeats 3]
//                       [--path instanced|gpu|merged|per-character]
//                       [--view overview|street] [--package P] [--png-dir D]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "bench_support.h"
#include "throng/core/package_format.h"
#include "throng/impostor/impostor_bake.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::render {
namespace {

constexpr int kFrameWidth = 640;
constexpr int kFrameHeight = 480;
constexpr int kDefaultAgents[] = {10000, 100000};
constexpr int kDefaultRepeats = 3;
constexpr float kGridSpacing = 1.1f;  // character sizes (the other crowd benches')
const glm::vec4 kClear(0.12f, 0.13f, 0.16f, 1.0f);
// The picture measure: 4x4 block averages, a channel moving by more than 16/255.
constexpr int kBlock = 4;
constexpr int kChannelThreshold = 16;

enum class Mode { kMeshOnly, kAuto, kAllImpostors };
const char* modeName(Mode m) {
  return m == Mode::kMeshOnly ? "mesh only"
         : m == Mode::kAuto   ? "impostors (auto)"
                              : "all impostors";
}

// Share of pixels whose 4x4 block average differs in some channel by more than the threshold.
double differingShare(const Image& a, const Image& b) {
  int64_t differing = 0;
  for (int by = 0; by + kBlock <= a.height; by += kBlock) {
    for (int bx = 0; bx + kBlock <= a.width; bx += kBlock) {
      int sum[2][3] = {};
      for (int y = by; y < by + kBlock; ++y) {
        for (int x = bx; x < bx + kBlock; ++x) {
          const size_t p = (static_cast<size_t>(y) * a.width + x) * 4;
          for (int k = 0; k < 3; ++k) {
            sum[0][k] += a.rgba[p + k];
            sum[1][k] += b.rgba[p + k];
          }
        }
      }
      bool differs = false;
      for (int k = 0; k < 3; ++k)
        differs |= std::abs(sum[0][k] - sum[1][k]) > kChannelThreshold * kBlock * kBlock;
      differing += differs ? kBlock * kBlock : 0;
    }
  }
  return static_cast<double>(differing) / (static_cast<double>(a.width) * a.height);
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
}

struct Row {
  double ms = 0.0;
  double cpu_ms = 0.0;  // the renderer's CPU phases of the frame (median), the main thread's
  uint64_t triangles = 0;
  uint32_t impostors = 0;
  uint32_t visible = 0;
  double differing = 0.0;
};

int run(int argc, char** argv) {
  std::vector<int> agents = bench::takeCountsFlag(argc, argv, "--agents=", kDefaultAgents);
  agents = bench::capAgents(agents);
  int repeats = kDefaultRepeats;
  std::string package_path, png_dir;
  RenderPath path = RenderPath::kInstanced;
  bench::CameraKind camera = bench::CameraKind::kOverview;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string flag = argv[i];
    if (flag == "--repeats")
      repeats = std::max(1, std::atoi(argv[i + 1]));
    else if (flag == "--package")
      package_path = argv[i + 1];
    else if (flag == "--png-dir")
      png_dir = argv[i + 1];
    else if (flag == "--view") {
      const std::string v = argv[i + 1];
      if (v != "overview" && v != "street") bench::die("--view: overview or street");
      camera = v == "street" ? bench::CameraKind::kStreet : bench::CameraKind::kOverview;
    } else if (flag == "--path")
      path = renderPathFromName(argv[i + 1]).value_or(RenderPath::kAuto);
    else
      bench::die("unknown flag " + flag);
  }
  Package package;
  if (!package_path.empty()) {
    package = bench::take(readPackage(package_path), "package");
  } else {
    const Character character = makeSampleCharacter();
    package = bench::take(bakeCharacter(character, BakeOptions{}), "bake");
    package.lods = bench::take(buildLodChain(character, defaultLodChainOptions()), "LOD chain");
    package.impostor = bench::take(impostor::bakeImpostors(package), "impostor bake");
  }
  if (package.impostor.empty()) bench::die("the package has no impostor");
  const float size = computeBounds(package.lods[0].mesh.positions).largestExtent();

  if (path != RenderPath::kInstanced && path != RenderPath::kGpu && path != RenderPath::kMerged &&
      path != RenderPath::kPerCharacter) {
    bench::die("--path: instanced, gpu, merged or per-character");
  }
  DeviceDesc desc;
  desc.gles_minor = path == RenderPath::kGpu ? 1 : 0;
  if (path == RenderPath::kMerged) desc.gles_major = 2;  // the path of ES 2.0 / WebGL 1 devices
  desc.width = kFrameWidth;
  desc.height = kFrameHeight;
  std::unique_ptr<Device> device = bench::take(Device::createHeadless(desc), "device");
  const int impostor_lod = static_cast<int>(package.lods.size());
  std::unique_ptr<CrowdRenderer> renderers[3];
  for (Mode m : {Mode::kMeshOnly, Mode::kAuto, Mode::kAllImpostors}) {
    CrowdRendererDesc d;
    d.path = path;
    d.impostors = m != Mode::kMeshOnly;
    if (m == Mode::kAllImpostors) d.fixed_lod = impostor_lod;
    auto r = std::make_unique<CrowdRenderer>(*device, package, d);
    if (!r->ok()) bench::die(r->status().toString());
    if (r->path() != path) bench::die(fmt::format("drew the {} path", renderPathName(r->path())));
    if (d.impostors && r->impostorLod() < 0) bench::die(r->impostorReason());
    renderers[static_cast<int>(m)] = std::move(r);
  }
  const Caps& caps = device->caps();
  // Mesa's no-op driver draws nothing: the frame is the CPU's, and the pictures are blank.
  const char* noop_env = std::getenv("GALLIUM_NOOP");
  const bool noop = noop_env != nullptr && std::string(noop_env) != "0";
  std::printf("device: %s | %s | %dx%d, %s path, %s, %d repeats (median)%s\n",
              caps.renderer.c_str(), caps.version.c_str(), kFrameWidth, kFrameHeight,
              renderPathName(path), bench::cameraName(camera), repeats,
              noop ? ", GALLIUM_NOOP: nothing rasterised, pictures blank and not compared" : "");
  std::printf(
      "impostor: %ux%u views, %u frames, %ux%u tiles, max error %.3f model units (%.1f%% of "
      "the height)\n",
      package.impostor.azimuths, package.impostor.elevations, package.impostor.frameCount(),
      package.impostor.tile_width, package.impostor.tile_height, package.impostor.max_error,
      100.0 * package.impostor.max_error / size);
  for (int n : agents) {
    const bench::HashedCrowd crowd = bench::hashedCrowd(n, kGridSpacing * size, package);
    const FrameView view = bench::crowdView(camera, crowd.half_side, kGridSpacing * size, size,
                                            static_cast<float>(kFrameWidth) / kFrameHeight);
    const CrowdFrame frame{crowd.placements, crowd.playback, {}};
    Row rows[3];
    Image pictures[3];
    for (Mode m : {Mode::kMeshOnly, Mode::kAuto, Mode::kAllImpostors}) {
      CrowdRenderer& r = *renderers[static_cast<int>(m)];
      std::vector<double> ms, cpu_ms;
      for (int i = 0; i <= repeats; ++i) {  // the first is an untimed warm-up
        const auto start = std::chrono::steady_clock::now();
        device->beginFrame(kClear);
        if (Status s = r.draw(view, frame); !s.ok()) bench::die(s.toString());
        device->finish();
        const double t =
            std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start)
                .count();
        const CpuPhaseTimes& c = r.stats().cpu_ms;
        if (i > 0) {
          ms.push_back(t);
          cpu_ms.push_back(c.update + c.playback + c.cull + c.lod + c.pack_upload + c.submit +
                           c.ground + c.shadow);
        }
      }
      Row& row = rows[static_cast<int>(m)];
      row.ms = median(ms);
      row.cpu_ms = median(cpu_ms);
      row.triangles = r.stats().triangles;
      row.visible = r.stats().visible;
      row.impostors = r.impostorLod() >= 0 ? r.stats().agents_per_lod[r.impostorLod()] : 0;
      pictures[static_cast<int>(m)] = bench::take(device->readPixels(), "read back");
      if (!png_dir.empty()) {
        const char* tag = m == Mode::kMeshOnly ? "mesh" : m == Mode::kAuto ? "auto" : "impostors";
        (void)writePng(
            pictures[static_cast<int>(m)],
            fmt::format("{}/impostor_draw_{}_{}_{}.png", png_dir, renderPathName(path), n, tag));
      }
    }
    for (Mode m : {Mode::kMeshOnly, Mode::kAuto, Mode::kAllImpostors}) {
      Row& row = rows[static_cast<int>(m)];
      row.differing = noop ? 0.0 : differingShare(pictures[0], pictures[static_cast<int>(m)]);
      std::printf(
          "%7d agents  %-17s %9.1f ms (x%.2f faster)  cpu %8.2f ms (x%.2f)  %12llu triangles "
          "(%.3f%%)  %6u of %u visible impostors  %s pixels differ\n",
          n, modeName(m), row.ms, rows[0].ms / row.ms, row.cpu_ms, rows[0].cpu_ms / row.cpu_ms,
          static_cast<unsigned long long>(row.triangles),
          100.0 * static_cast<double>(row.triangles) / static_cast<double>(rows[0].triangles),
          row.impostors, row.visible,
          noop ? "(not compared)" : fmt::format("{:.3f}%", 100.0 * row.differing).c_str());
    }
  }
  return 0;
}

}  // namespace
}  // namespace throng::render

int main(int argc, char** argv) {
  return throng::render::run(argc, argv);
}
