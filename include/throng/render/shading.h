// The shading contract's C++ side: a user's GLSL file that defines vec4 throngShade(ThrongSurface
// s) (and optionally the vertex hook), compiled behind throng's prelude on every render path
// (docs/shaders.md), and the light and shadows every path shades with.
#pragma once

#include <cstdint>
#include <string>

#include "throng/core/status.h"

namespace throng::render {

// A user's shading file. `text` is GLSL in the common subset of GLSL ES 1.00 and 3.00 without a
// #version line (throng supplies it, the precision and the THRONG_* macros): it defines
// vec4 throngShade(ThrongSurface s) returning linear RGBA, may declare its own uniforms and
// samplers (set through CrowdRenderer::setShaderUniform / setShaderTexture), and may define
// void throngVertex(inout ThrongVertex v) to move the skinned vertex (then it is compiled in
// both stages: see docs/shaders.md). Errors in it come back as kInvalidArgument naming `name`
// and the line of `text`.
struct ShaderSource {
  std::string name;  // shown in errors: the file's path, e.g. "shaders/toon.glsl"
  std::string text;
};

// Reads the file at `path` (named by `path`): kIoError when it cannot be read, kInvalidArgument
// when it is empty or larger than kMaxShaderBytes.
Result<ShaderSource> readShaderFile(const std::string& path);

// A shading file past this many bytes is a mistake (drivers choke on megabytes of GLSL).
inline constexpr uint64_t kMaxShaderBytes = 1 << 20;

// How a crowd's shadows are drawn: none; a soft round blob under each agent on the ground; or a
// directional shadow map from FrameView's light, fitted to the camera's view up to the shadow
// distance, in which the crowd shadows the ground and itself (docs/shaders.md, "Shadows").
enum class ShadowMode : uint8_t { kOff = 0, kBlob = 1, kMap = 2 };
const char* shadowModeName(ShadowMode mode);  // "off", "blob", "map"

}  // namespace throng::render
