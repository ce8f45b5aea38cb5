// `throng demo`: the crowd demo. Bakes the built-in character, drives a crowd with random
// commands, renders it headless and writes a PNG.
#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include <fmt/core.h>
#include <glm/gtc/matrix_transform.hpp>

#include "command.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/culling.h"
#include "throng/crowd/lod_pick.h"
#include "throng/crowd/playback.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"
#include "throng/render/camera.h"
#include "throng/render/capture.h"
#include "throng/render/device.h"
#include "throng/render/instanced_renderer.h"

namespace throng::cli {
namespace {

// The crowd ticks at this rate; commands arrive every kCommandPeriod seconds.
constexpr float kTickSeconds = 1.0f / 30.0f;
constexpr float kCommandPeriod = 0.5f;
// Distance between neighbours on the starting grid, in character heights.
constexpr float kGridSpacing = 1.1f;

struct DemoArgs {
  int agents = 400;
  float seconds = 6.0f;
  std::string out = "crowd.png";
  int width = 960;
  int height = 540;
  uint32_t seed = 1;
  int timed_frames = 3;
  std::string view = "overview";  // or "street": at eye height in front of the crowd
};

glm::vec4 stateTint(AgentState state) {
  static const std::array<glm::vec4, kAgentStateCount> kTints = {
      glm::vec4(0.80f, 0.80f, 0.85f, 1.0f),  // idle: grey
      glm::vec4(0.45f, 0.70f, 1.00f, 1.0f),  // walk: blue
      glm::vec4(0.40f, 0.95f, 0.50f, 1.0f),  // run: green
      glm::vec4(1.00f, 0.55f, 0.25f, 1.0f),  // attack: orange
      glm::vec4(0.55f, 0.25f, 0.25f, 1.0f),  // dead: dark red
  };
  return kTints[static_cast<int>(state)];
}

int runDemo(const DemoArgs& args) {
  if (args.agents < 1 || args.seconds < 0.0f || args.width < 16 || args.height < 16) {
    return fail("demo: --agents must be >= 1, --seconds >= 0, the image at least 16x16");
  }
  const Character character = makeSampleCharacter();
  BakeOptions bake_options;
  bake_options.source = "built-in sample character";
  BakeReport bake_report;
  Result<Package> package = bakeCharacter(character, bake_options, &bake_report);
  if (!package.ok()) return fail(package.status().message());
  fmt::print("baked {} clips, {} frames, texture {}x{} ({:.3g} s)\n", package->clips.size(),
             package->animation.frame_count, package->animation.width, package->animation.height,
             bake_report.seconds);

  // Method A's LOD chain (simplified meshes, fewer bones) lets far characters cost less.
  Result<std::vector<MeshLod>> lods = buildLodChain(character, defaultLodChainOptions());
  if (!lods.ok()) return fail(lods.status().message());
  package->lods = std::move(*lods);

  Result<ClipSet> clip_set = clipSetByName(package->clips);
  if (!clip_set.ok()) return fail(clip_set.status().message());
  // The sample's walk and run are in place; these speeds keep its planted feet from sliding.
  clip_set->walk_speed = kSampleWalkSpeed;
  clip_set->run_speed = kSampleRunSpeed;
  Crowd crowd(package->clips, *clip_set);
  std::mt19937 rng(args.seed);
  std::uniform_real_distribution<float> unit(0.0f, 1.0f);
  const float spacing = kGridSpacing * character.size();
  const int columns = static_cast<int>(std::ceil(std::sqrt(static_cast<float>(args.agents))));
  const float half = 0.5f * spacing * static_cast<float>(columns - 1);
  for (int i = 0; i < args.agents; ++i) {
    Placement p;
    p.position = glm::vec3(spacing * static_cast<float>(i % columns) - half, 0.0f,
                           spacing * static_cast<float>(i / columns) - half);
    p.heading = unit(rng) * 6.2831853f;
    crowd.addAgent(p, unit(rng) * 2.0f);
  }

  // Players' commands: every period a few agents are told to walk, run, attack or die.
  uint64_t commands = 0;
  const int ticks = static_cast<int>(std::lround(args.seconds / kTickSeconds));
  const int ticks_per_command =
      std::max(1, static_cast<int>(std::lround(kCommandPeriod / kTickSeconds)));
  for (int tick = 0; tick < ticks; ++tick) {
    if (tick % ticks_per_command == 0) {
      const int count = std::max(1, args.agents / 12);
      for (int c = 0; c < count; ++c) {
        Command command;
        command.agent = static_cast<uint32_t>(rng() % static_cast<uint32_t>(args.agents));
        const float roll = unit(rng);
        command.type = roll < 0.45f   ? CommandType::kWalkTo
                       : roll < 0.75f ? CommandType::kRunTo
                       : roll < 0.97f ? CommandType::kAttack
                                      : CommandType::kDie;
        command.target =
            glm::vec2((unit(rng) * 2.0f - 1.0f) * half, (unit(rng) * 2.0f - 1.0f) * half);
        crowd.submit(command);
        ++commands;
      }
    }
    crowd.update(kTickSeconds);
  }

  Result<std::unique_ptr<render::Device>> device =
      render::Device::createHeadless({3, args.width, args.height, {}});
  if (!device.ok()) return fail(device.status().message());
  Result<std::unique_ptr<render::InstancedRenderer>> renderer =
      render::InstancedRenderer::create(**device, *package);
  if (!renderer.ok()) return fail(renderer.status().message());

  std::vector<InstanceFrames> frames(crowd.agentCount());
  if (!PlaybackJob{package->clips, crowd.playback(), frames}.run()) {
    return fail("demo: playback job rejected the crowd state");
  }
  Bounds scene{glm::vec3(-half - spacing, 0.0f, -half - spacing),
               glm::vec3(half + spacing, character.size(), half + spacing)};
  const float aspect = static_cast<float>(args.width) / static_cast<float>(args.height);
  render::FrameView view;
  glm::vec3 eye;
  if (args.view == "street") {
    // A person standing just in front of the crowd, looking into it.
    eye = glm::vec3(0.0f, 0.95f * character.size(), half + 1.5f * spacing);
    view.view_projection =
        glm::perspective(1.0472f, aspect, 0.05f, 4.0f * (half + 2.0f * spacing)) *
        glm::lookAt(eye, glm::vec3(0.0f, 0.6f * character.size(), 0.0f), glm::vec3(0, 1, 0));
  } else {
    view.view_projection =
        render::framingViewProjection(scene, aspect, render::CameraFraming{.fit_corners = true});
    // The eye is the point the projection sends to infinity: inverse(VP) * (0, 0, 1, 0).
    const glm::vec4 eye_h = glm::inverse(view.view_projection) * glm::vec4(0, 0, 1, 0);
    eye = glm::vec3(eye_h) / eye_h.w;
  }

  // Cull by clip bounds, then sort the visible by LOD (counting sort) for InstancedRenderer::draw.
  std::vector<uint32_t> visible(crowd.agentCount());
  uint32_t visible_count = 0;
  if (!CullJob{package->clips, crowd.placements(), crowd.playback(),
               frustumFromViewProjection(view.view_projection), visible, &visible_count}
           .run()) {
    return fail("demo: culling job rejected the crowd state");
  }
  const int lod_count = static_cast<int>(package->lods.size());
  std::vector<int> lod_of(crowd.agentCount());
  std::vector<uint32_t> lod_counts(lod_count, 0);
  for (uint32_t v = 0; v < visible_count; ++v) {
    const Placement& p = crowd.placements()[visible[v]];
    const int lod = pickLod(package->lods, modelDistance(glm::distance(eye, p.position), p.scale));
    lod_of[visible[v]] = lod;
    ++lod_counts[lod];
  }
  std::vector<uint32_t> next(lod_count, 0);
  for (int l = 1; l < lod_count; ++l) next[l] = next[l - 1] + lod_counts[l - 1];
  std::vector<render::Instance> instances(visible_count);
  for (uint32_t v = 0; v < visible_count; ++v) {
    const uint32_t a = visible[v];
    instances[next[lod_of[a]]++] = {crowd.placements()[a], frames[a], stateTint(crowd.states()[a])};
  }

  std::vector<double> times;
  for (int f = 0; f < args.timed_frames + 1; ++f) {
    (*device)->beginFrame(glm::vec4(0.12f, 0.13f, 0.16f, 1.0f));
    if (Status s = (*renderer)->draw(view, instances, lod_counts); !s.ok()) {
      return fail(s.message());
    }
    const double ms = (*device)->finish();
    if (f > 0) times.push_back(ms);  // the first frame pays for shader and upload warm-up
  }
  std::sort(times.begin(), times.end());
  Result<render::Image> image = (*device)->readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, args.out); !s.ok()) return fail(s.message());

  std::array<int, kAgentStateCount> by_state{};
  for (AgentState s : crowd.states()) ++by_state[static_cast<int>(s)];
  const render::RenderStats& stats = (*renderer)->stats();
  fmt::print("crowd: {} agents after {:.1f} s and {} commands:", crowd.agentCount(), args.seconds,
             commands);
  for (int s = 0; s < kAgentStateCount; ++s) {
    fmt::print(" {} {}", by_state[s], agentStateName(static_cast<AgentState>(s)));
  }
  fmt::print("\nrender: {} ({}), {} draw call(s), {} triangles, frame {:.2f} ms (median of {})\n",
             (*device)->caps().renderer, (*device)->caps().version, stats.draw_calls,
             stats.triangles, times[times.size() / 2], times.size());
  fmt::print("culling: {} of {} agents visible\n", visible_count, crowd.agentCount());
  fmt::print("lods (agents per level):");
  for (int l = 0; l < lod_count; ++l) {
    fmt::print(" {}: {} ({} triangles, {} joints)", l, lod_counts[l],
               package->lods[l].mesh.triangleCount(),
               package->lods[l].palette_joints.empty() ? character.skeleton.jointCount()
                                                       : package->lods[l].palette_joints.size());
  }
  fmt::print("\nwrote {} ({}x{})\n", args.out, args.width, args.height);
  return 0;
}

std::function<int()> setupDemo(CLI::App& sub) {
  auto args = std::make_shared<DemoArgs>();
  sub.add_option("--agents", args->agents, "number of characters")->capture_default_str();
  sub.add_option("--seconds", args->seconds, "simulated seconds before the picture")
      ->capture_default_str();
  sub.add_option("--out", args->out, "PNG to write")->capture_default_str();
  sub.add_option("--width", args->width, "image width in pixels")->capture_default_str();
  sub.add_option("--height", args->height, "image height in pixels")->capture_default_str();
  sub.add_option("--seed", args->seed, "random seed of the commands")->capture_default_str();
  sub.add_option("--view", args->view, "camera: overview (the whole crowd) or street (eye level)")
      ->check(CLI::IsMember({"overview", "street"}))
      ->capture_default_str();
  return [args] { return runDemo(*args); };
}

[[maybe_unused]] const bool kRegistered = registerCommand(
    {"demo",
     "the crowd demo: the built-in character driven by commands, one instanced draw per LOD",
     setupDemo});

}  // namespace
}  // namespace throng::cli
