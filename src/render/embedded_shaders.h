// The shader sources embedded at build time (see cmake/GenerateShaders.cmake).
#pragma once

namespace throng::render::detail {

struct EmbeddedShader {
  const char* path;    // relative to shaders/, e.g. "gles3/instanced.vert"
  const char* source;  // GLSL text, NUL-terminated
};

extern const EmbeddedShader kEmbeddedShaders[];
extern const int kEmbeddedShaderCount;

}  // namespace throng::render::detail
