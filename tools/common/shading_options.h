// The tools' options about shading (--shader, --shadows, --light), read the same way by
// `throng render`, `throng demo` and `throng-viewer`.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include <glm/glm.hpp>

#include "throng/core/status.h"
#include "throng/render/shading.h"

namespace throng::cli {

// The tools draw mapped shadows by default; the renderer draws blobs instead where the device has
// no depth textures (and says so: CrowdRenderer::shadowReason).
inline constexpr render::ShadowMode kDefaultShadows = render::ShadowMode::kMap;

// "map", "blob" or "off"; empty when `name` is none of them.
std::optional<render::ShadowMode> shadowModeFromName(const std::string& name);

// --light X,Y,Z: the direction the light travels (world), three finite numbers not all 0. A
// usage message naming the flag otherwise.
Result<glm::vec3> parseLightDirection(const std::string& text);

// --shader FILE: the file read (render::readShaderFile); its errors name it.
Result<std::shared_ptr<const render::ShaderSource>> loadShader(const std::string& path);

}  // namespace throng::cli
