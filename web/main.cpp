// The throng web page: the WebGL context, the browser-owned frame loop, and the functions page.js
// calls (start, agents, path, camera, file drop, resize). State goes to the DOM through page.js.
#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include <emscripten/emscripten.h>
#include <emscripten/html5.h>
#include <fmt/format.h>

#include "crowd_scene.h"
#include "orbit_camera.h"
#include "scenery.h"
#include "shading_options.h"
#include "throng/core/package.h"
#include "throng/offline/bake.h"
#include "throng/offline/gltf_import.h"
#include "throng/offline/sample_character.h"
#include "throng/render/capture.h"
#include "throng/render/device.h"

// page.js's Module.throngReport(state): the page's facts, as a JSON object.
EM_JS(void, throngReportJs, (const char* json), {
  if (Module.throngReport) Module.throngReport(JSON.parse(UTF8ToString(json)));
});

namespace throng::web {
namespace {

constexpr const char* kCanvas = "#canvas";
// Frame and callback times are medians over this many frames.
constexpr int kTimingWindow = 60;
// A browser tab in the background stops calling back; its first frame back must not simulate
// the whole absence at once (seconds).
constexpr float kMaxStepSeconds = 0.1f;
// The DOM is updated every frame for the first frames (so a check sees each one), then at most
// every kReportIntervalMs: every frame would cost layout work for nothing.
constexpr uint64_t kReportEveryFrameUntil = 10;
constexpr double kReportIntervalMs = 250.0;
// Covered pixels (those the crowd changes: the frame against the scenery drawn alone) are counted
// at these frames of a scene, then every kCoveragePeriod frames: a read-back stalls the pipeline,
// so not every frame.
constexpr std::array<uint64_t, 2> kCoverageFrames = {3, 30};
constexpr uint64_t kCoveragePeriod = 240;
// A pixel is covered when a channel differs from the scenery's by more than this (0..255).
constexpr int kCoverageTolerance = 3;
// The camera starts framing the crowd this much closer than its bounding sphere.
constexpr float kStartZoom = 0.6f;
// Mouse-drag radians per CSS pixel (a canvas is smaller than the viewer's window).
constexpr float kRadiansPerPixel = 0.008f;
// A crowd's characters: each is a renderer per path, and agents name theirs in 16 bits.
constexpr size_t kMaxCharacters = 16;

// The page's camera: a little nearer the horizon than the viewer's, and a near plane twice as
// far for a 16-bit WebGL 1 depth buffer.
cli::OrbitCamera startCamera() {
  cli::OrbitCamera camera;
  camera.yaw = 0.6f;
  camera.pitch = 0.55f;
  camera.distance = 10.0f;
  camera.fov_y = 0.7853982f;  // 45 degrees
  camera.near_share = 0.02f;
  return camera;
}

// One character the page shows, as loaded.
struct PageCharacter {
  std::unique_ptr<Package> package;
  ClipSet clip_set;
  std::string name;
  std::string clip_note;  // how the clips were assigned to states, when not by name
};

struct Page {
  EMSCRIPTEN_WEBGL_CONTEXT_HANDLE context = 0;
  int webgl = 0;
  int width = 0;
  int height = 0;
  std::unique_ptr<render::Device> device;
  std::vector<PageCharacter> characters;  // the crowd's, in the order shown
  std::unique_ptr<CrowdScene> scene;
  cli::OrbitCamera camera = startCamera();
  uint32_t agents = 1;
  // The path asked for (kAuto: the renderer's choice); a scene that cannot use it takes its own.
  render::RenderPath path = render::RenderPath::kAuto;
  // The shadows asked for; empty: the scene's default.
  std::optional<render::ShadowMode> shadows;
  bool impostors = true;  // CrowdRendererDesc::impostors (packages that have one)

  uint64_t frames = 0;
  uint64_t scene_frames = 0;  // frames drawn since the scene was (re)built
  double last_frame_ms = 0.0;
  double last_report_ms = 0.0;
  std::array<double, kTimingWindow> intervals{};
  std::array<double, kTimingWindow> callback{};  // ms in onFrame: update, draw calls, GPU waits
  int timing_samples = 0;
  render::CrowdFrameStats stats;
  double covered = -1.0;   // share of pixels the crowd changes, -1 before the first count
  std::string error;       // fatal: the page stops drawing
  std::string load_error;  // the last dropped file that could not be shown
};

Page& page() {
  static Page instance;
  return instance;
}

std::string jsonString(std::string_view text) {
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<int>(c));
    } else {
      out += c;
    }
  }
  return out + "\"";
}

double median(const std::array<double, kTimingWindow>& values, int count) {
  if (count <= 0) return 0.0;
  std::array<double, kTimingWindow> sorted = values;
  const int n = std::min(count, kTimingWindow);
  std::sort(sorted.begin(), sorted.begin() + n);
  return sorted[n / 2];
}

// "a.glb, b.glb": the crowd's characters.
std::string crowdNames() {
  std::string names;
  for (const PageCharacter& c : page().characters) names += (names.empty() ? "" : ", ") + c.name;
  return names;
}

void report() {
  const Page& p = page();
  const char* state = !p.error.empty() ? "error" : p.frames > 0 ? "ready" : "loading";
  std::string paths;
  std::string lods;
  if (p.scene) {
    for (int i = 1; i < render::kRenderPathCount; ++i) {
      const auto path = static_cast<render::RenderPath>(i);
      if (!p.scene->supports(path)) continue;
      if (!paths.empty()) paths += ' ';
      paths += render::renderPathName(path);
    }
  }
  for (const uint32_t count : p.stats.agents_per_lod) {
    if (!lods.empty()) lods += '/';
    lods += std::to_string(count);
  }
  const render::CpuPhaseTimes& cpu = p.stats.cpu_ms;
  const std::string json = fmt::format(
      "{{\"state\":\"{}\",\"webgl\":{},\"path\":\"{}\",\"paths\":{},\"pathReason\":{},"
      "\"shadows\":\"{}\",\"shadowReason\":{},\"impostors\":{},\"impostorAgents\":{},"
      "\"impostorReason\":{},"
      "\"agents\":{},\"visible\":{},\"drawCalls\":{},\"triangles\":{},\"lods\":\"{}\","
      "\"frames\":{},\"frameMs\":{:.2f},\"callbackMs\":{:.2f},\"cpuMs\":{{\"update\":{:.2f},"
      "\"playback\":{:.2f},\"cull\":{:.2f},\"lod\":{:.2f},\"pack\":{:.2f},\"submit\":{:.2f}}},"
      "\"covered\":{:.4f},\"character\":{},\"crowd\":{},\"clipNote\":{},\"renderer\":{},"
      "\"width\":{},"
      "\"height\":{},\"error\":{},\"loadError\":{}}}",
      state, p.webgl, p.scene ? render::renderPathName(p.scene->path()) : "", jsonString(paths),
      jsonString(p.scene ? p.scene->autoReason() : ""),
      p.scene ? render::shadowModeName(p.scene->shadows()) : "",
      jsonString(p.scene ? p.scene->shadowReason() : ""), p.impostors ? "true" : "false",
      p.scene ? p.scene->impostorAgents() : 0u,
      jsonString(p.scene ? p.scene->impostorReason() : ""), p.stats.agents, p.stats.visible,
      p.stats.draw_calls, p.stats.triangles, lods, p.frames, median(p.intervals, p.timing_samples),
      median(p.callback, p.timing_samples), cpu.update, cpu.playback, cpu.cull, cpu.lod,
      cpu.pack_upload, cpu.submit, p.covered,
      jsonString(p.characters.empty() ? "" : p.characters.back().name), jsonString(crowdNames()),
      jsonString(p.characters.empty() ? "" : p.characters.back().clip_note),
      jsonString(p.device ? p.device->caps().renderer + " / " + p.device->caps().version : ""),
      p.width, p.height, jsonString(p.error), jsonString(p.load_error));
  throngReportJs(json.c_str());
}

void fail(std::string message) {
  page().error = std::move(message);
  emscripten_log(EM_LOG_ERROR, "throng: %s", page().error.c_str());
  report();
}

float aspect() {
  const Page& p = page();
  return static_cast<float>(p.width) / static_cast<float>(p.height);
}

void frameCamera() {
  Page& p = page();
  p.camera.frame(glm::vec2(0.0f), p.scene->radius(), p.scene->characterSize(), aspect());
  p.camera.distance *= kStartZoom;
}

// Builds the scene of every character for the current device, keeping the agent count and,
// where it can, the path.
Status rebuildScene() {
  Page& p = page();
  p.scene.reset();
  std::vector<SceneCharacter> characters;
  for (const PageCharacter& c : p.characters) characters.push_back({c.package.get(), c.clip_set});
  Result<std::unique_ptr<CrowdScene>> scene =
      CrowdScene::create(*p.device, characters, p.impostors);
  if (!scene.ok()) return scene.status();
  p.scene = std::move(*scene);
  (void)p.scene->setPath(p.path);  // a path this scene cannot use leaves the automatic one
  if (p.shadows) p.scene->setShadows(*p.shadows);
  p.scene->setAgentCount(p.agents);
  p.covered = -1.0;  // counted again for the new scene
  p.scene_frames = 0;
  return Status::okStatus();
}

// Which clip each state plays: by name when the character names them all, otherwise its first
// clip for every state (a dropped file with a single walk cycle still makes a crowd).
ClipSet clipSetFor(const Package& package, std::string& note) {
  Result<ClipSet> by_name = clipSetByName(package.clips);
  if (by_name.ok()) {
    note.clear();
    return *by_name;
  }
  note =
      fmt::format("every state plays '{}' ({})", package.clips[0].name, by_name.status().message());
  return ClipSet{};
}

// Adds a character to the crowd. The old scene stays on screen until the new one is ready; a
// character the scene cannot draw is dropped again.
Status addCharacter(std::unique_ptr<Package> package, std::string name, const ClipSet& clips,
                    std::string clip_note) {
  Page& p = page();
  if (p.characters.size() >= kMaxCharacters) {
    return Status(
        ErrorCode::kLimitExceeded,
        fmt::format("page: {} characters in the crowd already, the most it shows", kMaxCharacters));
  }
  std::unique_ptr<CrowdScene> old_scene = std::move(p.scene);
  p.characters.push_back({std::move(package), clips, std::move(name), std::move(clip_note)});
  Status status = rebuildScene();
  if (!status.ok()) {
    p.characters.pop_back();
    p.scene = std::move(old_scene);
    return status;
  }
  old_scene.reset();
  frameCamera();
  return Status::okStatus();
}

Result<std::unique_ptr<Package>> bake(const Character& character, const std::string& source) {
  BakeOptions options;
  options.source = source;
  options.threads = 1;  // the page is built without threads
  Result<Package> package = bakeCharacter(character, options);
  if (!package.ok()) return package.status();
  return std::make_unique<Package>(std::move(*package));
}

// Adds the character in `file` to the crowd: a .throng package as it is, a .glb or .gltf imported
// and baked.
Status showFile(const std::string& file) {
  const std::string name = file.substr(file.find_last_of('/') + 1);
  auto load = [&]() -> Result<std::unique_ptr<Package>> {
    if (name.ends_with(".throng")) {
      Result<Package> read = readPackage(file);
      if (!read.ok()) return read.status();
      return std::make_unique<Package>(std::move(*read));
    }
    Result<Character> character = importGltf(file);
    if (!character.ok()) return character.status();
    return bake(*character, name);
  };
  Result<std::unique_ptr<Package>> package = load();
  if (!package.ok()) return package.status();
  std::string note;
  const ClipSet clips = clipSetFor(**package, note);
  return addCharacter(std::move(*package), name, clips, note);
}

// Bakes and shows the built-in sample character.
Status showSample() {
  const Character character = makeSampleCharacter();
  Result<std::unique_ptr<Package>> package = bake(character, "built-in sample character");
  if (!package.ok()) return package.status();
  ClipSet clips = clipSetByName((*package)->clips).value();
  // The sample's walk and run are in place; these speeds keep its planted feet from sliding.
  clips.walk_speed = kSampleWalkSpeed;
  clips.run_speed = kSampleRunSpeed;
  return addCharacter(std::move(*package), "built-in sample", clips, "");
}

EM_BOOL onFrame(double now_ms, void*) {
  Page& p = page();
  if (!p.error.empty() || !p.scene) return EM_FALSE;
  const double interval = p.last_frame_ms > 0.0 ? now_ms - p.last_frame_ms : 0.0;
  p.last_frame_ms = now_ms;
  const double start = emscripten_get_now();

  const float radius = p.scene->radius();
  render::FrameView view =
      p.camera.view(aspect(), p.camera.distance + 2.0f * radius + p.camera.nearPlane());
  cli::addFog(view, glm::vec2(0.0f), p.scene->radius(), p.scene->characterSize());
  const bool count_coverage = std::find(kCoverageFrames.begin(), kCoverageFrames.end(),
                                        p.scene_frames + 1) != kCoverageFrames.end() ||
                              (p.scene_frames + 1) % kCoveragePeriod == 0;
  render::Image scenery;
  if (count_coverage) {
    // The scenery alone first, read back before the frame is drawn over it.
    p.device->beginFrame(cli::kFogColor);
    const Status drawn = p.scene->drawScenery(view);
    Result<render::Image> image =
        drawn.ok() ? p.device->readPixels() : Result<render::Image>(drawn);
    if (!image.ok()) {
      fail(image.status().message());
      return EM_FALSE;
    }
    scenery = std::move(image).value();
  }
  p.device->beginFrame(cli::kFogColor);
  const float step = std::min(static_cast<float>(interval / 1000.0), kMaxStepSeconds);
  if (Status s = p.scene->frame(step, view); !s.ok()) {
    fail(s.message());
    return EM_FALSE;
  }
  p.stats = p.scene->stats();
  ++p.frames;
  ++p.scene_frames;
  if (interval > 0.0) {
    const int slot = p.timing_samples % kTimingWindow;
    p.intervals[slot] = interval;
    p.callback[slot] = emscripten_get_now() - start;
    ++p.timing_samples;
  }
  if (count_coverage) {
    // Read back before the browser presents the frame (the drawing buffer is not preserved).
    Result<render::Image> image = p.device->readPixels();
    if (!image.ok()) {
      fail(image.status().message());
      return EM_FALSE;
    }
    const render::ImageDifference difference =
        render::compareImages(*image, scenery, kCoverageTolerance);
    p.covered = static_cast<double>(difference.bad_pixels) /
                (static_cast<double>(p.width) * static_cast<double>(p.height));
  }
  if (p.frames <= kReportEveryFrameUntil || now_ms - p.last_report_ms >= kReportIntervalMs) {
    p.last_report_ms = now_ms;
    report();
  }
  return EM_TRUE;
}

Status createDevice(int width, int height) {
  Page& p = page();
  p.scene.reset();
  p.device.reset();
  p.width = std::max(width, 16);
  p.height = std::max(height, 16);
  emscripten_set_canvas_element_size(kCanvas, p.width, p.height);
  render::DeviceDesc desc;
  desc.gles_major = p.webgl == 2 ? 3 : 2;
  desc.width = p.width;
  desc.height = p.height;
  Result<std::unique_ptr<render::Device>> device = render::Device::createForCurrentContext(desc);
  if (!device.ok()) return device.status();
  p.device = std::move(*device);
  return Status::okStatus();
}

}  // namespace
}  // namespace throng::web

using throng::web::page;

extern "C" {

// Creates the WebGL context (2, or 1 when `max_webgl` is 1 or WebGL2 is missing) on #canvas of
// width x height pixels, shows `file` (in the in-memory file system, as throng_load) or, when it
// is empty, bakes the built-in character, and starts the frame loop. `path`: a renderPathName
// (auto when it is none). 0 on success; otherwise the page reports the error.
EMSCRIPTEN_KEEPALIVE int throng_start(int max_webgl, int width, int height, int agents,
                                      const char* path, const char* file) {
  using namespace throng;
  using namespace throng::web;
  Page& p = page();
  EmscriptenWebGLContextAttributes attributes;
  emscripten_webgl_init_context_attributes(&attributes);
  attributes.alpha = EM_FALSE;
  attributes.depth = EM_TRUE;
  attributes.antialias = EM_TRUE;
  attributes.powerPreference = EM_WEBGL_POWER_PREFERENCE_HIGH_PERFORMANCE;
  for (const int version : {2, 1}) {
    if (version > max_webgl || p.context > 0) continue;
    attributes.majorVersion = version;
    p.context = emscripten_webgl_create_context(kCanvas, &attributes);
    p.webgl = version;
  }
  if (p.context <= 0) {
    fail("this browser gives the page neither a WebGL2 nor a WebGL 1 context");
    return 1;
  }
  emscripten_webgl_make_context_current(p.context);
  if (Status s = createDevice(width, height); !s.ok()) {
    fail(s.message());
    return 1;
  }
  p.agents = static_cast<uint32_t>(std::clamp<int>(agents, 1, kMaxAgents));
  p.path = render::renderPathFromName(path).value_or(render::RenderPath::kAuto);
  const std::string start_file(file);
  if (Status s = start_file.empty() ? showSample() : showFile(start_file); !s.ok()) {
    fail(s.message());
    return 1;
  }
  report();
  emscripten_request_animation_frame_loop(&onFrame, nullptr);
  return 0;
}

// Places `count` agents (1..kMaxAgents) and frames the camera on them.
EMSCRIPTEN_KEEPALIVE void throng_set_agents(int count) {
  using namespace throng::web;
  Page& p = page();
  p.agents = static_cast<uint32_t>(std::clamp<int>(count, 1, kMaxAgents));
  if (!p.scene) return;
  const float old_radius = p.scene->radius();
  p.scene->setAgentCount(p.agents);
  p.camera.distance *= p.scene->radius() / old_radius;
  report();
}

// `name`: auto, instanced, merged or per-character (render::renderPathName). 0 on success;
// otherwise the path stays and loadError says why.
EMSCRIPTEN_KEEPALIVE int throng_set_path(const char* name) {
  using namespace throng;
  using namespace throng::web;
  Page& p = page();
  if (!p.scene) return 1;
  const std::optional<render::RenderPath> wanted = render::renderPathFromName(name);
  const Status s = wanted ? p.scene->setPath(*wanted)
                          : Status(ErrorCode::kInvalidArgument,
                                   fmt::format("page: no render path is called '{}'", name));
  if (s.ok()) p.path = *wanted;
  p.load_error = s.ok() ? "" : s.message();
  report();
  return s.ok() ? 0 : 1;
}

// `name`: map, blob or off (render::shadowModeName). 0 on success; otherwise the shadows stay and
// loadError says why. A device without depth textures draws blobs for map (shadowReason says so).
EMSCRIPTEN_KEEPALIVE int throng_set_shadows(const char* name) {
  using namespace throng;
  using namespace throng::web;
  Page& p = page();
  const std::optional<render::ShadowMode> wanted = cli::shadowModeFromName(name);
  if (!wanted) {
    p.load_error = fmt::format("page: no shadows are called '{}' (map, blob or off)", name);
  } else {
    p.shadows = *wanted;
    p.load_error.clear();
    if (p.scene) p.scene->setShadows(*wanted);
  }
  report();
  return wanted ? 0 : 1;
}

// `on`: draw each character's impostor (a .throng package baked with `throng bake --impostors`)
// as its last LOD. The scene is made again (the renderers choose it when they are made); 0 on
// success, otherwise the old scene stays and loadError says why.
EMSCRIPTEN_KEEPALIVE int throng_set_impostors(int on) {
  using namespace throng::web;
  Page& p = page();
  const bool was = p.impostors;
  p.impostors = on != 0;
  if (p.scene && was != p.impostors) {
    std::unique_ptr<CrowdScene> old_scene = std::move(p.scene);
    const throng::Status s = rebuildScene();
    if (!s.ok()) {
      p.impostors = was;
      p.scene = std::move(old_scene);
      p.load_error = s.message();
      report();
      return 1;
    }
  }
  p.load_error.clear();
  report();
  return 0;
}

// A mouse drag of (dx, dy) CSS pixels turns the camera; a wheel step of `factor` zooms.
EMSCRIPTEN_KEEPALIVE void throng_orbit(float dx, float dy) {
  page().camera.orbit(glm::vec2(dx, dy), throng::web::kRadiansPerPixel);
}
EMSCRIPTEN_KEEPALIVE void throng_zoom(float factor) {
  throng::web::Page& p = page();
  if (!p.scene) return;
  const float size = p.scene->characterSize();
  p.camera.zoom(factor, 0.5f * size,
                4.0f * p.camera.framingDistance(p.scene->radius(), size, throng::web::aspect()));
}

// Adds the character in `path` (in the page's in-memory file system) to the crowd: a .glb or
// .gltf is imported and baked, a .throng package is read as is. 0 on success; otherwise the
// current crowd stays and loadError says why.
EMSCRIPTEN_KEEPALIVE int throng_load(const char* path) {
  using namespace throng::web;
  Page& p = page();
  if (!p.device) return 1;
  const throng::Status status = showFile(path);
  p.load_error = status.ok() ? "" : status.message();
  report();
  return status.ok() ? 0 : 1;
}

// The canvas changed size: a new drawing buffer of width x height pixels.
EMSCRIPTEN_KEEPALIVE void throng_resize(int width, int height) {
  using namespace throng::web;
  Page& p = page();
  if (!p.device || !p.error.empty()) return;
  if (throng::Status s = createDevice(width, height); !s.ok()) return fail(s.message());
  if (throng::Status s = rebuildScene(); !s.ok()) return fail(s.message());
  report();
}

}  // extern "C"

int main() {
  // page.js calls throng_start once the runtime is up; the browser owns the frame loop.
  return 0;
}
