// The crowd set-up `render` and `demo` share: inputs, device, view, renderers, the picture.
#include "crowd_setup.h"

#include <algorithm>

#include <fmt/core.h>

#include "command.h"
#include "scenery.h"
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
               const std::optional<int>& lod, LoadedInputs& out) {
  if (names.size() > kMaxInputs) {
    return usageError(
        fmt::format("{} inputs: at most {} characters per crowd", names.size(), kMaxInputs));
  }
  Result<std::vector<std::string>> clip_maps = clipMapsPerInput(clips.clips, names.size());
  if (!clip_maps.ok()) return usageError(clip_maps.status().message());
  out.clip_maps = std::move(clip_maps).value();
  for (const std::string& name : names) {
    Result<CrowdInput> input = loadCrowdInput(name, {}, clips.clips_from);
    if (!input.ok()) return fail(input.status().message());
    if (const std::string m = checkLod(lod, *input); !m.empty()) return usageError(m);
    out.size = std::max(out.size, input->size);
    out.inputs.push_back(std::move(input).value());
  }
  return 0;
}

void printWarnings(const CrowdInput& input) {
  for (const std::string& w : input.warnings) fmt::print(stderr, "throng: warning: {}\n", w);
}

render::CrowdRendererDesc rendererDesc(const FrontendArgs& args, const FrontendChoice& choice) {
  render::CrowdRendererDesc desc;
  desc.path = choice.path;
  desc.fixed_lod = choice.lod;
  desc.lod_threshold_pixels = choice.lod_threshold;
  desc.lod_tint = args.lod_tint;
  desc.tint = choice.tint;
  desc.palette_pass = choice.palette_pass;
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

void printMixedCrowd(const render::MixedCrowdRenderer& renderer, uint32_t agents,
                     const std::string& what) {
  const size_t characters = renderer.characterCount();
  const uint32_t binds = renderer.stats().animation_texture_binds;
  fmt::print("mixed crowd: {} agents of {} characters{}; draw calls: {} in all\n", agents,
             characters, what, renderer.stats().draw_calls);
  if (const render::SharedAnimationTexture* shared = renderer.sharedTexture()) {
    fmt::print(
        "animation texture: one {}x{} texture shared by {} characters; texture binds per "
        "frame: {}\n",
        shared->width(), shared->height(), characters, binds);
  } else {
    fmt::print("animation textures: one per character ({}); texture binds per frame: {}\n",
               renderer.separateTextures(), binds);
  }
}

}  // namespace throng::cli
