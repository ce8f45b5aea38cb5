// The shader sources embedded at build time (see cmake/GenerateShaders.cmake).
#pragma once

#include <string_view>

namespace throng::render::detail {

struct EmbeddedShader {
  const char* path;    // relative to shaders/, e.g. "gles3/instanced.vert"
  const char* source;  // GLSL text, NUL-terminated
};

extern const EmbeddedShader kEmbeddedShaders[];
extern const int kEmbeddedShaderCount;

// Source of the embedded shader at `path` (relative to shaders/), or nullptr when none is.
const char* findEmbeddedShader(std::string_view path);

}  // namespace throng::render::detail
