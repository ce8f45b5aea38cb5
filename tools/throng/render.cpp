// `throng render INPUT`: a grid of agents playing one clip, drawn headless through the crowd
// front end on any render path, written as a PNG.
#include <algorithm>
#include <array>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "throng/crowd/character_gather.h"
#include "throng/crowd/crowd.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::cli {
namespace {

// The crowd advances this much between drawn frames (a 30 Hz game tick).
constexpr float kFrameSeconds = 1.0f / 30.0f;
// Headings are spread this far (radians) either side of facing the camera (+Z).
constexpr float kHeadingSpread = 0.5235988f;

// A mixed crowd's characters: one renderer each, and each agent names its character in 16 bits.
constexpr size_t kMaxInputs = 64;
// Appearance variants: each agent's tint, multiplying its character's colours.
constexpr std::array<glm::vec4, 8> kVariantTints = {
    glm::vec4(1.00f, 1.00f, 1.00f, 1.0f), glm::vec4(1.00f, 0.62f, 0.55f, 1.0f),
    glm::vec4(0.60f, 0.80f, 1.00f, 1.0f), glm::vec4(0.65f, 1.00f, 0.65f, 1.0f),
    glm::vec4(1.00f, 0.90f, 0.50f, 1.0f), glm::vec4(0.85f, 0.65f, 1.00f, 1.0f),
    glm::vec4(0.55f, 1.00f, 0.95f, 1.0f), glm::vec4(0.80f, 0.75f, 0.70f, 1.0f),
};

struct RenderArgs {
  std::vector<std::string> inputs;
  int agents = 100;
  std::string clip;
  uint32_t seed = 1;
  int frames = 1;
  bool events = false;
  FrontendArgs frontend;
  ClipArgs clips;
};

// One input of a (mixed) crowd: its character, the clip its agents play and its renderer.
struct RenderInput {
  CrowdInput input;
  int clip = 0;
  float scale = 1.0f;  // of its agents, so that every character stands as tall
  std::optional<render::CrowdRenderer> renderer;
  // This character's agents, gathered each frame (CharacterGatherJob).
  std::vector<Placement> placements;
  std::vector<AgentPlayback> playback;
  std::vector<glm::vec4> tints;
  std::vector<uint32_t> agents;
  uint32_t count = 0;
};

// The clip `args` asks for in `input`: --clip, else a --clips map's idle clip, else clip 0; -1
// when --clip names a clip the input lacks. Exit code (2) in *usage when the map is bad.
int pickClip(const RenderArgs& args, CrowdInput& input, int* usage) {
  if (!args.clip.empty()) return findClip(input.package.clips, args.clip);
  if (args.clips.clips.empty()) return 0;
  Result<ClipSet> clip_set = crowdClipSet(input, args.clips.clips);
  if (!clip_set.ok()) {
    *usage = usageError("--clips: " + clip_set.status().message());
    return -1;
  }
  return clip_set->state_clip[static_cast<int>(AgentState::kIdle)];
}

int runRender(const RenderArgs& args) {
  // Usage first: everything that needs no input.
  Result<FrontendChoice> choice = checkFrontendArgs(args.frontend);
  if (!choice.ok()) return usageError(choice.status().message());
  for (const std::string& message : {checkRange("--agents", args.agents, 1, kMaxAgents),
                                     checkRange("--frames", args.frames, 1, kMaxFrames)}) {
    if (!message.empty()) return usageError(message);
  }
  if (args.inputs.size() > kMaxInputs) {
    return usageError(
        fmt::format("{} inputs: at most {} characters per crowd", args.inputs.size(), kMaxInputs));
  }
  std::vector<RenderInput> inputs(args.inputs.size());
  float size = 0.0f;
  float footprint = 1e-3f;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Result<CrowdInput> input = loadCrowdInput(args.inputs[i], {}, args.clips.clips_from);
    if (!input.ok()) return fail(input.status().message());
    inputs[i].input = std::move(input).value();
    CrowdInput& in = inputs[i].input;
    int usage = 0;
    inputs[i].clip = pickClip(args, in, &usage);
    if (usage != 0) return usage;
    for (const std::string& w : in.warnings) fmt::print(stderr, "throng: warning: {}\n", w);
    if (inputs[i].clip < 0) {
      return usageError(fmt::format("--clip {}: no such clip in {} (clips: {})", args.clip, in.name,
                                    clipList(in.package.clips)));
    }
    if (const std::string message = checkLod(choice->lod, in); !message.empty()) {
      return usageError(message);
    }
    size = std::max(size, in.size);
  }
  // Characters authored in other units stand as tall as the largest one (Placement::scale), on
  // a square grid, one per cell, cells as wide as the widest scaled clip's footprint.
  for (RenderInput& in : inputs) {
    in.scale = size / in.input.size;
    const glm::vec3 extent = in.scale * in.input.package.clips[in.clip].bounds.size();
    footprint = std::max({footprint, extent.x, extent.z, 0.3f * extent.y});
  }

  // Every agent idles in place, and idling plays its character's chosen clip: the crowd advances
  // their times. Agent i is of character i % inputs.
  std::vector<CrowdCharacter> characters;
  for (const RenderInput& in : inputs) {
    ClipSet clip_set;
    clip_set.state_clip.fill(static_cast<uint16_t>(in.clip));
    characters.push_back({in.input.package.clips, clip_set});
  }
  Crowd crowd(characters);
  const float spacing = 1.3f * footprint;
  const int side = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(side - 1);
  std::mt19937 random(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  std::vector<glm::vec4> tints(args.agents);
  for (int i = 0; i < args.agents; ++i) {
    const uint16_t character = static_cast<uint16_t>(i % static_cast<int>(inputs.size()));
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % side) - half, 0.0f,
                           spacing * static_cast<float>(i / side) - half);
    p.heading = (2.0f * unit(random) - 1.0f) * kHeadingSpread;
    p.scale = inputs[character].scale;
    const float start =
        unit(random) * inputs[character].input.package.clips[inputs[character].clip].duration;
    // The appearance variant: one of the variant tints, multiplying the character's colours.
    const uint16_t variant = static_cast<uint16_t>(random() % kVariantTints.size());
    crowd.addAgent(p, start, character, variant);
    tints[i] = kVariantTints[variant];
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
  desc.lod_threshold_pixels = choice->lod_threshold;
  desc.lod_tint = args.frontend.lod_tint;
  desc.tint = choice->tint;
  desc.palette_pass = choice->palette_pass;
  render::FrameView view =
      crowdView(choice->street, low, high, size,
                static_cast<float>(args.frontend.width) / static_cast<float>(args.frontend.height));
  addScenery(view, desc, low, high, size);
  for (RenderInput& in : inputs) {
    in.renderer.emplace(**device, in.input.package, desc);
    if (!in.renderer->ok()) return fail(in.renderer->status().message());
    desc.ground.grid = false;  // one ground under the crowd; every character has its shadows
    in.placements.resize(args.agents);
    in.playback.resize(args.agents);
    in.tints.resize(args.agents);
    in.agents.resize(args.agents);
  }

  std::vector<double> frame_ms;
  // --events: every update's crossings, by frame (printed after the report).
  std::vector<std::string> event_lines;
  nlohmann::json event_json = nlohmann::json::array();
  // Frame 0 is drawn twice: the first draw pays for shader compilation and first uploads and is
  // not reported. Later frames each follow a crowd update of 1/30 s (timed by the first
  // character's renderer).
  for (int f = -1; f < args.frames; ++f) {
    if (f > 0) inputs[0].renderer->update(crowd, kFrameSeconds);
    if (f > 0 && args.events) {
      for (const EventHit& hit : crowd.events()) {
        const uint16_t character = crowd.agentCharacters()[hit.agent];
        const BakedClip& hit_clip = crowd.clips(character)[hit.clip];
        const ClipEvent& event = hit_clip.events[hit.event];
        event_lines.push_back(
            fmt::format("frame {}: agent {} '{}' (clip '{}' at {:.3f} s, weight {:.2f})", f,
                        hit.agent, event.name, hit_clip.name, event.time, hit.weight));
        event_json.push_back({{"frame", f},
                              {"agent", hit.agent},
                              {"character", inputs[character].input.name},
                              {"event", event.name},
                              {"clip", hit_clip.name},
                              {"time", event.time},
                              {"weight", hit.weight}});
      }
    }
    (*device)->beginFrame(kFogColor);
    for (size_t c = 0; c < inputs.size(); ++c) {
      RenderInput& in = inputs[c];
      const CharacterGatherJob gather{static_cast<uint16_t>(c),
                                      crowd.agentCharacters(),
                                      crowd.placements(),
                                      crowd.playback(),
                                      tints,
                                      in.placements,
                                      in.playback,
                                      in.tints,
                                      in.agents,
                                      &in.count};
      if (!gather.run()) return fail("internal error: the agents could not be gathered");
      const render::CrowdFrame frame{std::span(in.placements).first(in.count),
                                     std::span(in.playback).first(in.count),
                                     std::span(in.tints).first(in.count)};
      if (Status s = in.renderer->draw(view, frame); !s.ok()) return fail(s.message());
    }
    const double ms = (*device)->finish();
    if (f >= 0) frame_ms.push_back(ms);
  }
  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, args.frontend.out); !s.ok()) return fail(s.message());

  uint32_t draw_calls = 0;
  for (const RenderInput& in : inputs) draw_calls += in.renderer->stats().draw_calls;
  auto reportOf = [&](const RenderInput& in) {
    return FrameReport{&in.input, device->get(), &*in.renderer, frame_ms, args.frontend.out};
  };
  if (args.frontend.json) {
    nlohmann::json json = reportJson(reportOf(inputs[0]));
    json["clip"] = inputs[0].input.package.clips[inputs[0].clip].name;
    json["seed"] = args.seed;
    json["view"] = args.frontend.view;
    if (inputs.size() > 1) {
      nlohmann::json each = nlohmann::json::array();
      for (const RenderInput& in : inputs) {
        nlohmann::json one = reportJson(reportOf(in));
        one["clip"] = in.input.package.clips[in.clip].name;
        each.push_back(one);
      }
      json["characters"] = each;
      json["draw_calls"] = draw_calls;
      json["agents"] = args.agents;
    }
    if (args.events) json["events"] = event_json;
    fmt::print("{}\n", json.dump());
    return 0;
  }
  for (size_t c = 0; c < inputs.size(); ++c) {
    const RenderInput& in = inputs[c];
    const Package& package = in.input.package;
    if (inputs.size() > 1) fmt::print("character {}: ", c);
    fmt::print("input: {} ({}: {} clips, {} LODs)\n", in.input.name, in.input.how,
               package.clips.size(), package.lods.size());
    fmt::print("agents: {} playing '{}' (clip {}), seed {}, {} view\n",
               inputs.size() > 1 ? in.count : static_cast<uint32_t>(args.agents),
               package.clips[in.clip].name, in.clip, args.seed, args.frontend.view);
    printReport(reportOf(in));
  }
  if (inputs.size() > 1) {
    fmt::print("mixed crowd: {} agents of {} characters, {} tint variants; draw calls: {} in all\n",
               args.agents, inputs.size(), kVariantTints.size(), draw_calls);
  }
  if (args.events) {
    size_t events_in_clip = 0;
    for (const RenderInput& in : inputs) {
      for (const BakedClip& c : in.input.package.clips) events_in_clip += c.events.size();
    }
    fmt::print("events: {} crossed in {} frames ({} events in the package's clips)\n",
               event_lines.size(), args.frames, events_in_clip);
    for (const std::string& line : event_lines) fmt::print("{}\n", line);
  }
  return 0;
}

std::function<int()> setupRender(CLI::App& sub) {
  auto args = std::make_shared<RenderArgs>();
  sub.add_option("input", args->inputs,
                 "packages (.throng), characters (.glb/.gltf, baked in memory) or 'sample': "
                 "several make a mixed crowd, agent i of input i % count")
      ->required();
  sub.add_option("--agents", args->agents, "number of characters, on a square grid")
      ->capture_default_str();
  sub.add_option("--clip", args->clip,
                 "clip every agent plays, by name or index (default: the --clips map's idle "
                 "clip, else clip 0)");
  sub.add_option("--seed", args->seed,
                 "seed of each agent's start time, heading and appearance variant (tint)")
      ->capture_default_str();
  sub.add_option("--frames", args->frames,
                 "frames drawn 1/30 s apart, after one untimed warm-up draw (the last is "
                 "written; the median time is reported)")
      ->capture_default_str();
  sub.add_flag("--events", args->events,
               "print the animation events each agent crosses, frame by frame (events come from "
               "the package, or a glTF's sidecar NAME.events.json)");
  args->frontend.out = "crowd.png";
  addFrontendOptions(sub, args->frontend);
  addClipOptions(sub, args->clips);
  return [args] { return runRender(*args); };
}

const bool kRegistered = registerCommand(
    {"render", "draw a crowd playing one clip headless (any render path) and write a PNG",
     setupRender});

}  // namespace
}  // namespace throng::cli
