// `throng render INPUT`: a grid of agents playing one clip, drawn headless through the crowd
// front end on any render path, written as a PNG.
#include <algorithm>
#include <array>
#include <charconv>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "crowd_setup.h"
#include "throng/crowd/agent_grid.h"
#include "throng/crowd/crowd.h"
#include "throng/render/mixed_crowd_renderer.h"
#include "warning_output.h"

namespace throng::cli {
namespace {

// The crowd advances this much between drawn frames (a 30 Hz game tick).
constexpr float kFrameSeconds = 1.0f / 30.0f;
// Headings are spread this far (radians) either side of facing the camera (+Z).
constexpr float kHeadingSpread = 0.5235988f;

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

// The clip `args` asks for in every input (pickClip): 0, or the exit code after the message.
int pickClips(const RenderArgs& args, LoadedInputs& loaded, std::vector<int>& clips) {
  for (size_t i = 0; i < loaded.inputs.size(); ++i) {
    CrowdInput& in = loaded.inputs[i];
    int usage = 0;
    const int clip = pickClip(args, in, loaded.clip_maps[i], &usage);
    if (usage != 0) return usage;
    if (clip < 0) {
      return usageError(fmt::format("--clip {}: no such clip in {} (clips: {})", args.clip, in.name,
                                    clipList(in.package.clips)));
    }
    clips.push_back(clip);
  }
  return 0;
}

// The crowd `render` draws: every agent idles in place, and idling plays its character's chosen
// clip (the crowd advances their times). Agent i is of character i % inputs.
struct RenderCrowd {
  std::unique_ptr<Crowd> crowd;
  std::vector<glm::vec4> tints;  // per agent, multiplying its character's colours
  glm::vec2 low{0.0f};           // where the agents stand (world x, z)
  glm::vec2 high{0.0f};
};

// Characters authored in other units stand as tall as the largest one (Placement::scale), on a
// square grid, one per cell, cells as wide as the widest scaled clip's footprint; headings,
// start times, tints and appearances from --seed.
RenderCrowd placeAgents(const RenderArgs& args, const LoadedInputs& loaded,
                        const std::vector<int>& clips, int variant_choice) {
  const size_t count = loaded.inputs.size();
  std::vector<float> scales(count);
  float footprint = 1e-3f;
  std::vector<CrowdCharacter> characters;
  for (size_t c = 0; c < count; ++c) {
    const Package& package = loaded.inputs[c].package;
    scales[c] = loaded.size / loaded.inputs[c].size;
    const glm::vec3 extent = scales[c] * package.clips[clips[c]].bounds.size();
    footprint = std::max({footprint, extent.x, extent.z, 0.3f * extent.y});
    ClipSet clip_set;
    clip_set.state_clip.fill(static_cast<uint16_t>(clips[c]));
    characters.push_back({package.clips, clip_set, package.masks.size()});
  }
  RenderCrowd out;
  out.crowd = std::make_unique<Crowd>(characters);
  const uint32_t agents = static_cast<uint32_t>(args.agents);
  const AgentGrid grid = squareGrid(agents, 1.3f * footprint);
  std::mt19937 random(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  out.tints.resize(agents);
  for (uint32_t i = 0; i < agents; ++i) {
    const uint16_t character = static_cast<uint16_t>(i % count);
    const Package& package = loaded.inputs[character].package;
    Placement p;
    p.position = grid.position(i);
    p.heading = (2.0f * unit(random) - 1.0f) * kHeadingSpread;
    p.scale = scales[character];
    const float start = unit(random) * package.clips[clips[character]].duration;
    out.tints[i] = kVariantTints[random() % kVariantTints.size()];
    // The appearance: own materials or a material variant (drawn only for inputs that have
    // variants, so that other inputs' crowds stay as they were).
    uint16_t appearance = 0;
    if (variant_choice >= 0) {
      appearance = static_cast<uint16_t>(variant_choice);
    } else if (!package.variants.empty()) {
      appearance = static_cast<uint16_t>(random() % (package.variants.size() + 1));
    }
    out.crowd->addAgent(p, start, character, appearance);
  }
  out.low = grid.low();
  out.high = grid.high(agents);
  return out;
}

// --events: the crossings of one update (frame f follows update f), as lines and as JSON.
void collectEvents(const render::UpdateEvents& update, const Crowd& crowd,
                   const LoadedInputs& loaded, std::vector<std::string>& lines,
                   nlohmann::json& json) {
  const uint64_t frame = update.update;
  for (const EventHit& hit : update.events) {
    const uint16_t character = crowd.agentCharacters()[hit.agent];
    const BakedClip& hit_clip = crowd.clips(character)[hit.clip];
    const ClipEvent& event = hit_clip.events[hit.event];
    lines.push_back(fmt::format("frame {}: agent {} '{}' (clip '{}' at {:.3f} s, weight {:.2f})",
                                frame, hit.agent, event.name, hit_clip.name, event.time,
                                hit.weight));
    json.push_back({{"frame", frame},
                    {"agent", hit.agent},
                    {"character", loaded.inputs[character].name},
                    {"event", event.name},
                    {"clip", hit_clip.name},
                    {"time", event.time},
                    {"weight", hit.weight}});
  }
}

// What the frames gave: their times and the events crossed.
struct RenderRun {
  std::vector<double> frame_ms;
  std::vector<std::string> event_lines;
  nlohmann::json event_json = nlohmann::json::array();
  uint64_t events_lost = 0;  // past the gpu path's capacity (UpdateEvents::overflow)
};

// --events: the updates' events that have arrived (the gpu path's a frame or two late; `wait`:
// all of them).
Status takeEvents(CrowdDrawing& drawing, const Crowd& crowd, const LoadedInputs& loaded, bool wait,
                  RenderRun& run) {
  std::vector<render::UpdateEvents> updates;
  if (Status s = drawing.renderer->takeEvents(updates, wait); !s.ok()) return s;
  for (const render::UpdateEvents& update : updates) {
    collectEvents(update, crowd, loaded, run.event_lines, run.event_json);
    run.events_lost += update.overflow;
  }
  return Status::okStatus();
}

// Frame 0 is drawn twice: the first draw pays for shader compilation and first uploads and is not
// reported. Later frames each follow a crowd update of 1/30 s (timed by the renderers).
Status runFrames(const RenderArgs& args, const LoadedInputs& loaded, CrowdDrawing& drawing,
                 RenderCrowd& crowd, RenderRun& run) {
  for (int f = -1; f < args.frames; ++f) {
    if (f > 0) drawing.renderer->update(*crowd.crowd, kFrameSeconds);
    Result<double> ms = drawFrame(drawing, *crowd.crowd, crowd.tints);
    if (!ms.ok()) return ms.status();
    if (f >= 0) run.frame_ms.push_back(*ms);
    if (args.events) {
      if (Status s = takeEvents(drawing, *crowd.crowd, loaded, false, run); !s.ok()) return s;
    }
  }
  if (args.events) return takeEvents(drawing, *crowd.crowd, loaded, true, run);
  return Status::okStatus();
}

void printRenderJson(const RenderArgs& args, const LoadedInputs& loaded,
                     const std::vector<int>& clips, const CrowdDrawing& drawing,
                     const RenderRun& run, const std::vector<Warning>& warnings) {
  const render::MixedCrowdRenderer& mixed = *drawing.renderer;
  auto reportOf = [&](size_t c) {
    return characterReport(drawing, loaded.inputs[c], c, run.frame_ms, args.frontend.out);
  };
  nlohmann::json json = reportJson(reportOf(0));
  json["clip"] = loaded.inputs[0].package.clips[clips[0]].name;
  json["seed"] = args.seed;
  json["view"] = args.frontend.view;
  if (loaded.inputs.size() > 1) {
    nlohmann::json each = nlohmann::json::array();
    for (size_t c = 0; c < loaded.inputs.size(); ++c) {
      nlohmann::json one = reportJson(reportOf(c));
      one["clip"] = loaded.inputs[c].package.clips[clips[c]].name;
      each.push_back(one);
    }
    json["characters"] = each;
    addMixedJson(json, mixed, static_cast<uint32_t>(args.agents));
    if (!mixed.separateTextures().empty())
      json["animation_textures_separate"] = mixed.separateTextures();
  }
  if (args.events) {
    json["events"] = run.event_json;
    json["events_lost"] = run.events_lost;
  }
  json["warnings"] = warningsJson(warnings);
  fmt::print("{}\n", json.dump());
}

// "name1, name2": an input's material variants.
std::string variantNames(const Package& package) {
  std::string names;
  for (const std::string& v : package.variants) names += (names.empty() ? "" : ", ") + v;
  return names;
}

void printRenderText(const RenderArgs& args, const LoadedInputs& loaded,
                     const std::vector<int>& clips, const CrowdDrawing& drawing,
                     const RenderRun& run) {
  const size_t count = loaded.inputs.size();
  if (count == 1) {
    const CrowdInput& in = loaded.inputs[0];
    const Package& package = in.package;
    fmt::print("input: {} ({}: {} clips, {} LODs)\n", in.name, in.how, package.clips.size(),
               package.lods.size());
    if (!package.variants.empty()) {
      fmt::print("material variants: {} ({})\n", package.variants.size(), variantNames(package));
    }
    fmt::print("agents: {} playing '{}' (clip {}), seed {}, {} view\n", args.agents,
               package.clips[clips[0]].name, clips[0], args.seed, args.frontend.view);
    printReport(characterReport(drawing, in, 0, run.frame_ms, args.frontend.out));
  } else {
    fmt::print("agents: {}, seed {}, {} view; agent i is character i % {}\n", args.agents,
               args.seed, args.frontend.view, count);
    TextColumn variants{"variants", true, {}};
    TextColumn playing{"playing", false, {}};
    for (size_t c = 0; c < count; ++c) {
      const Package& package = loaded.inputs[c].package;
      variants.cells.push_back(std::to_string(package.variants.size()));
      playing.cells.push_back(
          fmt::format("'{}' (clip {})", package.clips[clips[c]].name, clips[c]));
    }
    const TextColumn extra[] = {variants, playing};
    printMixedReport(drawing, loaded.inputs, static_cast<uint32_t>(args.agents),
                     fmt::format(", {} tint variants", kVariantTints.size()), extra, run.frame_ms,
                     args.frontend.out);
  }
  if (args.events) {
    size_t events_in_clip = 0;
    for (const CrowdInput& in : loaded.inputs) {
      for (const BakedClip& c : in.package.clips) events_in_clip += c.events.size();
    }
    fmt::print("events: {} crossed in {} frames ({} events in the package's clips)\n",
               run.event_lines.size(), args.frames, events_in_clip);
    if (run.events_lost > 0) {
      fmt::print("events: {} more crossed past the gpu path's capacity of {} per update, lost\n",
                 run.events_lost, render::kGpuEventCapacity);
    }
    for (const std::string& line : run.event_lines) fmt::print("{}\n", line);
  }
}

// Usage first: everything that needs no input. 0 and the choices, or the exit code.
int checkRenderArgs(const RenderArgs& args, FrontendChoice& choice, int& variant_choice) {
  Result<FrontendChoice> checked = checkFrontendArgs(args.frontend);
  if (!checked.ok()) return usageError(checked.status().message());
  choice = *checked;
  for (const std::string& message : {checkRange("--agents", args.agents, 1, kMaxAgents),
                                     checkRange("--frames", args.frames, 1, kMaxFrames)}) {
    if (!message.empty()) return usageError(message);
  }
  const std::optional<int> variants = parseVariants(args.variants);
  if (!variants) {
    return usageError(fmt::format(
        "--variants {}: must be random, none or an appearance index (0 = own materials, v = "
        "material variant v - 1)",
        args.variants));
  }
  variant_choice = *variants;
  return 0;
}

int runRender(const RenderArgs& args) {
  FrontendChoice choice;
  int variant_choice = -1;
  if (int code = checkRenderArgs(args, choice, variant_choice); code != 0) return code;
  LoadedInputs loaded;
  if (int code = loadInputs(args.inputs, args.clips, choice.lod, choice.impostors, loaded);
      code != 0)
    return code;
  std::vector<int> clips;
  if (int code = pickClips(args, loaded, clips); code != 0) return code;
  RenderCrowd crowd = placeAgents(args, loaded, clips, variant_choice);
  applyAttachments(choice.attachments, args.seed, *crowd.crowd);
  CrowdDrawing drawing;
  render::CrowdRendererDesc desc = rendererDesc(args.frontend, choice);
  desc.events = args.events;  // --events takes each update's events (takeEvents)
  if (int code = setUpDrawing(args.frontend, choice, loaded.inputs, desc, crowd.low, crowd.high,
                              loaded.size, drawing);
      code != 0) {
    return code;
  }
  const std::vector<Warning> warnings = crowdWarnings(drawing, loaded.inputs);
  if (!args.frontend.json) printWarnings(warnings, "");
  RenderRun run;
  if (Status s = runFrames(args, loaded, drawing, crowd, run); !s.ok()) return fail(s.message());
  if (int code = writeFrame(*drawing.device, args.frontend.out); code != 0) return code;
  if (args.frontend.json) {
    printRenderJson(args, loaded, clips, drawing, run, warnings);
  } else {
    printRenderText(args, loaded, clips, drawing, run);
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

const bool kRenderRegistered = registerCommand(
    {"render", "draw a crowd playing one clip headless (any render path) and write a PNG",
     setupRender});

}  // namespace
}  // namespace throng::cli
