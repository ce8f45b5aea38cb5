// What `throng render` and `throng demo` share to set a crowd up: loading its inputs, the device
// for the path, the renderers' settings, the view with its scenery, the library's mixed-crowd
// renderer, and writing the picture.
#pragma once

#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>
#include <nlohmann/json.hpp>

#include "crowd_frame.h"
#include "crowd_input.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/mixed_crowd_renderer.h"

namespace throng::cli {

// A mixed crowd's characters: each agent names its character in 16 bits, and each character has
// a renderer of its own; more than this many is a mistake.
inline constexpr size_t kMaxInputs = 64;

// The clip map of each of `inputs` inputs from --clips given `maps.size()` times: none = by name
// for every input, once = that map for every input, `inputs` times = the i-th for input i. A
// usage message (for exit code 2, naming the flag) when the count is anything else.
Result<std::vector<std::string>> clipMapsPerInput(const std::vector<std::string>& maps,
                                                  size_t inputs);

// The inputs of a crowd, loaded.
struct LoadedInputs {
  std::vector<CrowdInput> inputs;
  std::vector<std::string> clip_maps;  // per input ("" = by name)
  float size = 0.0f;                   // the largest input's size: every one stands as tall
};

// Loads `names` (at most kMaxInputs: a usage error) with `clips`' --clips-from and checks `lod`
// against each (a usage error), with a progress bar on a terminal when it takes a while. 0, or
// the exit code after the message.
// With `impostors` on, an input without an impostor gets one baked in memory (bakeImpostors).
int loadInputs(const std::vector<std::string>& names, const ClipArgs& clips,
               const std::optional<int>& lod, const std::optional<bool>& impostors,
               LoadedInputs& out);

// The renderers' settings the options give: path, LOD, LOD threshold, LOD tint, tint and
// palette pass.
render::CrowdRendererDesc rendererDesc(const FrontendArgs& args, const FrontendChoice& choice);

// What draws the crowd.
struct CrowdDrawing {
  std::unique_ptr<render::Device> device;
  render::FrameView view;  // over the crowd, with its fog
  std::unique_ptr<render::MixedCrowdRenderer> renderer;
};

// A headless device for the chosen path (warning when Mesa's no-op driver rasterises nothing),
// the view of the crowd standing in [low, high] (world x, z), characters `size` tall, with its
// scenery (ground, shadows and fog, added to `desc`), and one renderer per input made with
// `desc`. 0, or the exit code after the message.
int setUpDrawing(const FrontendArgs& args, const FrontendChoice& choice,
                 std::span<const CrowdInput> inputs, render::CrowdRendererDesc desc,
                 const glm::vec2& low, const glm::vec2& high, float size, CrowdDrawing& out);

// Draws one frame of `crowd` (tints: one per agent, or none) cleared to the fog's colour: its
// wall-clock milliseconds (Device::finish), or the renderer's error.
Result<double> drawFrame(CrowdDrawing& drawing, const Crowd& crowd,
                         std::span<const glm::vec4> tints = {});

// Reads the last frame back and writes it to `out` as a PNG. 0, or the exit code after the
// message.
int writeFrame(render::Device& device, const std::string& out);

// Every warning of the crowd's set-up, in input order: each input's (loading, clip map: take them
// once the clips are mapped), then each renderer's, its message after the input's name.
std::vector<Warning> crowdWarnings(const CrowdDrawing& drawing, std::span<const CrowdInput> inputs);

// The report of character `c` of the drawing (its input, the device, its renderer).
FrameReport characterReport(const CrowdDrawing& drawing, const CrowdInput& input, size_t c,
                            const std::vector<double>& frame_ms, const std::string& out);
// A mixed crowd's totals: draw calls, animation texture binds, whether the texture is shared,
// the agents.
void addMixedJson(nlohmann::json& json, const render::MixedCrowdRenderer& renderer,
                  uint32_t agents);
// A mixed crowd's report: the device and path once; one table row per character (input, clips,
// LODs, agents, visible, draw calls, triangles, agents per LOD, the joint encoding on merged
// paths, then the command's own `extra` columns); "mixed crowd: N agents of K characters<what>;
// draw calls: D in all", the animation texture(s) and their binds per frame; the CPU phases
// summed over the characters, the frame times and the file written.
void printMixedReport(const CrowdDrawing& drawing, std::span<const CrowdInput> inputs,
                      uint32_t agents, const std::string& what, std::span<const TextColumn> extra,
                      const std::vector<double>& frame_ms, const std::string& out);

}  // namespace throng::cli
