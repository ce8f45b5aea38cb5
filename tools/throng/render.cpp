// `throng render INPUT`: a grid of agents playing one clip, drawn headless through the crowd
// front end on any render path, written as a PNG.
#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "mixed_crowd.h"
#include "throng/crowd/crowd.h"
#include "throng/render/animation_texture_upload.h"
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
// Each agent's tint, one of these, multiplying its character's colours.
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
  std::string variants = "random";  // random | none | an appearance index
  FrontendArgs frontend;
  ClipArgs clips;
};

// One input of a (mixed) crowd: its character, the clip its agents play and its size.
struct RenderInput {
  CrowdInput input;
  int clip = 0;
  float scale = 1.0f;  // of its agents, so that every character stands as tall
};

// --variants: every agent's appearance picked at random (-1), or this one for every agent.
std::optional<int> parseVariants(const std::string& value) {
  if (value == "random") return -1;
  if (value == "none") return 0;
  int index = -1;
  const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), index);
  if (ec != std::errc() || end != value.data() + value.size() || index < 0 || index > 65535)
    return std::nullopt;
  return index;
}

// The clip `args` asks for in `input`: --clip, else its --clips map's idle clip (`clip_map`),
// else clip 0; -1 when --clip names a clip the input lacks. Exit code (2) in *usage when the map
// is bad.
int pickClip(const RenderArgs& args, CrowdInput& input, const std::string& clip_map, int* usage) {
  if (!args.clip.empty()) return findClip(input.package.clips, args.clip);
  if (clip_map.empty()) return 0;
  Result<ClipSet> clip_set = crowdClipSet(input, clip_map);
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
  const std::optional<int> variant_choice = parseVariants(args.variants);
  if (!variant_choice) {
    return usageError(fmt::format(
        "--variants {}: must be random, none or an appearance index (0 = own materials, v = "
        "material variant v - 1)",
        args.variants));
  }
  if (args.inputs.size() > kMaxInputs) {
    return usageError(
        fmt::format("{} inputs: at most {} characters per crowd", args.inputs.size(), kMaxInputs));
  }
  Result<std::vector<std::string>> clip_maps =
      clipMapsPerInput(args.clips.clips, args.inputs.size());
  if (!clip_maps.ok()) return usageError(clip_maps.status().message());
  std::vector<RenderInput> inputs(args.inputs.size());
  float size = 0.0f;
  float footprint = 1e-3f;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Result<CrowdInput> input = loadCrowdInput(args.inputs[i], {}, args.clips.clips_from);
    if (!input.ok()) return fail(input.status().message());
    inputs[i].input = std::move(input).value();
    CrowdInput& in = inputs[i].input;
    int usage = 0;
    inputs[i].clip = pickClip(args, in, (*clip_maps)[i], &usage);
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
  std::vector<uint16_t> appearances(args.agents);
  for (int i = 0; i < args.agents; ++i) {
    const uint16_t character = static_cast<uint16_t>(i % static_cast<int>(inputs.size()));
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % side) - half, 0.0f,
                           spacing * static_cast<float>(i / side) - half);
    p.heading = (2.0f * unit(random) - 1.0f) * kHeadingSpread;
    p.scale = inputs[character].scale;
    const float start =
        unit(random) * inputs[character].input.package.clips[inputs[character].clip].duration;
    // The tint, multiplying the character's colours.
    tints[i] = kVariantTints[random() % kVariantTints.size()];
    // The appearance: own materials or a material variant (drawn only for inputs that have
    // variants, so that other inputs' crowds stay as they were).
    const size_t variant_count = inputs[character].input.package.variants.size();
    uint16_t appearance = 0;
    if (*variant_choice >= 0) {
      appearance = static_cast<uint16_t>(*variant_choice);
    } else if (variant_count > 0) {
      appearance = static_cast<uint16_t>(random() % (variant_count + 1));
    }
    crowd.addAgent(p, start, character, appearance);
    appearances[i] = appearance;
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
  // One renderer per character (mixed_crowd.h), their animation textures shared when they fit.
  std::vector<const Package*> packages;
  std::vector<std::string> names;
  for (const RenderInput& in : inputs) {
    packages.push_back(&in.input.package);
    names.push_back(in.input.name);
  }
  Result<std::unique_ptr<MixedCrowdRenderer>> made = MixedCrowdRenderer::create(
      **device, packages, names, desc, static_cast<uint32_t>(args.agents));
  if (!made.ok()) return fail(made.status().message());
  MixedCrowdRenderer& mixed = **made;

  std::vector<double> frame_ms;
  // --events: every update's crossings, by frame (printed after the report).
  std::vector<std::string> event_lines;
  nlohmann::json event_json = nlohmann::json::array();
  // Frame 0 is drawn twice: the first draw pays for shader compilation and first uploads and is
  // not reported. Later frames each follow a crowd update of 1/30 s (timed by the first
  // character's renderer).
  for (int f = -1; f < args.frames; ++f) {
    if (f > 0) mixed.update(crowd, kFrameSeconds);
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
    if (Status s = mixed.draw(view, crowd, tints); !s.ok()) return fail(s.message());
    const double ms = (*device)->finish();
    if (f >= 0) frame_ms.push_back(ms);
  }
  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, args.frontend.out); !s.ok()) return fail(s.message());

  const uint32_t draw_calls = mixed.drawCalls();
  const uint32_t texture_binds = mixed.animationTextureBinds();
  const render::SharedAnimationTexture* shared_texture = mixed.sharedTexture();
  const std::string& separate_textures = mixed.separateTextures();
  auto reportOf = [&](size_t c) {
    return FrameReport{&inputs[c].input, device->get(), &mixed.renderer(c), frame_ms,
                       args.frontend.out};
  };
  if (args.frontend.json) {
    nlohmann::json json = reportJson(reportOf(0));
    json["clip"] = inputs[0].input.package.clips[inputs[0].clip].name;
    json["seed"] = args.seed;
    json["view"] = args.frontend.view;
    if (inputs.size() > 1) {
      nlohmann::json each = nlohmann::json::array();
      for (size_t c = 0; c < inputs.size(); ++c) {
        nlohmann::json one = reportJson(reportOf(c));
        one["clip"] = inputs[c].input.package.clips[inputs[c].clip].name;
        each.push_back(one);
      }
      json["characters"] = each;
      json["draw_calls"] = draw_calls;
      json["animation_texture_binds"] = texture_binds;
      json["animation_texture_shared"] = shared_texture != nullptr;
      if (!separate_textures.empty()) json["animation_textures_separate"] = separate_textures;
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
    if (!package.variants.empty()) {
      std::string variant_names;
      for (const std::string& v : package.variants) {
        variant_names += (variant_names.empty() ? "" : ", ") + v;
      }
      fmt::print("material variants: {} ({})\n", package.variants.size(), variant_names);
    }
    fmt::print("agents: {} playing '{}' (clip {}), seed {}, {} view\n",
               inputs.size() > 1 ? mixed.agentsOf(c) : static_cast<uint32_t>(args.agents),
               package.clips[in.clip].name, in.clip, args.seed, args.frontend.view);
    printReport(reportOf(c));
  }
  if (inputs.size() > 1) {
    fmt::print("mixed crowd: {} agents of {} characters, {} tint variants; draw calls: {} in all\n",
               args.agents, inputs.size(), kVariantTints.size(), draw_calls);
    if (shared_texture) {
      fmt::print(
          "animation texture: one {}x{} texture shared by {} characters; texture binds per "
          "frame: {}\n",
          shared_texture->width(), shared_texture->height(), inputs.size(), texture_binds);
    } else {
      fmt::print("animation textures: one per character ({}); texture binds per frame: {}\n",
                 separate_textures.empty() ? "the merged paths keep palettes on the CPU"
                                           : separate_textures,
                 texture_binds);
    }
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
                 "seed of each agent's start time, heading, tint and material variant")
      ->capture_default_str();
  sub.add_option("--frames", args->frames,
                 "frames drawn 1/30 s apart, after one untimed warm-up draw (the last is "
                 "written; the median time is reported)")
      ->capture_default_str();
  sub.add_option("--variants", args->variants,
                 "material variants (glTF KHR_materials_variants) of the inputs that have them: "
                 "random (each agent one of its character's own materials and variants, by "
                 "--seed), none (own materials) or an index for every agent (0 own materials, v "
                 "variant v - 1)")
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
