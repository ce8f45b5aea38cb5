// Entry point of throng-viewer: options, the characters given (loaded before any window opens,
// so a bad file fails fast with a message), then the window.
#include <string>
#include <vector>

#include <fmt/core.h>
#include <CLI/CLI.hpp>

#include "crowd_input.h"
#include "shading_options.h"
#include "viewer.h"

namespace {

using throng::viewer::kExitUsage;

int usageError(const std::string& message) {
  fmt::print(stderr, "throng-viewer: {}\n", message);
  return kExitUsage;
}

// Screenshot runs without --frames draw this many frames (two seconds of a 30 Hz crowd).
constexpr int kDefaultScreenshotFrames = 60;
// Window sides beyond this are refused before asking the window system.
constexpr int kMaxWindowSide = 16384;
// A run of more frames than this is a mistake, not a screenshot.
constexpr int kMaxFrames = 100000;

}  // namespace

int main(int argc, char** argv) {
  using namespace throng;
  viewer::ViewerOptions options;
  std::string path = "auto";
  bool no_vsync = false;
  int agents = static_cast<int>(options.agents);
  CLI::App app{
      "throng-viewer: a window onto a crowd (orbit, pan, zoom; panels for the paths, LODs and "
      "commands; drop a .glb onto it to add that character to the crowd)"};
  app.add_option("input", options.inputs,
                 "characters: packages (.throng), glTF files (.glb/.gltf, baked in memory) or "
                 "'sample' (the default); several make one mixed crowd, agent i of input i % "
                 "count");
  app.add_option("--agents", agents, "number of characters (1..1000000)")->capture_default_str();
  app.add_option("--path", path,
                 "render path: auto or one the front end offers (instanced, merged, "
                 "per-character, ...)")
      ->capture_default_str();
  app.add_flag("--es2", options.es2,
               "an OpenGL ES 2.0 context (merged batches); sets MESA_GLES_VERSION_OVERRIDE=2.0 "
               "for Mesa unless it is set");
  app.add_option("--width", options.width, "window width")->capture_default_str();
  app.add_option("--height", options.height, "window height")->capture_default_str();
  app.add_option("--screenshot", options.screenshot,
                 "run --frames frames, write the last one (panels included) as a PNG and exit");
  app.add_option("--frames", options.frames,
                 "frames to run, then exit (default with --screenshot: 60)");
  app.add_flag("--no-vsync", no_vsync, "start with vsync off (the panel toggles it)");
  app.add_flag("--lod-colors", options.lod_colors, "start with every agent coloured by its LOD");
  app.add_option("--drop", options.drops,
                 "load FILE as if it were dropped onto the window (repeatable)");
  std::string shader;
  std::string shadows = render::shadowModeName(options.shadows);
  app.add_option("--shader", shader,
                 "GLSL file defining vec4 throngShade(ThrongSurface s): the crowd's shading "
                 "(docs/shaders.md)");
  std::string impostors = "auto";
  app.add_option("--impostors", impostors,
                 "auto (drawn where a package has them), on (a character without one gets one "
                 "baked in memory: seconds) or off; the panel toggles them")
      ->capture_default_str();
  app.add_option("--shadows", shadows,
                 "map (a shadow map, blobs where the device has no depth textures), blob or off; "
                 "the panel changes it")
      ->capture_default_str();
  int64_t inspect = -1;
  app.add_option("--inspect", inspect,
                 "select agent AGENT at the start (its panel shows how it is drawn; a screenshot "
                 "run says how often that was read)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return usageError(e.what());
  }
  options.vsync = !no_vsync;
  const std::optional<render::ShadowMode> shadow_mode = cli::shadowModeFromName(shadows);
  if (!shadow_mode)
    return usageError(fmt::format("--shadows {}: must be map, blob or off", shadows));
  options.shadows = *shadow_mode;
  if (impostors != "auto" && impostors != "on" && impostors != "off")
    return usageError(fmt::format("--impostors {}: must be auto, on or off", impostors));
  if (impostors != "auto") options.impostors = impostors == "on";
  if (!shader.empty()) {
    Result<std::shared_ptr<const render::ShaderSource>> loaded = cli::loadShader(shader);
    if (!loaded.ok()) return viewer::fail(loaded.status().message());
    options.shader = std::move(loaded).value();
  }
  if (agents < 1 || agents > static_cast<int>(viewer::kMaxAgents)) {
    return usageError(
        fmt::format("--agents {}: must be a whole number in 1..{}", agents, viewer::kMaxAgents));
  }
  options.agents = static_cast<uint32_t>(agents);
  if (inspect != -1) {
    if (inspect < 0 || inspect >= agents) {
      return usageError(
          fmt::format("--inspect {}: must be an agent in 0..{}", inspect, agents - 1));
    }
    options.inspect = static_cast<uint32_t>(inspect);
  }
  const std::optional<render::RenderPath> chosen = render::renderPathFromName(path);
  if (!chosen) {
    std::string names;
    for (int i = 0; i < render::kRenderPathCount; ++i) {
      names += fmt::format("{}{}", i == 0 ? "" : ", ",
                           render::renderPathName(static_cast<render::RenderPath>(i)));
    }
    return usageError(fmt::format("--path {}: must be one of {}", path, names));
  }
  options.path = *chosen;
  for (const auto& [flag, value] :
       {std::pair<const char*, int>{"--width", options.width}, {"--height", options.height}}) {
    if (value < 1 || value > kMaxWindowSide) {
      return usageError(
          fmt::format("{} {}: must be a whole number in 1..{}", flag, value, kMaxWindowSide));
    }
  }
  if (options.frames < 0 || options.frames > kMaxFrames) {
    return usageError(
        fmt::format("--frames {}: must be a whole number in 0..{}", options.frames, kMaxFrames));
  }
  if (!options.screenshot.empty() && options.frames == 0) {
    options.frames = kDefaultScreenshotFrames;
  }
  if (options.inputs.empty()) options.inputs.push_back("sample");

  std::vector<viewer::ViewerCharacter> characters;
  for (const std::string& input : options.inputs) {
    Result<cli::CrowdInput> loaded =
        viewer::loadViewerInput(input, options.impostors.value_or(false));
    if (!loaded.ok()) return viewer::fail(loaded.status().message());
    for (const Warning& w : loaded->warnings) {
      fmt::print(stderr, "throng-viewer: warning: {}\n", w.message);
    }
    characters.push_back(viewer::makeViewerCharacter(std::move(loaded).value()));
  }
  viewer::Viewer v(std::move(options), std::move(characters));
  return v.run();
}
