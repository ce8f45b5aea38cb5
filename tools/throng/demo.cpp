// `throng demo [INPUT]`: the crowd demo. A crowd driven by players' commands (made up from
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

struct DemoArgs {
  std::string input = "sample";
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

  Result<CrowdInput> input = loadCrowdInput(args.input, {}, args.clips.clips_from);
  if (!input.ok()) return fail(input.status().message());
  if (const std::string m = checkLod(choice->lod, *input); !m.empty()) return usageError(m);
  Result<ClipSet> clip_set = crowdClipSet(*input, args.clips.clips);
  for (const std::string& w : input->warnings) fmt::print(stderr, "throng: warning: {}\n", w);
  if (!clip_set.ok()) return usageError("--clips: " + clip_set.status().message());
  const Package& package = input->package;
  if (Status s = bindCommandScript(script, package.clips, static_cast<uint32_t>(args.agents));
      !s.ok()) {
    return fail(s.message());
  }

  Crowd crowd(package.clips, *clip_set);
  std::mt19937 rng(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float spacing = kGridSpacing * input->size;
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(columns - 1);
  for (int i = 0; i < args.agents; ++i) {
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % columns) - half, 0.0f,
                           spacing * static_cast<float>(i / columns) - half);
    p.heading = unit(rng) * 6.2831853f;
    crowd.addAgent(p, unit(rng) * 2.0f);
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
  if (choice->tint) desc.state_tints = cli::kStateTints;  // --tint off: every agent its material
  render::FrameView view =
      crowdView(choice->street, glm::vec2(-half), glm::vec2(half), input->size,
                static_cast<float>(args.frontend.width) / static_cast<float>(args.frontend.height));
  addScenery(view, desc, glm::vec2(-half), glm::vec2(half), input->size);
  render::CrowdRenderer renderer(**device, package, desc);
  if (!renderer.ok()) return fail(renderer.status().message());

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
  FrameReport report{&*input, device->get(), &renderer, {}, args.frontend.out};
  for (int f = 0; f < kDrawnFrames; ++f) {
    if (f + 1 == kDrawnFrames && ticks > 0) tick(ticks - 1, true);
    (*device)->beginFrame(kFogColor);
    if (Status s = renderer.draw(view, crowd); !s.ok()) return fail(s.message());
    const double ms = (*device)->finish();
    if (f > 0) report.frame_ms.push_back(ms);
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

  // The GPU-driven path keeps the crowd on the GPU: bring it back for the summary.
  if (Result<bool> back = renderer.readBack(crowd, true); !back.ok()) {
    return fail(back.status().message());
  }
  std::array<int, kAgentStateCount> by_state{};
  for (AgentState s : crowd.states()) ++by_state[static_cast<int>(s)];
  if (args.frontend.json) {
    nlohmann::json json = reportJson(report);
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
    json["clip_set"] = describeClipSet(*clip_set, package.clips);
    fmt::print("{}\n", json.dump());
    return 0;
  }
  fmt::print("input: {} ({}: {} clips, {} LODs)\n", input->name, input->how, package.clips.size(),
             package.lods.size());
  fmt::print("clips: {}\n", describeClipSet(*clip_set, package.clips));
  fmt::print("crowd: {} agents after {:.1f} s and {} commands ({}):", crowd.agentCount(),
             args.seconds, submitted, replay ? "from " + args.commands : "made up from the seed");
  for (int s = 0; s < kAgentStateCount; ++s) {
    fmt::print(" {} {}", by_state[s], agentStateName(static_cast<AgentState>(s)));
  }
  fmt::print("\n");
  if (!args.record.empty()) fmt::print("recorded {} commands to {}\n", next, args.record);
  printReport(report);
  return 0;
}

std::function<int()> setupDemo(CLI::App& sub) {
  auto args = std::make_shared<DemoArgs>();
  sub.add_option("input", args->input,
                 "a package (.throng), a character (.glb/.gltf, baked in memory) or 'sample' "
                 "(the default); its clips are mapped to the states by --clips, else by name")
      ->capture_default_str();
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
