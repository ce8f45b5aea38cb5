// What `throng render` and `throng demo` share: the options that mean the same in both, their
// checks, the device for a render path, the two camera views, and the report (text or JSON).
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include "crowd_input.h"
#include "scenery.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::cli {

// A million agents is far past what a headless software rasterizer draws in reasonable time and
// keeps the per-agent buffers in the tens of megabytes: 52 MB of 52-byte instance records on the
// CPU-fed instanced path, 128 MB on the GPU-driven one (a 64-byte agent and a 64-byte record).
inline constexpr int kMaxAgents = 1000000;
// A LOD error threshold past this many pixels is a mistake (every agent would use the coarsest
// LOD at any distance); below a hundredth of a pixel every agent is LOD 0.
inline constexpr float kMinLodThresholdPx = 0.01f;
inline constexpr float kMaxLodThresholdPx = 1000.0f;
// Frame sizes beyond this are refused before asking the driver (it would refuse them anyway).
inline constexpr int kMaxFrameSide = 16384;
// Timed frames; more is a mistake (hours of software rendering), not a benchmark.
inline constexpr int kMaxFrames = 100000;

struct FrontendArgs {
  std::string path = "auto";                     // auto | gpu | instanced | merged | per-character
  std::string lod = "auto";                      // auto | a LOD index
  float lod_threshold = kDefaultLodThresholdPx;  // pixels of LOD error allowed on screen
  std::string view = "overview";                 // overview | street
  int width = 640;                               // pixels
  int height = 480;
  std::string out;  // PNG to write
  bool json = false;
  bool lod_tint = false;              // colour agents by their LOD (CrowdRendererDesc::lod_tint)
  std::string tint = "on";            // on | off: the per-agent tint multiplies the materials
  std::string palette_pass = "auto";  // auto | on | off (CrowdRendererDesc::palette_pass)
  std::string shader;                 // GLSL file of the crowd's shading ("" = the built-in look)
  std::string shadows = "map";        // map | blob | off (CrowdRendererDesc::shadows)
  std::string light;                  // "X,Y,Z": the light's direction ("" = FrameView's)
  std::string attachments = "all";    // all | none | random: the props each agent shows
  std::string impostors = "auto";     // auto | on | off (CrowdRendererDesc::impostors)
};

// Adds --path, --lod, --lod-threshold, --lod-tint, --view, --width, --height, -o/--out, --json,
// --tint, --palette-pass, --shader, --shadows, --light, --attachments and --impostors to `sub`.
void addFrontendOptions(CLI::App& sub, FrontendArgs& args);

// The options of `render` and `demo` about their input's clips.
struct ClipArgs {
  // --clips: clip maps (parseClipMap; "" = by name): none, one for every input, or one per
  // input in input order (clipMapsPerInput).
  std::vector<std::string> clips;
  std::vector<std::string> clips_from;  // --clips-from: glTF files whose clips are added
};
// Adds --clips and --clips-from to `sub`.
void addClipOptions(CLI::App& sub, ClipArgs& args);

// Which props (Package::attachments) the agents show: every one, none, or a random subset each.
enum class AttachmentChoice { kAll, kNone, kRandom };
// Sets every agent's visible props (Crowd::setAttachments) as `choice` says; kRandom draws each
// agent's subset from `seed` and its index (the same crowd every run).
void applyAttachments(AttachmentChoice choice, uint32_t seed, Crowd& crowd);

// The checked options: a usage message (for exit code 2) or what they mean.
struct FrontendChoice {
  render::RenderPath path = render::RenderPath::kAuto;
  std::optional<int> lod;                        // empty: the LOD rule
  float lod_threshold = kDefaultLodThresholdPx;  // pixels (CrowdRendererDesc)
  bool street = false;
  bool tint = true;
  render::PalettePassMode palette_pass = render::PalettePassMode::kAuto;
  render::ShadowMode shadows = render::ShadowMode::kMap;
  std::optional<glm::vec3> light;  // the light's direction, when --light gives one
  AttachmentChoice attachments = AttachmentChoice::kAll;
  // Impostors: empty = auto (drawn when the package has one), true = on (an input without one
  // gets one baked in memory: bakeImpostors), false = off.
  std::optional<bool> impostors;
};
Result<FrontendChoice> checkFrontendArgs(const FrontendArgs& args);
// The usage message for a LOD index the package lacks ("" when `lod` is fine): its mesh LODs,
// and its impostor past them unless `impostors` is off.
std::string checkLod(const std::optional<int>& lod, const CrowdInput& input,
                     const std::optional<bool>& impostors);
// "--agents 0: must be a whole number in 1..1000000" or "" when `value` is within [low, high].
std::string checkRange(const char* flag, long long value, long long low, long long high);

// A headless device for `path`: ES 3.1 for gpu, ES 3 for auto and instanced (auto falls back to
// ES 2 when ES 3 cannot be had), a real ES 2.0 context for merged and per-character
// (useGlesVersion).
Result<std::unique_ptr<render::Device>> createDevice(render::RenderPath path, int width,
                                                     int height);

// The camera over a crowd whose agents stand in [low, high] (world x, z), characters `size`
// tall: overview = the whole crowd framed from above; street = at eye height just in front of
// the crowd (+Z side), looking into it.
render::FrameView crowdView(bool street, const glm::vec2& low, const glm::vec2& high, float size,
                            float aspect);

// The scenery (scenery.h) around a crowd whose agents stand in [low, high] (world x, z),
// characters `size` tall: ground, shadows, and fog from just past the crowd's far side.
void addScenery(render::FrameView& view, render::CrowdRendererDesc& desc, const glm::vec2& low,
                const glm::vec2& high, float size);

// The frame's facts common to both commands: input, device, path and why, draw calls,
// triangles, agents per LOD, CPU phases, frame times, output file.
struct FrameReport {
  const CrowdInput* input = nullptr;
  const render::Device* device = nullptr;
  const render::CrowdRenderer* renderer = nullptr;
  std::vector<double> frame_ms;  // wall clock of each drawn frame (beginFrame .. glFinish)
  std::string out;
};
nlohmann::json reportJson(const FrameReport& report);
// The report as text: device, path, culling, draw calls, triangles, LODs, printFrameFooter.
void printReport(const FrameReport& report);

// "device: <renderer> | <version>" and "path: <name> (<why>)".
void printDeviceAndPath(const render::Device& device, const render::CrowdRenderer& renderer);
// The lines that close a report: the CPU phases, the frame times and the file written.
void printFrameFooter(const render::CpuPhaseTimes& cpu, const std::vector<double>& frame_ms,
                      const render::Device& device, const std::string& out);
// Agents per LOD of the last draw, "12/4/0/0" (the first `lods` LODs).
std::string lodAgents(const render::CrowdFrameStats& stats, int lods);

// A column of a text table: its title and cells; `right`: right-aligned (numbers).
struct TextColumn {
  std::string title;
  bool right = false;
  std::vector<std::string> cells;
};
// The title row and one row per cell index, columns two spaces apart, each as wide as its widest
// cell (the last one unpadded).
void printTable(const std::vector<TextColumn>& columns);

}  // namespace throng::cli
