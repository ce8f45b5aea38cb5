// `throng render INPUT`: a grid of agents playing one clip, drawn headless through the crowd
// front end on any render path, written as a PNG.
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "throng/crowd/crowd.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::cli {
namespace {

// The crowd advances this much between drawn frames (a 30 Hz game tick).
constexpr float kFrameSeconds = 1.0f / 30.0f;
// Headings are spread this far (radians) either side of facing the camera (+Z).
constexpr float kHeadingSpread = 0.5235988f;

struct RenderArgs {
  std::string input;
  int agents = 100;
  std::string clip;
  uint32_t seed = 1;
  int frames = 1;
  FrontendArgs frontend;
};

int runRender(const RenderArgs& args) {
  // Usage first: everything that needs no input.
  Result<FrontendChoice> choice = checkFrontendArgs(args.frontend);
  if (!choice.ok()) return usageError(choice.status().message());
  for (const std::string& message : {checkRange("--agents", args.agents, 1, kMaxAgents),
                                     checkRange("--frames", args.frames, 1, kMaxFrames)}) {
    if (!message.empty()) return usageError(message);
  }
  Result<CrowdInput> input = loadCrowdInput(args.input);
  if (!input.ok()) return fail(input.status().message());
  for (const std::string& w : input->warnings) fmt::print(stderr, "throng: warning: {}\n", w);
  const Package& package = input->package;
  const int clip_index = args.clip.empty() ? 0 : findClip(package.clips, args.clip);
  if (clip_index < 0) {
    return usageError(fmt::format("--clip {}: no such clip in {} (clips: {})", args.clip,
                                  input->name, clipList(package.clips)));
  }
  if (const std::string message = checkLod(choice->lod, *input); !message.empty()) {
    return usageError(message);
  }
  const BakedClip& clip = package.clips[clip_index];

  // Every agent idles in place, and idling plays the chosen clip: the crowd advances their times.
  ClipSet clip_set;
  clip_set.state_clip.fill(static_cast<uint16_t>(clip_index));
  Crowd crowd(package.clips, clip_set);
  // A square grid, one character per cell, cells as wide as the clip's footprint allows.
  const glm::vec3 extent = clip.bounds.size();
  const float footprint = std::max({extent.x, extent.z, 0.3f * extent.y, 1e-3f});
  const float spacing = 1.3f * footprint;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(side - 1);
  std::mt19937 random(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<glm::vec4> tints(args.agents);
  for (int i = 0; i < args.agents; ++i) {
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % side) - half, 0.0f,
                           spacing * static_cast<float>(i / side) - half);
    p.heading = (2.0f * unit(random) - 1.0f) * kHeadingSpread;
    const float start = unit(random) * clip.duration;
    crowd.addAgent(p, start);
    tints[i] = glm::vec4(0.55f + 0.45f * unit(random), 0.55f + 0.45f * unit(random),
                         0.55f + 0.45f * unit(random), 1.0f);
  }
  const float rows = static_cast<float>((args.agents + side - 1) / side);
  const glm::vec2 low(-half, -half);
  const glm::vec2 high(half, spacing * (rows - 1.0f) - half);

  Result<std::unique_ptr<render::Device>> device =
      createDevice(choice->path, args.frontend.width, args.frontend.height);
  if (!device.ok()) return fail(device.status().message());
  if (!(*device)->caps().rasterizes) {
    fmt::print(stderr,
               "warning: the GL renderer is Mesa's no-op driver ('{}', GALLIUM_NOOP): nothing is "
               "rasterised, the image will be blank and frame times leave out the GPU's work\n",
               (*device)->caps().renderer);
  }
  render::CrowdRendererDesc desc;
  desc.path = choice->path;
  desc.fixed_lod = choice->lod;
  desc.tint = choice->tint;
  render::FrameView view =
      crowdView(choice->street, low, high, input->size,
                static_cast<float>(args.frontend.width) / static_cast<float>(args.frontend.height));
  addScenery(view, desc, low, high, input->size);
  render::CrowdRenderer renderer(**device, package, desc);
  if (!renderer.ok()) return fail(renderer.status().message());

  FrameReport report{&*input, device->get(), &renderer, {}, args.frontend.out};
  // Frame 0 is drawn twice: the first draw pays for shader compilation and first uploads and is
  // not reported. Later frames each follow a crowd update of 1/30 s.
  for (int f = -1; f < args.frames; ++f) {
    if (f > 0) renderer.update(crowd, kFrameSeconds);
    (*device)->beginFrame(kFogColor);
    if (Status s = renderer.draw(view, crowd, tints); !s.ok()) return fail(s.message());
    const double ms = (*device)->finish();
    if (f >= 0) report.frame_ms.push_back(ms);
  }
  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, args.frontend.out); !s.ok()) return fail(s.message());

  if (args.frontend.json) {
    nlohmann::json json = reportJson(report);
    json["clip"] = clip.name;
    json["seed"] = args.seed;
    json["view"] = args.frontend.view;
    fmt::print("{}\n", json.dump());
    return 0;
  }
  fmt::print("input: {} ({}: {} clips, {} LODs)\n", input->name, input->how, package.clips.size(),
             package.lods.size());
  fmt::print("agents: {} playing '{}' (clip {}), seed {}, {} view\n", args.agents, clip.name,
             clip_index, args.seed, args.frontend.view);
  printReport(report);
  return 0;
}

std::function<int()> setupRender(CLI::App& sub) {
  auto args = std::make_shared<RenderArgs>();
  sub.add_option("input", args->input,
                 "a package (.throng), a character (.glb/.gltf, baked in memory) or 'sample'")
      ->required();
  sub.add_option("--agents", args->agents, "number of characters, on a square grid")
      ->capture_default_str();
  sub.add_option("--clip", args->clip, "clip every agent plays, by name or index (default: 0)");
  sub.add_option("--seed", args->seed, "seed of each agent's start time, heading and tint")
      ->capture_default_str();
  sub.add_option("--frames", args->frames,
                 "frames drawn 1/30 s apart, after one untimed warm-up draw (the last is "
                 "written; the median time is reported)")
      ->capture_default_str();
  args->frontend.out = "crowd.png";
  addFrontendOptions(sub, args->frontend);
  return [args] { return runRender(*args); };
}

const bool kRegistered = registerCommand(
    {"render", "draw a crowd playing one clip headless (any render path) and write a PNG",
     setupRender});

}  // namespace
}  // namespace throng::cli
