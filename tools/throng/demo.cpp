// `throng demo [INPUT...]`: the crowd demo. A crowd driven by players' commands (made up from
// --seed, or replayed from a command script), drawn headless through the crowd front end.
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "mixed_crowd.h"
#include "state_tint.h"
#include "throng/core/file_io.h"
#include "throng/crowd/command_script.h"
#include "throng/crowd/crowd.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"

namespace throng::cli {
namespace {

// The crowd ticks at this rate; made-up commands arrive every kCommandPeriod seconds.
constexpr float kTickSeconds = 1.0f / 30.0f;
constexpr float kCommandPeriod = 0.5f;
// Distance between neighbours on the starting grid, in character sizes.
constexpr float kGridSpacing = 1.1f;
// Frames drawn: the first warms shaders and caches up, the rest are timed; the last one, after
// the final tick, is the picture.
constexpr int kDrawnFrames = 4;
// Simulated seconds allowed (an hour of 30 Hz ticks is already 108,000 crowd updates).
constexpr float kMaxSeconds = 3600.0f;

// A mixed crowd's characters (as for render): each agent names its character in 16 bits.
constexpr size_t kMaxInputs = 64;

struct DemoArgs {
  std::vector<std::string> inputs = {"sample"};
  int agents = 400;
  float seconds = 6.0f;
  uint32_t seed = 1;
  std::string record;    // write the commands submitted here
  std::string commands;  // replay this script instead of making commands up
  FrontendArgs frontend;
  ClipArgs clips;
};

// The made-up commands of one period: a twelfth of the crowd told to walk, run, attack or die.
void makeUpCommands(std::mt19937& rng, int agents, float half, double time, CommandScript& script) {
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const int count = std::max(1, agents / 12);
  for (int c = 0; c < count; ++c) {
    ScriptCommand command;
    command.time = time;
    command.agents.first = command.agents.last =
        static_cast<uint32_t>(rng() % static_cast<uint32_t>(agents));
    const float roll = unit(rng);
    command.type = roll < 0.45f   ? CommandType::kWalkTo
                   : roll < 0.75f ? CommandType::kRunTo
                   : roll < 0.97f ? CommandType::kAttack
                                  : CommandType::kDie;
    const float x = (unit(rng) * 2.0f - 1.0f) * half;  // x before z: a fixed draw order
    const float z = (unit(rng) * 2.0f - 1.0f) * half;
    command.target = glm::vec2(x, z);
    script.commands.push_back(command);
  }
}

int runDemo(const DemoArgs& args) {
  Result<FrontendChoice> choice = checkFrontendArgs(args.frontend);
  if (!choice.ok()) return usageError(choice.status().message());
  if (const std::string m = checkRange("--agents", args.agents, 1, kMaxAgents); !m.empty()) {
    return usageError(m);
  }
  if (!(args.seconds >= 0.0f && args.seconds <= kMaxSeconds)) {
    return usageError(
        fmt::format("--seconds {}: must be a number in 0..{}", args.seconds, kMaxSeconds));
  }

  // A replayed script is read before anything heavy, so a bad one fails fast.
  CommandScript script;
  script.source = args.commands;
  if (!args.commands.empty()) {
    std::ifstream in(args.commands);
    if (!in) return fail(fmt::format("{}: cannot open the command script", args.commands));
    Result<CommandScript> read = readCommandScript(in, args.commands);
    if (!read.ok()) return fail(read.status().message());
    script = std::move(read).value();
  }

  if (args.inputs.size() > kMaxInputs) {
    return usageError(
        fmt::format("{} inputs: at most {} characters per crowd", args.inputs.size(), kMaxInputs));
  }
  Result<std::vector<std::string>> clip_maps =
      clipMapsPerInput(args.clips.clips, args.inputs.size());
  if (!clip_maps.ok()) return usageError(clip_maps.status().message());
  // Every input with its clip set; agent i is of input i % count, scaled to stand as tall as the
  // largest character.
  std::vector<CrowdInput> inputs;
  std::vector<ClipSet> clip_sets;
  float size = 0.0f;
  for (size_t i = 0; i < args.inputs.size(); ++i) {
    Result<CrowdInput> input = loadCrowdInput(args.inputs[i], {}, args.clips.clips_from);
    if (!input.ok()) return fail(input.status().message());
    if (const std::string m = checkLod(choice->lod, *input); !m.empty()) return usageError(m);
    Result<ClipSet> clip_set = crowdClipSet(*input, (*clip_maps)[i]);
    for (const std::string& w : input->warnings) fmt::print(stderr, "throng: warning: {}\n", w);
    if (!clip_set.ok()) return usageError("--clips: " + clip_set.status().message());
    size = std::max(size, input->size);
    inputs.push_back(std::move(input).value());
    clip_sets.push_back(*clip_set);
  }
  // `play` clips are resolved against the first input's clips (a character without that clip
  // index drops the command).
  if (Status s =
          bindCommandScript(script, inputs[0].package.clips, static_cast<uint32_t>(args.agents));
      !s.ok()) {
    return fail(s.message());
  }

  std::vector<CrowdCharacter> characters;
  for (size_t i = 0; i < inputs.size(); ++i) {
    characters.push_back({inputs[i].package.clips, clip_sets[i]});
  }
  Crowd crowd(characters);
  std::mt19937 rng(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float spacing = kGridSpacing * size;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(columns - 1);
  for (int i = 0; i < args.agents; ++i) {
    const uint16_t character = static_cast<uint16_t>(i % static_cast<int>(inputs.size()));
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % columns) - half, 0.0f,
                           spacing * static_cast<float>(i / columns) - half);
    p.heading = unit(rng) * 6.2831853f;
    p.scale = size / inputs[character].size;
    crowd.addAgent(p, unit(rng) * 2.0f, character);
  }

  Result<std::unique_ptr<render::Device>> device =
      createDevice(choice->path, args.frontend.width, args.frontend.height);
  if (!device.ok()) return fail(device.status().message());
  render::CrowdRendererDesc desc;
  desc.path = choice->path;
  desc.fixed_lod = choice->lod;
  desc.lod_threshold_pixels = choice->lod_threshold;
  desc.lod_tint = args.frontend.lod_tint;
  desc.tint = choice->tint;
  desc.palette_pass = choice->palette_pass;
  // Agents coloured by state: by the renderer for one character (on the GPU too); for a mixed
  // crowd, whose characters' agents are gathered without their states, as per-agent tints.
  const bool mixed_crowd = inputs.size() > 1;
  if (choice->tint && !mixed_crowd) desc.state_tints = cli::kStateTints;
  std::vector<glm::vec4> state_tints;
  render::FrameView view =
      crowdView(choice->street, glm::vec2(-half), glm::vec2(half), size,
                static_cast<float>(args.frontend.width) / static_cast<float>(args.frontend.height));
  addScenery(view, desc, glm::vec2(-half), glm::vec2(half), size);
  std::vector<const Package*> packages;
  std::vector<std::string> names;
  for (const CrowdInput& in : inputs) {
    packages.push_back(&in.package);
    names.push_back(in.name);
  }
  Result<std::unique_ptr<MixedCrowdRenderer>> made = MixedCrowdRenderer::create(
      **device, packages, names, desc, static_cast<uint32_t>(args.agents));
  if (!made.ok()) return fail(made.status().message());
  MixedCrowdRenderer& renderer = **made;

  // Players' commands, tick by tick. The last tick is run after the warm-up frames, through the
  // renderer, so the reported frame times its update too.
  const bool replay = !args.commands.empty();
  const int ticks = static_cast<int>(std::lround(args.seconds / kTickSeconds));
  const int ticks_per_command =
      std::max(1, static_cast<int>(std::lround(kCommandPeriod / kTickSeconds)));
  size_t next = 0;
  size_t submitted = 0;
  auto tick = [&](int t, bool timed) {
    // The same double on every run, so a recorded time is due on the same tick when replayed.
    const double now = t * static_cast<double>(kTickSeconds);
    if (!replay && t % ticks_per_command == 0) makeUpCommands(rng, args.agents, half, now, script);
    submitted += submitDueCommands(script, now, &next, crowd);
    if (timed) {
      renderer.update(crowd, kTickSeconds);
    } else {
      crowd.update(kTickSeconds);
    }
  };
  for (int t = 0; t + 1 < ticks; ++t) tick(t, false);
  std::vector<double> frame_ms;
  for (int f = 0; f < kDrawnFrames; ++f) {
    if (f + 1 == kDrawnFrames && ticks > 0) tick(ticks - 1, true);
    if (mixed_crowd && choice->tint) {
      state_tints.resize(crowd.agentCount());
      for (uint32_t a = 0; a < crowd.agentCount(); ++a) {
        state_tints[a] = cli::stateTint(crowd.states()[a]);
      }
    }
    (*device)->beginFrame(kFogColor);
    if (Status s = renderer.draw(view, crowd, state_tints); !s.ok()) return fail(s.message());
    const double ms = (*device)->finish();
    if (f > 0) frame_ms.push_back(ms);
  }
  if (!args.record.empty()) {
    CommandScript played = script;
    played.commands.resize(next);  // what was submitted (a replayed script may run longer)
    if (Status s = writeFileAtomically(args.record, formatCommandScript(played)); !s.ok()) {
      return fail(s.message());
    }
  }

  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, args.frontend.out); !s.ok()) return fail(s.message());

  // The GPU-driven path keeps a one-character crowd on the GPU: bring it back for the summary.
  if (Result<bool> back = renderer.renderer(0).readBack(crowd, true); !back.ok()) {
    return fail(back.status().message());
  }
  std::array<int, kAgentStateCount> by_state{};
  for (AgentState s : crowd.states()) ++by_state[static_cast<int>(s)];
  auto reportOf = [&](size_t c) {
    return FrameReport{&inputs[c], device->get(), &renderer.renderer(c), frame_ms,
                       args.frontend.out};
  };
  if (args.frontend.json) {
    nlohmann::json json = reportJson(reportOf(0));
    nlohmann::json states = nlohmann::json::object();
    for (int s = 0; s < kAgentStateCount; ++s) {
      states[agentStateName(static_cast<AgentState>(s))] = by_state[s];
    }
    json["seconds"] = args.seconds;
    json["seed"] = args.seed;
    json["view"] = args.frontend.view;
    json["commands"] = submitted;
    json["commands_from"] = replay ? args.commands : std::string("seed");
    json["states"] = states;
    json["clip_set"] = describeClipSet(clip_sets[0], inputs[0].package.clips);
    if (mixed_crowd) {
      nlohmann::json each = nlohmann::json::array();
      for (size_t c = 0; c < inputs.size(); ++c) {
        nlohmann::json one = reportJson(reportOf(c));
        one["clip_set"] = describeClipSet(clip_sets[c], inputs[c].package.clips);
        each.push_back(one);
      }
      json["characters"] = each;
      json["agents"] = args.agents;
      json["draw_calls"] = renderer.drawCalls();
      json["animation_texture_binds"] = renderer.animationTextureBinds();
      json["animation_texture_shared"] = renderer.sharedTexture() != nullptr;
    }
    fmt::print("{}\n", json.dump());
    return 0;
  }
  for (size_t c = 0; c < inputs.size(); ++c) {
    const Package& package = inputs[c].package;
    if (mixed_crowd) fmt::print("character {}: ", c);
    fmt::print("input: {} ({}: {} clips, {} LODs)\n", inputs[c].name, inputs[c].how,
               package.clips.size(), package.lods.size());
    fmt::print("clips: {}\n", describeClipSet(clip_sets[c], package.clips));
  }
  fmt::print("crowd: {} agents after {:.1f} s and {} commands ({}):", crowd.agentCount(),
             args.seconds, submitted, replay ? "from " + args.commands : "made up from the seed");
  for (int s = 0; s < kAgentStateCount; ++s) {
    fmt::print(" {} {}", by_state[s], agentStateName(static_cast<AgentState>(s)));
  }
  fmt::print("\n");
  if (!args.record.empty()) fmt::print("recorded {} commands to {}\n", next, args.record);
  for (size_t c = 0; c < inputs.size(); ++c) {
    if (mixed_crowd)
      fmt::print("character {} ({}, {} agents):\n", c, inputs[c].name, renderer.agentsOf(c));
    printReport(reportOf(c));
  }
  if (mixed_crowd) {
    fmt::print("mixed crowd: {} agents of {} characters; draw calls: {} in all\n", args.agents,
               inputs.size(), renderer.drawCalls());
    if (const render::SharedAnimationTexture* shared = renderer.sharedTexture()) {
      fmt::print(
          "animation texture: one {}x{} texture shared by {} characters; texture binds per "
          "frame: {}\n",
          shared->width(), shared->height(), inputs.size(), renderer.animationTextureBinds());
    } else {
      fmt::print("animation textures: one per character ({}); texture binds per frame: {}\n",
                 renderer.separateTextures(), renderer.animationTextureBinds());
    }
  }
  return 0;
}

std::function<int()> setupDemo(CLI::App& sub) {
  auto args = std::make_shared<DemoArgs>();
  sub.add_option("input", args->inputs,
                 "packages (.throng), characters (.glb/.gltf, baked in memory) or 'sample' (the "
                 "default); several make a mixed crowd, agent i of input i % count; clips are "
                 "mapped to the states by --clips (one for all, or one per input), else by name");
  sub.add_option("--agents", args->agents, "number of characters")->capture_default_str();
  sub.add_option("--seconds", args->seconds, "simulated seconds before the picture")
      ->capture_default_str();
  sub.add_option("--seed", args->seed, "seed of the starting crowd and of the made-up commands")
      ->capture_default_str();
  sub.add_option("--commands", args->commands,
                 "replay this command script (docs/formats.md) instead of making commands up");
  sub.add_option("--record", args->record, "write the commands the demo submitted as a script");
  args->frontend.out = "crowd.png";
  args->frontend.width = 960;
  args->frontend.height = 540;
  addFrontendOptions(sub, args->frontend);
  addClipOptions(sub, args->clips);
  return [args] { return runDemo(*args); };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"demo",
     "the crowd demo: a character driven by players' commands (made up or replayed), drawn "
     "headless through the crowd front end",
     setupDemo});

}  // namespace
}  // namespace throng::cli
