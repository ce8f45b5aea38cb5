// The tools' scenery: ground and shadows on, fog placed from the crowd's extent.
#include "scenery.h"

#include "shading_options.h"

#include <algorithm>

namespace throng::cli {
namespace {

// Fog thickens from the crowd's far side over this many crowd radii (at least this many
// character sizes), so the ground reaches the sky a little past the crowd.
constexpr float kFogDepth = 3.0f;
constexpr float kMinFogDepthSizes = 6.0f;

}  // namespace

void addGround(render::CrowdRendererDesc& desc) {
  desc.ground.grid = true;
  desc.shadows = kDefaultShadows;
}

void addFog(render::FrameView& view, const glm::vec2& center, float radius, float size,
            float scale) {
  const float to_center = glm::length(view.eye - glm::vec3(center.x, 0.0f, center.y));
  view.fog.color = glm::vec3(kFogColor);
  view.fog.start = scale * (to_center + radius);
  view.fog.end = view.fog.start + scale * kFogDepth * std::max(radius, kMinFogDepthSizes * size);
}

}  // namespace throng::cli
