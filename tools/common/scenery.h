// The scenery the throng tools draw around a crowd: ground, shadows and fog, the same in
// `throng render`, `throng demo` and `throng-viewer`, and on every path.
#pragma once

#include <glm/glm.hpp>

#include "throng/render/crowd_renderer.h"
#include "throng/render/frame_view.h"

namespace throng::cli {

// The fog's colour, which the frame is also cleared to, so the ground melts into the sky.
inline const glm::vec4 kFogColor(0.46f, 0.50f, 0.56f, 1.0f);

// Turns on the ground grid and the shadows (kDefaultShadows: a shadow map, blobs where the
// device has no depth textures) in `desc`.
void addGround(render::CrowdRendererDesc& desc);

// Fog from just past the far side of a crowd (a disc of `radius` world units around `center`,
// world x, z) seen from `view`'s eye, thickening over a few crowd radii (at least a few
// characters of `size`) into kFogColor. `scale` (> 0) pushes it away (> 1) or pulls it in.
void addFog(render::FrameView& view, const glm::vec2& center, float radius, float size,
            float scale = 1.0f);

}  // namespace throng::cli
