// Lookup of the build-time embedded shader table by path.
#include "render/embedded_shaders.h"

namespace throng::render::detail {

const char* findEmbeddedShader(std::string_view path) {
  for (int i = 0; i < kEmbeddedShaderCount; ++i) {
    if (kEmbeddedShaders[i].path && path == kEmbeddedShaders[i].path)
      return kEmbeddedShaders[i].source;
  }
  return nullptr;
}

}  // namespace throng::render::detail
