// The tools' shading options: shadow mode names, the light's direction, the shader file.
#include "shading_options.h"

#include <cmath>
#include <cstdlib>
#include <sstream>

#include <fmt/core.h>

namespace throng::cli {

std::optional<render::ShadowMode> shadowModeFromName(const std::string& name) {
  for (render::ShadowMode mode :
       {render::ShadowMode::kOff, render::ShadowMode::kBlob, render::ShadowMode::kMap}) {
    if (name == render::shadowModeName(mode)) return mode;
  }
  return std::nullopt;
}

Result<glm::vec3> parseLightDirection(const std::string& text) {
  glm::vec3 out(0.0f);
  std::stringstream in(text);
  std::string part;
  int count = 0;
  bool ok = true;
  while (std::getline(in, part, ',')) {
    char* end = nullptr;
    const float value = std::strtof(part.c_str(), &end);
    if (count >= 3 || part.empty() || *end != '\0' || !std::isfinite(value)) {
      ok = false;
      break;
    }
    out[count++] = value;
  }
  if (!ok || count != 3 || glm::dot(out, out) == 0.0f) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("--light {}: must be the direction the light travels as X,Y,Z "
                              "(three numbers, not all 0), e.g. -0.4,-1,-0.6",
                              text));
  }
  return out;
}

Result<std::shared_ptr<const render::ShaderSource>> loadShader(const std::string& path) {
  Result<render::ShaderSource> source = render::readShaderFile(path);
  if (!source.ok()) return source.status();
  return std::make_shared<const render::ShaderSource>(std::move(source).value());
}

}  // namespace throng::cli
