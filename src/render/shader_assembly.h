// Shader assembly: the crowd programs of every path put together from shaders/ and the user's
// shading file (docs/shaders.md), and compile errors traced back to the user's own lines.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "render/program.h"
#include "throng/core/status.h"
#include "throng/render/shading.h"

namespace throng::render {

enum class GlslVersion : uint8_t { kEs100, kEs300 };

// Lines of throng's own code are numbered from these (#line), the user's from 1, so that an
// error's line says whose it is even on drivers (Mesa) that do not report the source string:
// before the user's file, and after it (the code that calls throngShade or throngVertex).
inline constexpr int kPreludeFirstLine = 100000;
inline constexpr int kContractFirstLine = 200000;

// Which pass a crowd program draws; kVertexProbe's fragment stage reads every varying and no
// uniform, so that the program's active uniforms are its vertex stage's.
enum class CrowdPass : uint8_t { kColor, kDepth, kVertexProbe };

// One crowd program: a path's vertex shader (a file of shaders/, includes expanded) with its
// #defines, the fragment stage throng builds for the pass, and the user's file (null: the
// built-in look).
struct CrowdProgramSource {
  std::string name;  // e.g. "gles2/merged (3 characters of 19 joints)"
  GlslVersion version = GlslVersion::kEs100;
  std::string vertex_path;           // e.g. "gles2/merged.vert"
  std::vector<std::string> defines;  // both stages ("NAME" or "NAME VALUE")
  CrowdPass pass = CrowdPass::kColor;
  const ShaderSource* user = nullptr;
  // The fragment stage's varyings and ThrongSurface (empty: common/varyings.glsl and
  // common/material.glsl, the meshes'); the impostors' is common/impostor_surface.glsl.
  std::string surface_path;
  // Texture units the path leaves the user's samplers on this device (unitsOnDevice): a file
  // declaring more is refused (kLimitExceeded) before its program is compiled, where a device
  // with GL_MAX_TEXTURE_IMAGE_UNITS too few for them all would fail to link it. -1: unchecked.
  int user_texture_units = -1;
};

// True when `user` defines the vertex hook (it mentions throngVertex): its file is then compiled
// in the vertex stage too.
bool hasVertexHook(const ShaderSource& user);

// The vertex and fragment sources of `source` (desc.user_source set when there is a user file).
// kInvalidArgument when the user's file has a #version line (throng writes it); kLimitExceeded
// when it declares more samplers than source.user_texture_units (checkUserSamplers' message);
// the embedded shaders' errors otherwise.
Result<ProgramDesc> assembleCrowdProgram(const CrowdProgramSource& source);

// The fixed texture units of a crowd program's samplers, set once after linking (the material's
// five textures, the shadow map, the instanced path's vertex-stage textures).
void bindCrowdSamplers(const Program& program);

// A compile log of a program with a user file, turned into one line naming the user's file and
// its line: "toon.glsl:12:5: error: `foo' undeclared" (kInvalidArgument) for an error in the
// file; "toon.glsl: ..." (kInvalidArgument) when throng's code around it fails (the file does not
// define throngShade as the contract says, or its macros break the prelude). `line_shift` is how
// much the driver's line numbers run ahead of #line's (calibrated once: lineShift).
Status userShaderError(std::string_view log, const std::string& user_name, std::string_view stage,
                       int line_shift);

// How the current context numbers the line after `#line N`: N + the result (0 on Mesa, for both
// GLSL ES 1.00 and 3.00; GLSL ES 1.00's text reads N + 1). Compiles a probe shader once per
// version and context; 0 when the probe says nothing.
int lineShift(GlslVersion version);

}  // namespace throng::render
