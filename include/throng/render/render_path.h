// How a crowd is drawn: the render paths and the instanced path's palette pass mode, with their
// names (as the CLI, the viewer and the web page spell them).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace throng::render {

// Every path draws the same picture of the same frame (within float rounding); they differ in
// draw calls and in what the device must support.
enum class RenderPath : uint8_t {
  kAuto,          // chosen from the device's capabilities (CrowdRenderer says why)
  kInstanced,     // method B: animation texture, one instanced draw per LOD (ES 3.0)
  kMerged,        // method A: K characters per draw, palettes as uniforms (ES 2.0)
  kPerCharacter,  // one draw per character, palette from the CPU (the baseline; any ES 2.0)
  kGpu,           // GPU-driven (ES 3.1 compute): the crowd lives on the GPU, which simulates,
                  // plays back, culls and picks LODs; one indirect draw per (LOD, material)
};
inline constexpr int kRenderPathCount = 5;
// "auto", "instanced", "merged", "per-character", "gpu".
const char* renderPathName(RenderPath path);
// The path named `name` (a renderPathName), or nothing.
std::optional<RenderPath> renderPathFromName(std::string_view name);

// Whether the instanced path blends palettes in a pass of their own (kOn), blends them in the
// vertex shader for every vertex (kOff: "direct fetching"), or picks per frame (kAuto: on from
// a number of skinned vertices measured in docs/benchmarks.md).
enum class PalettePassMode { kAuto, kOn, kOff };
const char* palettePassModeName(PalettePassMode mode);  // "auto", "on", "off"
// The mode named `name` (a palettePassModeName), or nothing.
std::optional<PalettePassMode> palettePassModeFromName(std::string_view name);

}  // namespace throng::render
