// `throng render`: draw a grid of N characters from a package headless and write a PNG.
#include <algorithm>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "merged_render.h"
#include "throng/core/package.h"
#include "throng/crowd/playback.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/device.h"
#include "throng/render/instanced_renderer.h"

namespace throng::cli {
namespace {

// Frames drawn before timing starts (shader compilation, first uploads and caches warm up).
constexpr int kWarmUpFrames = 3;
// A million agents is far past what a headless software rasterizer draws in reasonable time and
// keeps instance buffers (64 bytes each) under 64 MB.
constexpr int kMaxAgents = 1000000;
// Frame sizes beyond this are refused before asking the driver (it would refuse them anyway).
constexpr int kMaxFrameSide = 16384;

struct RenderArgs {
  std::string package;
  int agents = 100;
  std::string out;
  int width = 640;
  int height = 480;
  std::string clip;
  uint32_t seed = 1;
  std::string path = "instanced";
  int frames = 9;
};

// Index of the clip named `name` (or given as a decimal index); clip 0 when `name` is empty.
Result<int> findClip(const Package& package, const std::string& name) {
  if (package.clips.empty())
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: the package has no clips", package.source));
  if (name.empty()) return 0;
  for (size_t c = 0; c < package.clips.size(); ++c)
    if (package.clips[c].name == name) return static_cast<int>(c);
  if (!name.empty() && std::all_of(name.begin(), name.end(), ::isdigit) && name.size() < 6) {
    const int index = std::stoi(name);
    if (index < static_cast<int>(package.clips.size())) return index;
  }
  std::string names;
  for (const BakedClip& c : package.clips) names += (names.empty() ? "" : ", ") + c.name;
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("no clip '{}' in the package (clips: {})", name, names));
}

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

int runRender(const RenderArgs& args) {
  if (args.path == "merged") {
    // Method A on ES 2.0: the package's LODs in merged batches, palettes from its baked frames.
    MergedRenderOptions merged;
    merged.package = args.package;
    merged.source = "baked";
    merged.agents = args.agents;
    merged.width = args.width;
    merged.height = args.height;
    merged.frames = args.frames;
    merged.out = args.out;
    return runMergedRender(merged);
  }
  if (args.path != "instanced")
    return fail(
        fmt::format("--path {}: this build renders with 'instanced' or 'merged'", args.path));
  if (args.agents < 1 || args.agents > kMaxAgents)
    return fail(fmt::format("--agents {}: must be 1..{}", args.agents, kMaxAgents));
  if (args.width < 1 || args.height < 1 || args.width > kMaxFrameSide ||
      args.height > kMaxFrameSide)
    return fail(fmt::format("--width/--height {}x{}: must be 1..{}", args.width, args.height,
                            kMaxFrameSide));
  if (args.frames < 1) return fail("--frames must be at least 1");

  Result<Package> package = readPackage(args.package);
  if (!package.ok()) return fail(package.status().toString());
  Result<int> clip_index = findClip(*package, args.clip);
  if (!clip_index.ok()) return fail(clip_index.status().toString());
  const BakedClip& clip = package->clips[*clip_index];

  render::DeviceDesc desc;
  desc.width = args.width;
  desc.height = args.height;
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  if (!device.ok()) return fail(device.status().toString());
  Result<std::unique_ptr<render::InstancedRenderer>> renderer =
      render::InstancedRenderer::create(**device, *package);
  if (!renderer.ok()) return fail(renderer.status().toString());

  // A square grid, one character per cell, cells as wide as the clip's footprint allows.
  const Bounds& bounds = clip.bounds;
  const glm::vec3 extent = bounds.size();
  const float footprint = std::max({extent.x, extent.z, 0.3f * extent.y, 1e-3f});
  const float spacing = 1.3f * footprint;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(side - 1);
  std::mt19937 random(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<AgentPlayback> agents(args.agents);
  std::vector<render::Instance> instances(args.agents);
  for (int i = 0; i < args.agents; ++i) {
    agents[i].clip = agents[i].previous_clip = static_cast<uint16_t>(*clip_index);
    agents[i].time = unit(random) * clip.duration;
    render::Instance& instance = instances[i];
    instance.placement.position = glm::vec3(spacing * static_cast<float>(i % side) - half, 0.0f,
                                            spacing * static_cast<float>(i / side) - half);
    // Everyone faces the camera (+Z) give or take 30 degrees.
    instance.placement.heading = (unit(random) - 0.5f) * 1.0471976f;
    instance.tint = glm::vec4(0.55f + 0.45f * unit(random), 0.55f + 0.45f * unit(random),
                              0.55f + 0.45f * unit(random), 1.0f);
  }
  std::vector<InstanceFrames> frames(args.agents);
  PlaybackJob playback{package->clips, agents, frames};
  if (!playback.run()) return fail("playback: the package's clips do not match the agents");
  for (int i = 0; i < args.agents; ++i) instances[i].frames = frames[i];

  const float reach = 0.5f * std::max(extent.x, extent.z);
  const Bounds world{{-half - reach, bounds.min.y, -half - reach},
                     {half + reach, bounds.max.y, half + reach}};
  render::FrameView view;
  view.view_projection = render::framingViewProjection(
      world, static_cast<float>(args.width) / static_cast<float>(args.height));

  std::vector<double> times;
  for (int f = 0; f < kWarmUpFrames + args.frames; ++f) {
    (*device)->beginFrame({0.12f, 0.13f, 0.16f, 1.0f});
    if (Status status = (*renderer)->draw(view, instances); !status.ok())
      return fail(status.toString());
    const double ms = (*device)->finish();
    if (f >= kWarmUpFrames) times.push_back(ms);
  }
  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().toString());
  if (Status status = render::writePng(*image, args.out); !status.ok())
    return fail(status.toString());

  const render::RenderStats& stats = (*renderer)->stats();
  fmt::print("rendered {} agents of '{}' ({}x{}, path {}, {})\n", args.agents, clip.name,
             args.width, args.height, args.path, (*device)->caps().renderer);
  fmt::print("draw calls: {}\ntriangles: {}\n", stats.draw_calls, stats.triangles);
  fmt::print(
      "frame time: {:.3f} ms median of {} frames (min {:.3f}, max {:.3f}; wall clock "
      "around glFinish, after {} warm-up frames)\n",
      median(times), times.size(), *std::min_element(times.begin(), times.end()),
      *std::max_element(times.begin(), times.end()), kWarmUpFrames);
  fmt::print("wrote {}\n", args.out);
  return 0;
}

std::function<int()> setupRender(CLI::App& sub) {
  auto args = std::make_shared<RenderArgs>();
  sub.add_option("package", args->package, "package file (.throng) made by `throng bake`")
      ->required();
  sub.add_option("--agents", args->agents, "number of characters, placed on a square grid")
      ->capture_default_str();
  sub.add_option("--out", args->out, "PNG file to write")->required();
  sub.add_option("--width", args->width, "frame width in pixels")->capture_default_str();
  sub.add_option("--height", args->height, "frame height in pixels")->capture_default_str();
  sub.add_option("--clip", args->clip, "clip name or index (default: the first clip)");
  sub.add_option("--seed", args->seed, "seed of each agent's time, heading and tint")
      ->capture_default_str();
  sub.add_option("--path", args->path,
                 "render path: instanced (ES3) or merged (ES2 merged batches)")
      ->capture_default_str();
  sub.add_option("--frames", args->frames, "timed frames (the median is reported)")
      ->capture_default_str();
  return [args] { return runRender(*args); };
}

const bool kRegistered = registerCommand(
    {"render", "render a crowd from a package headless (OpenGL ES) and write a PNG", setupRender});

}  // namespace
}  // namespace throng::cli
