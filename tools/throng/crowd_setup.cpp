// The crowd set-up `render` and `demo` share: inputs, device, view, renderers, the picture.
#include "crowd_setup.h"

#include <algorithm>

#include <fmt/core.h>

#include "command.h"
#include "progress_bar.h"
#include "scenery.h"
#include "shading_options.h"
#include "throng/core/joint_encoding.h"
#include "throng/impostor/impostor_bake.h"
#include "throng/render/capture.h"

namespace throng::cli {

Result<std::vector<std::string>> clipMapsPerInput(const std::vector<std::string>& maps,
                                                  size_t inputs) {
  if (maps.empty()) return std::vector<std::string>(inputs);
  if (maps.size() == 1) return std::vector<std::string>(inputs, maps[0]);
  if (maps.size() == inputs) return maps;
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("--clips: given {} times for {} inputs: give one map for every input "
                            "(in input order; '' = by name), or one for all",
                            maps.size(), inputs));
}

int loadInputs(const std::vector<std::string>& names, const ClipArgs& clips,
               const std::optional<int>& lod, const std::optional<bool>& impostors,
               LoadedInputs& out) {
  if (names.size() > kMaxInputs) {
    return usageError(
        fmt::format("{} inputs: at most {} characters per crowd", names.size(), kMaxInputs));
  }
  Result<std::vector<std::string>> clip_maps = clipMapsPerInput(clips.clips, names.size());
  if (!clip_maps.ok()) return usageError(clip_maps.status().message());
  out.clip_maps = std::move(clip_maps).value();
  ProgressBar bar;
  for (const std::string& name : names) {
    Result<CrowdInput> input = loadCrowdInput(
        name,
        [&](float done, const char* step) {
          bar.update(fmt::format("loading {}: {}", name, step), done);
        },
        clips.clips_from);
    bar.finish();
    if (!input.ok()) return fail(input.status().message());
    if (impostors.value_or(false) && input->package.impostor.empty()) {
      // Only when asked for: the bake renders every view and frame (seconds), which a quick
      // render of a glTF should not wait for.
      Result<Impostor> baked = impostor::bakeImpostors(input->package);
      if (!baked.ok())
        return fail(fmt::format("{}: --impostors on: {}", name, baked.status().message()));
      input->package.impostor = std::move(baked).value();
    }
    if (const std::string m = checkLod(lod, *input, impostors); !m.empty()) return usageError(m);
    out.size = std::max(out.size, input->size);
    out.inputs.push_back(std::move(input).value());
  }
  return 0;
}

render::CrowdRendererDesc rendererDesc(const FrontendArgs& args, const FrontendChoice& choice) {
  render::CrowdRendererDesc desc;
  desc.path = choice.path;
  desc.fixed_lod = choice.lod;
  desc.lod_threshold_pixels = choice.lod_threshold;
  desc.lod_tint = args.lod_tint;
  desc.tint = choice.tint;
  desc.palette_pass = choice.palette_pass;
  desc.impostors = choice.impostors.value_or(true);
  return desc;
}

int setUpDrawing(const FrontendArgs& args, const FrontendChoice& choice,
                 std::span<const CrowdInput> inputs, render::CrowdRendererDesc desc,
                 const glm::vec2& low, const glm::vec2& high, float size, CrowdDrawing& out) {
  Result<std::unique_ptr<render::Device>> device =
      createDevice(choice.path, args.width, args.height);
  if (!device.ok()) return fail(device.status().message());
  out.device = std::move(device).value();
  if (!out.device->caps().rasterizes) {
    fmt::print(stderr,
               "warning: the GL renderer is Mesa's no-op driver ('{}', GALLIUM_NOOP): nothing is "
               "rasterised, the image will be blank and frame times leave out the GPU's work\n",
               out.device->caps().renderer);
  }
  out.view = crowdView(choice.street, low, high, size,
                       static_cast<float>(args.width) / static_cast<float>(args.height));
  addScenery(out.view, desc, low, high, size);
  desc.shadows = choice.shadows;
  if (choice.light) out.view.light_direction = *choice.light;
  if (!args.shader.empty()) {
    Result<std::shared_ptr<const render::ShaderSource>> shader = loadShader(args.shader);
    if (!shader.ok()) return fail(shader.status().message());
    desc.shader = std::move(shader).value();
  }
  std::vector<const Package*> packages;
  std::vector<std::string> names;
  for (const CrowdInput& in : inputs) {
    packages.push_back(&in.package);
    names.push_back(in.name);
  }
  Result<std::unique_ptr<render::MixedCrowdRenderer>> made =
      render::MixedCrowdRenderer::create(*out.device, packages, desc, names);
  if (!made.ok()) return fail(made.status().message());
  out.renderer = std::move(made).value();
  return 0;
}

Result<double> drawFrame(CrowdDrawing& drawing, const Crowd& crowd,
                         std::span<const glm::vec4> tints) {
  drawing.device->beginFrame(kFogColor);
  if (Status s = drawing.renderer->draw(drawing.view, crowd, tints); !s.ok()) return s;
  return drawing.device->finish();
}

int writeFrame(render::Device& device, const std::string& out) {
  Result<render::Image> image = device.readPixels();
  if (!image.ok()) return fail(image.status().message());
  if (Status s = render::writePng(*image, out); !s.ok()) return fail(s.message());
  return 0;
}

FrameReport characterReport(const CrowdDrawing& drawing, const CrowdInput& input, size_t c,
                            const std::vector<double>& frame_ms, const std::string& out) {
  return FrameReport{&input, drawing.device.get(), &drawing.renderer->renderer(c), frame_ms, out};
}

void addMixedJson(nlohmann::json& json, const render::MixedCrowdRenderer& renderer,
                  uint32_t agents) {
  json["agents"] = agents;
  json["draw_calls"] = renderer.stats().draw_calls;
  json["animation_texture_binds"] = renderer.stats().animation_texture_binds;
  json["animation_texture_shared"] = renderer.sharedTexture() != nullptr;
}

std::vector<Warning> crowdWarnings(const CrowdDrawing& drawing,
                                   std::span<const CrowdInput> inputs) {
  std::vector<Warning> warnings;
  for (const CrowdInput& in : inputs) {
    warnings.insert(warnings.end(), in.warnings.begin(), in.warnings.end());
  }
  for (size_t c = 0; c < inputs.size(); ++c) {
    for (Warning w : drawing.renderer->renderer(c).warnings()) {
      w.message = inputs[c].name + ": " + w.message;
      w.details.insert(w.details.begin(), {"file", inputs[c].name});
      warnings.push_back(std::move(w));
    }
  }
  return warnings;
}

void printMixedReport(const CrowdDrawing& drawing, std::span<const CrowdInput> inputs,
                      uint32_t agents, const std::string& what, std::span<const TextColumn> extra,
                      const std::vector<double>& frame_ms, const std::string& out) {
  const render::MixedCrowdRenderer& mixed = *drawing.renderer;
  printDeviceAndPath(*drawing.device, mixed.renderer(0));
  const bool merged = mixed.path() == render::RenderPath::kMerged ||
                      mixed.path() == render::RenderPath::kPerCharacter;
  std::vector<TextColumn> columns = {
      {"#", true, {}},     {"input", false, {}},    {"clips", true, {}},
      {"LODs", true, {}},  {"agents", true, {}},    {"visible", true, {}},
      {"draws", true, {}}, {"triangles", true, {}}, {"per LOD", false, {}}};
  TextColumn encoding{"joint encoding", false, {}};
  for (size_t c = 0; c < inputs.size(); ++c) {
    const render::CrowdRenderer& r = mixed.renderer(c);
    const render::CrowdFrameStats& stats = r.stats();
    const std::string cells[] = {std::to_string(c),
                                 inputs[c].name,
                                 std::to_string(inputs[c].package.clips.size()),
                                 std::to_string(inputs[c].package.lods.size()),
                                 std::to_string(mixed.agentsOf(c)),
                                 std::to_string(stats.visible),
                                 std::to_string(stats.draw_calls),
                                 std::to_string(stats.triangles),
                                 lodAgents(stats, r.lodCount())};
    for (size_t i = 0; i < columns.size(); ++i) columns[i].cells.push_back(cells[i]);
    encoding.cells.push_back(jointEncodingName(r.jointEncoding()));
  }
  if (merged) columns.push_back(std::move(encoding));
  columns.insert(columns.end(), extra.begin(), extra.end());
  printTable(columns);
  const size_t characters = mixed.characterCount();
  const render::CrowdFrameStats& stats = mixed.stats();
  fmt::print("mixed crowd: {} agents of {} characters{}; draw calls: {} in all", agents, characters,
             what, stats.draw_calls);
  if (stats.ground_draw_calls > 0) {
    fmt::print(" (and {} for the ground and shadows)", stats.ground_draw_calls);
  }
  fmt::print("; {} of {} agents visible; {} triangles\n", stats.visible, stats.agents,
             stats.triangles);
  const uint32_t binds = stats.animation_texture_binds;
  if (const render::SharedAnimationTexture* shared = mixed.sharedTexture()) {
    fmt::print(
        "animation texture: one {}x{} texture shared by {} characters; texture binds per "
        "frame: {}\n",
        shared->width(), shared->height(), characters, binds);
  } else {
    fmt::print("animation textures: one per character ({}); texture binds per frame: {}\n",
               mixed.separateTextures(), binds);
  }
  printFrameFooter(stats.cpu_ms, frame_ms, *drawing.device, out);
}

}  // namespace throng::cli
