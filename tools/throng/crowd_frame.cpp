// The shared half of `throng render` and `throng demo`: options, checks, device, views, report.
#include "crowd_frame.h"

#include <algorithm>
#include <charconv>

#include <fmt/core.h>

#include "gles_version.h"
#include "shading_options.h"
#include "throng/core/joint_encoding.h"
#include "throng/render/camera.h"

namespace throng::cli {
namespace {

// Street camera, in character sizes: eye height, distance in front of the front row, and the
// height it looks at (the crowd's centre); field of view 60 degrees.
constexpr float kStreetEyeHeight = 0.95f;
constexpr float kStreetEyeBack = 1.65f;
constexpr float kStreetTargetHeight = 0.6f;
constexpr float kStreetFovY = 1.0471976f;

double median(std::vector<double> values) {
  if (values.empty()) return 0.0;
  std::sort(values.begin(), values.end());
  const size_t n = values.size();
  return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

}  // namespace

void addClipOptions(CLI::App& sub, ClipArgs& args) {
  sub.add_option("--clips", args.clips,
                 "which clip each state plays, e.g. idle=Survey,walk=Walk,run=Run (also attack, "
                 "die, walk_speed, run_speed); states left out are found by name. Once: for every "
                 "input; once per input (repeated, in input order; '' = by name): each its own")
      ->allow_extra_args(false);
  sub.add_option("--clips-from", args.clips_from,
                 "more glTF files whose clips the character plays (bound by joint name)");
}

void addFrontendOptions(CLI::App& sub, FrontendArgs& args) {
  sub.add_option("--path", args.path, "render path: auto, gpu, instanced, merged or per-character")
      ->capture_default_str();
  sub.add_option("--lod", args.lod, "auto (picked per agent) or a LOD index for every agent")
      ->capture_default_str();
  sub.add_option("--lod-threshold", args.lod_threshold,
                 "pixels of LOD error allowed on screen when the LOD is picked per agent")
      ->capture_default_str();
  sub.add_flag(
      "--lod-tint", args.lod_tint,
      "colour every agent by the LOD it is drawn with (0 green, 1 lime, 2 yellow, 3 orange)");
  sub.add_option("--view", args.view, "camera: overview (the whole crowd) or street (eye level)")
      ->capture_default_str();
  sub.add_option("--width", args.width, "image width in pixels")->capture_default_str();
  sub.add_option("--height", args.height, "image height in pixels")->capture_default_str();
  sub.add_option("-o,--out", args.out, "PNG file to write")->capture_default_str();
  sub.add_flag("--json", args.json, "print the frame's numbers as one JSON object on stdout");
  sub.add_option("--tint", args.tint,
                 "on: each agent's tint multiplies its materials; off: the materials as authored")
      ->capture_default_str();
  sub.add_option("--palette-pass", args.palette_pass,
                 "instanced path: on blends each agent's palette once per frame in a pass of its "
                 "own, off blends it per vertex, auto picks by the vertices skinned")
      ->capture_default_str();
  sub.add_option("--shader", args.shader,
                 "GLSL file defining vec4 throngShade(ThrongSurface s): the crowd's shading on "
                 "every path (docs/shaders.md)");
  sub.add_option("--shadows", args.shadows,
                 "map (a shadow map from the light; blobs where the device has no depth "
                 "textures), blob or off")
      ->capture_default_str();
  sub.add_option("--light", args.light,
                 "X,Y,Z: the direction the light travels (default -0.4,-1,-0.6)");
  sub.add_option("--impostors", args.impostors,
                 "auto (draw the package's impostor, the LOD past its meshes, when it has one), on "
                 "(an input without one gets one baked in memory) or off")
      ->capture_default_str();
  sub.add_option("--attachments", args.attachments,
                 "the props (bake --attach) each agent shows: all, none, or random (a subset per "
                 "agent, from --seed)")
      ->capture_default_str();
}

void applyAttachments(AttachmentChoice choice, uint32_t seed, Crowd& crowd) {
  if (choice == AttachmentChoice::kAll) return;  // a new agent's default
  for (uint32_t a = 0; a < crowd.agentCount(); ++a) {
    uint32_t mask = 0;
    if (choice == AttachmentChoice::kRandom) {
      // A splitmix-style hash of (seed, agent): independent bits per agent.
      uint64_t x = (uint64_t{seed} << 32 | a) + 0x9e3779b97f4a7c15ull;
      x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
      x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
      mask = static_cast<uint32_t>(x ^ (x >> 31)) & kAllAttachments;
    }
    crowd.setAttachments(a, mask);
  }
}

std::string checkRange(const char* flag, long long value, long long low, long long high) {
  if (value >= low && value <= high) return {};
  return fmt::format("{} {}: must be a whole number in {}..{}", flag, value, low, high);
}

Result<FrontendChoice> checkFrontendArgs(const FrontendArgs& args) {
  auto usage = [](const std::string& message) {
    return Status(ErrorCode::kInvalidArgument, message);
  };
  FrontendChoice choice;
  const std::optional<render::RenderPath> path = render::renderPathFromName(args.path);
  if (!path) {
    return usage(
        fmt::format("--path {}: must be auto, gpu, instanced, merged or per-character", args.path));
  }
  choice.path = *path;
  if (args.lod != "auto") {
    int lod = -1;
    const auto [end, ec] = std::from_chars(args.lod.data(), args.lod.data() + args.lod.size(), lod);
    if (ec != std::errc() || end != args.lod.data() + args.lod.size() || lod < 0) {
      return usage(fmt::format("--lod {}: must be auto or a LOD index (0, 1, ...)", args.lod));
    }
    choice.lod = lod;
  }
  if (!(args.lod_threshold >= kMinLodThresholdPx && args.lod_threshold <= kMaxLodThresholdPx)) {
    return usage(fmt::format("--lod-threshold {}: must be a number of pixels in [{}, {}]",
                             args.lod_threshold, kMinLodThresholdPx, kMaxLodThresholdPx));
  }
  choice.lod_threshold = args.lod_threshold;
  if (args.view != "overview" && args.view != "street") {
    return usage(fmt::format("--view {}: must be overview or street", args.view));
  }
  choice.street = args.view == "street";
  for (const std::string& message : {checkRange("--width", args.width, 1, kMaxFrameSide),
                                     checkRange("--height", args.height, 1, kMaxFrameSide)}) {
    if (!message.empty()) return usage(message);
  }
  if (args.tint != "on" && args.tint != "off") {
    return usage(fmt::format("--tint {}: must be on or off", args.tint));
  }
  choice.tint = args.tint == "on";
  const std::optional<render::PalettePassMode> palette =
      render::palettePassModeFromName(args.palette_pass);
  if (!palette) {
    return usage(fmt::format("--palette-pass {}: must be auto, on or off", args.palette_pass));
  }
  choice.palette_pass = *palette;
  const std::optional<render::ShadowMode> shadows = shadowModeFromName(args.shadows);
  if (!shadows) return usage(fmt::format("--shadows {}: must be map, blob or off", args.shadows));
  choice.shadows = *shadows;
  if (!args.light.empty()) {
    Result<glm::vec3> light = parseLightDirection(args.light);
    if (!light.ok()) return light.status();
    choice.light = *light;
  }
  if (args.attachments == "all" || args.attachments == "none" || args.attachments == "random") {
    choice.attachments = args.attachments == "all"    ? AttachmentChoice::kAll
                         : args.attachments == "none" ? AttachmentChoice::kNone
                                                      : AttachmentChoice::kRandom;
  } else {
    return usage(fmt::format("--attachments {}: must be all, none or random", args.attachments));
  }
  if (args.impostors != "auto" && args.impostors != "on" && args.impostors != "off") {
    return usage(fmt::format("--impostors {}: must be auto, on or off", args.impostors));
  }
  if (args.impostors != "auto") choice.impostors = args.impostors == "on";
  if (args.out.empty()) return usage("-o/--out: give the PNG file to write");
  return choice;
}

std::string checkLod(const std::optional<int>& lod, const CrowdInput& input,
                     const std::optional<bool>& impostors) {
  const bool impostor = impostors.value_or(!input.package.impostor.empty());
  const int count = static_cast<int>(input.package.lods.size()) + (impostor ? 1 : 0);
  if (!lod || *lod < count) return {};
  return fmt::format("--lod {}: {} has LODs 0..{} (or auto)", *lod, input.name, count - 1);
}

Result<std::unique_ptr<render::Device>> createDevice(render::RenderPath path, int width,
                                                     int height) {
  render::DeviceDesc desc;
  desc.width = width;
  desc.height = height;
  const bool es2 = path == render::RenderPath::kMerged || path == render::RenderPath::kPerCharacter;
  desc.gles_major = es2 ? 2 : 3;
  // The GPU-driven path needs ES 3.1 compute; auto takes whatever ES 3 the driver gives (Mesa
  // answers 3.2) and picks gpu when it has compute.
  desc.gles_minor = path == render::RenderPath::kGpu ? 1 : 0;
  useGlesVersion(desc.gles_major);
  Result<std::unique_ptr<render::Device>> device = render::Device::createHeadless(desc);
  if (!device.ok() && path == render::RenderPath::kAuto) {
    desc.gles_major = 2;
    useGlesVersion(2);
    Result<std::unique_ptr<render::Device>> es2_device = render::Device::createHeadless(desc);
    if (es2_device.ok()) return es2_device;
  }
  return device;
}

render::FrameView crowdView(bool street, const glm::vec2& low, const glm::vec2& high, float size,
                            float aspect) {
  const glm::vec2 center = 0.5f * (low + high);
  if (street) {
    const glm::vec3 eye(center.x, kStreetEyeHeight * size, high.y + kStreetEyeBack * size);
    const glm::vec3 target(center.x, kStreetTargetHeight * size, center.y);
    const float reach = glm::length(high - low) + 4.0f * size;
    return render::lookAtView(eye, target, kStreetFovY, aspect, 0.05f * size, 2.0f * reach);
  }
  const Bounds area{glm::vec3(low.x - size, 0.0f, low.y - size),
                    glm::vec3(high.x + size, size, high.y + size)};
  return render::framingView(area, aspect, render::CameraFraming{.fit_corners = true});
}

void addScenery(render::FrameView& view, render::CrowdRendererDesc& desc, const glm::vec2& low,
                const glm::vec2& high, float size) {
  addGround(desc);
  addFog(view, 0.5f * (low + high), 0.5f * glm::length(high - low) + size, size);
}

nlohmann::json reportJson(const FrameReport& r) {
  const render::CrowdFrameStats& stats = r.renderer->stats();
  const render::Caps& caps = r.device->caps();
  nlohmann::json lods = nlohmann::json::array();
  for (int l = 0; l < r.renderer->lodCount(); ++l) {
    const render::LodDrawInfo info = r.renderer->lodInfo(l);
    const bool impostor = l == r.renderer->impostorLod();
    lods.push_back({{"kind", impostor ? "impostor" : "mesh"},
                    {"agents", stats.agents_per_lod[l]},
                    {"drawn_as", info.drawn_lod},
                    {"joints", info.joints},
                    {"triangles", info.triangles},
                    {"characters_per_draw", info.characters_per_draw},
                    {"materials", info.materials}});
  }
  const render::CpuPhaseTimes& cpu = stats.cpu_ms;
  nlohmann::json frame_ms = nlohmann::json::object();
  if (!r.frame_ms.empty()) {
    frame_ms = {{"median", median(r.frame_ms)},
                {"min", *std::min_element(r.frame_ms.begin(), r.frame_ms.end())},
                {"max", *std::max_element(r.frame_ms.begin(), r.frame_ms.end())},
                {"frames", r.frame_ms.size()}};
  }
  // Merged paths: how palettes go into uniforms (the instanced and gpu paths have none).
  nlohmann::json joint_encoding = nullptr;
  if (r.renderer->path() == render::RenderPath::kMerged ||
      r.renderer->path() == render::RenderPath::kPerCharacter) {
    const JointEncoding encoding = r.renderer->jointEncoding();
    joint_encoding = {{"name", jointEncodingName(encoding)},
                      {"vec4_per_joint", vec4PerJoint(encoding)},
                      {"quat_error_share_of_height", r.renderer->quatEncodingError()},
                      {"reason", r.renderer->jointEncodingReason()}};
  }
  return {{"input", r.input->name},
          {"device", {{"renderer", caps.renderer}, {"version", caps.version}}},
          {"width", r.device->width()},
          {"height", r.device->height()},
          {"path", render::renderPathName(r.renderer->path())},
          {"path_reason", r.renderer->pathReason()},
          {"agents", stats.agents},
          {"visible", stats.visible},
          {"draw_calls", stats.draw_calls},
          {"animation_texture_binds", stats.animation_texture_binds},
          {"triangles", stats.triangles},
          {"palette_pass", stats.palette_pass},
          {"shadows",
           {{"mode", render::shadowModeName(r.renderer->shadows())},
            {"reason", r.renderer->shadowReason()},
            {"draw_calls", stats.shadow_draw_calls}}},
          {"lods", lods},
          {"impostors",
           {{"lod", r.renderer->impostorLod()},
            {"agents",
             r.renderer->impostorLod() >= 0 &&
                     static_cast<size_t>(r.renderer->impostorLod()) < stats.agents_per_lod.size()
                 ? stats.agents_per_lod[r.renderer->impostorLod()]
                 : 0u},
            {"reason", r.renderer->impostorReason()}}},
          {"joint_encoding", joint_encoding},
          {"cpu_ms",
           {{"update", cpu.update},
            {"playback", cpu.playback},
            {"cull", cpu.cull},
            {"lod", cpu.lod},
            {"pack_upload", cpu.pack_upload},
            {"submit", cpu.submit},
            {"ground", cpu.ground},
            {"shadow", cpu.shadow}}},
          {"frame_ms", frame_ms},
          {"out", r.out}};
}

void printTable(const std::vector<TextColumn>& columns) {
  std::vector<size_t> widths;
  size_t rows = 0;
  for (const TextColumn& c : columns) {
    size_t width = c.title.size();
    for (const std::string& cell : c.cells) width = std::max(width, cell.size());
    widths.push_back(width);
    rows = std::max(rows, c.cells.size());
  }
  auto printRow = [&](auto cellOf) {
    std::string line;
    for (size_t c = 0; c < columns.size(); ++c) {
      const std::string& cell = cellOf(columns[c]);
      const bool last = c + 1 == columns.size();
      if (c > 0) line += "  ";
      line += columns[c].right ? fmt::format("{:>{}}", cell, widths[c])
              : last           ? cell
                               : fmt::format("{:<{}}", cell, widths[c]);
    }
    fmt::print("{}\n", line);
  };
  printRow([](const TextColumn& c) -> const std::string& { return c.title; });
  static const std::string kEmpty;
  for (size_t r = 0; r < rows; ++r) {
    printRow([r](const TextColumn& c) -> const std::string& {
      return r < c.cells.size() ? c.cells[r] : kEmpty;
    });
  }
}

void printDeviceAndPath(const render::Device& device, const render::CrowdRenderer& renderer) {
  const render::Caps& caps = device.caps();
  fmt::print("device: {} | {}\n", caps.renderer, caps.version);
  fmt::print("path: {} ({})\n", render::renderPathName(renderer.path()), renderer.pathReason());
}

void printFrameFooter(const render::CpuPhaseTimes& cpu, const std::vector<double>& frame_ms,
                      const render::Device& device, const std::string& out) {
  fmt::print(
      "cpu ms: update {:.3f}, playback {:.3f}, cull {:.3f}, lod {:.3f}, pack+upload {:.3f}, "
      "submit {:.3f}, ground {:.3f}, shadow {:.3f}\n",
      cpu.update, cpu.playback, cpu.cull, cpu.lod, cpu.pack_upload, cpu.submit, cpu.ground,
      cpu.shadow);
  if (!frame_ms.empty()) {
    fmt::print(
        "frame time: {:.3f} ms median of {} frame(s) (min {:.3f}, max {:.3f}; wall clock from "
        "the frame's start to glFinish, after a warm-up draw)\n",
        median(frame_ms), frame_ms.size(), *std::min_element(frame_ms.begin(), frame_ms.end()),
        *std::max_element(frame_ms.begin(), frame_ms.end()));
  }
  fmt::print("wrote {} ({}x{})\n", out, device.width(), device.height());
}

std::string lodAgents(const render::CrowdFrameStats& stats, int lods) {
  std::string text;
  for (int l = 0; l < lods; ++l) {
    text += fmt::format("{}{}", l == 0 ? "" : "/", stats.agents_per_lod[l]);
  }
  return text;
}

void printReport(const FrameReport& r) {
  const render::CrowdFrameStats& stats = r.renderer->stats();
  printDeviceAndPath(*r.device, *r.renderer);
  if (r.renderer->path() == render::RenderPath::kMerged ||
      r.renderer->path() == render::RenderPath::kPerCharacter) {
    fmt::print("joint encoding: {}\n", r.renderer->jointEncodingReason());
  }
  fmt::print("culling: {} of {} agents visible\n", stats.visible, stats.agents);
  fmt::print("draw calls: {}\n", stats.draw_calls);
  if (stats.ground_draw_calls > 0) {
    fmt::print("ground and shadows: {} draw calls\n", stats.ground_draw_calls);
  }
  fmt::print("shadows: {}{}\n", r.renderer->shadowReason(),
             stats.shadow_draw_calls > 0
                 ? fmt::format(" ({} depth draw calls)", stats.shadow_draw_calls)
                 : std::string());
  fmt::print("triangles: {}\n", stats.triangles);
  if (r.renderer->path() == render::RenderPath::kInstanced) {
    fmt::print("palette pass: {}\n", stats.palette_pass ? "on" : "off (direct fetching)");
  }
  fmt::print("impostors: {}\n", r.renderer->impostorReason());
  fmt::print("lods (agents per level):");
  for (int l = 0; l < r.renderer->lodCount(); ++l) {
    const render::LodDrawInfo info = r.renderer->lodInfo(l);
    fmt::print(" {}: {} ({} triangles, {} joints{})", l, stats.agents_per_lod[l], info.triangles,
               info.joints,
               info.characters_per_draw > 0 ? fmt::format(", {} per draw", info.characters_per_draw)
                                            : std::string());
  }
  fmt::print("\n");
  printFrameFooter(stats.cpu_ms, r.frame_ms, *r.device, r.out);
}

}  // namespace throng::cli
