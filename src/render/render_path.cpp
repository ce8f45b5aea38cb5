// The names of the render paths and of the palette pass modes.
#include "throng/render/render_path.h"

namespace throng::render {
namespace {

constexpr const char* kPathNames[kRenderPathCount] = {"auto", "instanced", "merged",
                                                      "per-character", "gpu"};

}  // namespace

const char* renderPathName(RenderPath path) {
  const int i = static_cast<int>(path);
  return i < kRenderPathCount ? kPathNames[i] : "?";
}

std::optional<RenderPath> renderPathFromName(std::string_view name) {
  for (int i = 0; i < kRenderPathCount; ++i) {
    if (name == kPathNames[i]) return static_cast<RenderPath>(i);
  }
  return std::nullopt;
}

const char* palettePassModeName(PalettePassMode mode) {
  switch (mode) {
    case PalettePassMode::kAuto:
      return "auto";
    case PalettePassMode::kOn:
      return "on";
    case PalettePassMode::kOff:
      return "off";
  }
  return "auto";
}

std::optional<PalettePassMode> palettePassModeFromName(std::string_view name) {
  for (PalettePassMode mode : {PalettePassMode::kAuto, PalettePassMode::kOn, PalettePassMode::kOff})
    if (name == palettePassModeName(mode)) return mode;
  return std::nullopt;
}

}  // namespace throng::render
