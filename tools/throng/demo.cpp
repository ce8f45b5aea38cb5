// `throng demo [INPUT...]`: the crowd demo. A crowd driven by players' commands (made up from
// --seed, or replayed from a command script), drawn headless through the crowd front end.
#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>

#include "command.h"
#include "crowd_frame.h"
#include "crowd_input.h"
#include "crowd_setup.h"
#include "state_tint.h"
#include "throng/core/file_io.h"
#include "throng/crowd/agent_grid.h"
#include "throng/crowd/command_script.h"
#include "throng/crowd/crowd.h"
#include "throng/render/mixed_crowd_renderer.h"
#include "warning_output.h"

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

// The upper-body gesture of made-up layer commands: a clip other than the walk's on a mask (the
// package's "upper", else its first). Made up only for a package with a mask and two clips.
struct Gesture {
  bool enabled = false;
  uint16_t clip = 0;
  std::string clip_name;
  uint8_t mask = 0;
  std::string mask_name;
};

// The attack clip when it is not the walk's, else the first clip that is not.
Gesture chooseGesture(const Package& package, const ClipSet& clip_set) {
  Gesture g;
  const uint16_t walk = clip_set.state_clip[static_cast<int>(AgentState::kWalk)];
  if (package.masks.empty() || package.clips.size() < 2) return g;
  uint16_t clip = clip_set.state_clip[static_cast<int>(AgentState::kAttack)];
  if (clip == walk) clip = walk == 0 ? 1 : 0;
  const int upper = findJointMask(package.masks, "upper");
  g.enabled = true;
  g.clip = clip;
  g.clip_name = package.clips[clip].name;
  g.mask = static_cast<uint8_t>(upper >= 0 ? upper : 0);
  g.mask_name = package.masks[g.mask].name;
  return g;
}

// The made-up commands of one period: a twelfth of the crowd told to walk, run, attack or die;
// with a gesture, a sixth more told to play it on their upper body (walkers wave as they go).
void makeUpCommands(std::mt19937& rng, int agents, float half, double time, const Gesture& gesture,
                    CommandScript& script) {
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
  if (!gesture.enabled) return;
  for (int c = 0; c < std::max(1, agents / 6); ++c) {
    ScriptCommand command;
    command.time = time;
    command.agents.first = command.agents.last =
        static_cast<uint32_t>(rng() % static_cast<uint32_t>(agents));
    command.action = ScriptAction::kLayer;
    command.clip = gesture.clip_name;
    command.clip_index = gesture.clip;
    command.mask = gesture.mask_name;
    command.mask_index = gesture.mask;
    script.commands.push_back(command);
  }
}

// Usage first, then a replayed script, read before anything heavy so a bad one fails fast. 0, or
// the exit code after the message.
int checkDemoArgs(const DemoArgs& args, FrontendChoice& choice, CommandScript& script) {
  Result<FrontendChoice> checked = checkFrontendArgs(args.frontend);
  if (!checked.ok()) return usageError(checked.status().message());
  choice = *checked;
  if (const std::string m = checkRange("--agents", args.agents, 1, kMaxAgents); !m.empty()) {
    return usageError(m);
  }
  if (!(args.seconds >= 0.0f && args.seconds <= kMaxSeconds)) {
    return usageError(
        fmt::format("--seconds {}: must be a number in 0..{}", args.seconds, kMaxSeconds));
  }
  script.source = args.commands;
  if (!args.commands.empty()) {
    std::ifstream in(args.commands);
    if (!in) return fail(fmt::format("{}: cannot open the command script", args.commands));
    Result<CommandScript> read = readCommandScript(in, args.commands);
    if (!read.ok()) return fail(read.status().message());
    script = std::move(read).value();
  }
  return 0;
}

// Every input's clip set from its --clips map (fallbacks in the input's warnings). 0, or the
// exit code.
int makeClipSets(LoadedInputs& loaded, std::vector<ClipSet>& clip_sets) {
  for (size_t i = 0; i < loaded.inputs.size(); ++i) {
    Result<ClipSet> clip_set = crowdClipSet(loaded.inputs[i], loaded.clip_maps[i]);
    if (!clip_set.ok()) return usageError("--clips: " + clip_set.status().message());
    clip_sets.push_back(*clip_set);
  }
  return 0;
}

// The starting crowd: agent i of input i % count on a square grid, scaled to stand as tall as the
// largest character, heading and clip time from the seed.
std::unique_ptr<Crowd> placeAgents(const DemoArgs& args, const LoadedInputs& loaded,
                                   const std::vector<ClipSet>& clip_sets, const AgentGrid& grid,
                                   std::mt19937& rng) {
  std::vector<CrowdCharacter> characters;
  for (size_t i = 0; i < loaded.inputs.size(); ++i) {
    characters.push_back(
        {loaded.inputs[i].package.clips, clip_sets[i], loaded.inputs[i].package.masks.size()});
  }
  auto crowd = std::make_unique<Crowd>(characters);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const uint32_t count = static_cast<uint32_t>(loaded.inputs.size());
  for (uint32_t i = 0; i < static_cast<uint32_t>(args.agents); ++i) {
    const uint16_t character = static_cast<uint16_t>(i % count);
    Placement p;
    p.position = grid.position(i);
    p.heading = unit(rng) * 6.2831853f;
    p.scale = loaded.size / loaded.inputs[character].size;
    crowd->addAgent(p, unit(rng) * 2.0f, character);
  }
  return crowd;
}

// Players' commands, tick by tick, and the drawn frames: the last tick runs after the warm-up
// frames, through the renderers, so the reported frame times its update too. The commands
// submitted; *next = how many of the script's were due.
Result<size_t> playAndDraw(const DemoArgs& args, CrowdDrawing& drawing, Crowd& crowd, float half,
                           std::mt19937& rng, const Gesture& gesture, CommandScript& script,
                           size_t* next, std::vector<double>& frame_ms) {
  const bool replay = !args.commands.empty();
  const int ticks = static_cast<int>(std::lround(args.seconds / kTickSeconds));
  const int ticks_per_command =
      std::max(1, static_cast<int>(std::lround(kCommandPeriod / kTickSeconds)));
  size_t submitted = 0;
  auto tick = [&](int t, bool timed) {
    // The same double on every run, so a recorded time is due on the same tick when replayed.
    const double now = t * static_cast<double>(kTickSeconds);
    if (!replay && t % ticks_per_command == 0) {
      makeUpCommands(rng, args.agents, half, now, gesture, script);
    }
    submitted += submitDueCommands(script, now, next, crowd);
    if (timed) {
      drawing.renderer->update(crowd, kTickSeconds);
    } else {
      crowd.update(kTickSeconds);
    }
  };
  for (int t = 0; t + 1 < ticks; ++t) tick(t, false);
  for (int f = 0; f < kDrawnFrames; ++f) {
    if (f + 1 == kDrawnFrames && ticks > 0) tick(ticks - 1, true);
    Result<double> ms = drawFrame(drawing, crowd);
    if (!ms.ok()) return ms.status();
    if (f > 0) frame_ms.push_back(*ms);
  }
  return submitted;
}

// What the demo reports besides the frames.
struct DemoOutcome {
  size_t submitted = 0;  // commands
  size_t recorded = 0;   // commands due, written by --record
  std::array<int, kAgentStateCount> by_state{};
  std::vector<double> frame_ms;
  std::vector<Warning> warnings;  // the set-up's (crowdWarnings)
};

void printDemoJson(const DemoArgs& args, const LoadedInputs& loaded,
                   const std::vector<ClipSet>& clip_sets, const CrowdDrawing& drawing,
                   const DemoOutcome& outcome) {
  auto reportOf = [&](size_t c) {
    return characterReport(drawing, loaded.inputs[c], c, outcome.frame_ms, args.frontend.out);
  };
  nlohmann::json json = reportJson(reportOf(0));
  nlohmann::json states = nlohmann::json::object();
  for (int s = 0; s < kAgentStateCount; ++s) {
    states[agentStateName(static_cast<AgentState>(s))] = outcome.by_state[s];
  }
  json["seconds"] = args.seconds;
  json["seed"] = args.seed;
  json["view"] = args.frontend.view;
  json["commands"] = outcome.submitted;
  json["commands_from"] = args.commands.empty() ? std::string("seed") : args.commands;
  json["states"] = states;
  json["clip_set"] = describeClipSet(clip_sets[0], loaded.inputs[0].package.clips);
  if (loaded.inputs.size() > 1) {
    nlohmann::json each = nlohmann::json::array();
    for (size_t c = 0; c < loaded.inputs.size(); ++c) {
      nlohmann::json one = reportJson(reportOf(c));
      one["clip_set"] = describeClipSet(clip_sets[c], loaded.inputs[c].package.clips);
      each.push_back(one);
    }
    json["characters"] = each;
    addMixedJson(json, *drawing.renderer, static_cast<uint32_t>(args.agents));
  }
  json["warnings"] = warningsJson(outcome.warnings);
  fmt::print("{}\n", json.dump());
}

void printDemoText(const DemoArgs& args, const LoadedInputs& loaded,
                   const std::vector<ClipSet>& clip_sets, const CrowdDrawing& drawing,
                   const Crowd& crowd, const DemoOutcome& outcome) {
  const size_t count = loaded.inputs.size();
  if (count == 1) {
    const CrowdInput& in = loaded.inputs[0];
    fmt::print("input: {} ({}: {} clips, {} LODs)\n", in.name, in.how, in.package.clips.size(),
               in.package.lods.size());
    fmt::print("clips: {}\n", describeClipSet(clip_sets[0], in.package.clips));
  }
  fmt::print("crowd: {} agents after {:.1f} s and {} commands ({}):", crowd.agentCount(),
             args.seconds, outcome.submitted,
             args.commands.empty() ? "made up from the seed" : "from " + args.commands);
  for (int s = 0; s < kAgentStateCount; ++s) {
    fmt::print(" {} {}", outcome.by_state[s], agentStateName(static_cast<AgentState>(s)));
  }
  fmt::print("\n");
  if (!args.record.empty())
    fmt::print("recorded {} commands to {}\n", outcome.recorded, args.record);
  if (count == 1) {
    printReport(characterReport(drawing, loaded.inputs[0], 0, outcome.frame_ms, args.frontend.out));
    return;
  }
  TextColumn clips{"clips per state", false, {}};
  for (size_t c = 0; c < count; ++c) {
    clips.cells.push_back(describeClipSet(clip_sets[c], loaded.inputs[c].package.clips));
  }
  const TextColumn extra[] = {clips};
  printMixedReport(drawing, loaded.inputs, static_cast<uint32_t>(args.agents), "", extra,
                   outcome.frame_ms, args.frontend.out);
}

int runDemo(const DemoArgs& args) {
  FrontendChoice choice;
  CommandScript script;
  if (int code = checkDemoArgs(args, choice, script); code != 0) return code;
  LoadedInputs loaded;
  if (int code = loadInputs(args.inputs, args.clips, choice.lod, choice.impostors, loaded);
      code != 0)
    return code;
  std::vector<ClipSet> clip_sets;
  if (int code = makeClipSets(loaded, clip_sets); code != 0) return code;
  // `play` and `layer` clips, masks and props are resolved against the first input's (a
  // character without that clip index drops the command).
  const Package& first = loaded.inputs[0].package;
  if (Status s = bindCommandScript(script, first.clips, static_cast<uint32_t>(args.agents),
                                   first.masks, first.attachments);
      !s.ok()) {
    return fail(s.message());
  }
  std::mt19937 rng(args.seed);
  const AgentGrid grid = squareGrid(static_cast<uint32_t>(args.agents), kGridSpacing * loaded.size);
  const float half = -grid.origin.x;
  std::unique_ptr<Crowd> crowd = placeAgents(args, loaded, clip_sets, grid, rng);
  applyAttachments(choice.attachments, args.seed, *crowd);

  render::CrowdRendererDesc desc = rendererDesc(args.frontend, choice);
  if (choice.tint) desc.state_tints = cli::kStateTints;  // agents coloured by state
  CrowdDrawing drawing;
  if (int code = setUpDrawing(args.frontend, choice, loaded.inputs, desc, glm::vec2(-half),
                              glm::vec2(half), loaded.size, drawing);
      code != 0) {
    return code;
  }
  DemoOutcome outcome;
  outcome.warnings = crowdWarnings(drawing, loaded.inputs);
  if (!args.frontend.json) printWarnings(outcome.warnings, "");
  Result<size_t> submitted = playAndDraw(args, drawing, *crowd, half, rng,
                                         chooseGesture(loaded.inputs[0].package, clip_sets[0]),
                                         script, &outcome.recorded, outcome.frame_ms);
  if (!submitted.ok()) return fail(submitted.status().message());
  outcome.submitted = *submitted;
  if (!args.record.empty()) {
    CommandScript played = script;
    played.commands.resize(
        outcome.recorded);  // what was submitted (a replayed script may run longer)
    if (Status s = writeFileAtomically(args.record, formatCommandScript(played)); !s.ok()) {
      return fail(s.message());
    }
  }
  if (int code = writeFrame(*drawing.device, args.frontend.out); code != 0) return code;
  // The GPU-driven path keeps a one-character crowd on the GPU: bring it back for the summary.
  if (Result<bool> back = drawing.renderer->readBack(*crowd, true); !back.ok()) {
    return fail(back.status().message());
  }
  for (AgentState s : crowd->states()) ++outcome.by_state[static_cast<int>(s)];
  if (args.frontend.json) {
    printDemoJson(args, loaded, clip_sets, drawing, outcome);
  } else {
    printDemoText(args, loaded, clip_sets, drawing, *crowd, outcome);
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

[[maybe_unused]] const bool kDemoRegistered = registerCommand(
    {"demo",
     "the crowd demo: a character driven by players' commands (made up or replayed), drawn "
     "headless through the crowd front end",
     setupDemo});

}  // namespace
}  // namespace throng::cli
