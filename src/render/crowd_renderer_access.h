// What MixedCrowdRenderer needs of its characters' CrowdRenderers beyond the public API: one
// shadow map for the whole crowd, drawn once with every character's depth and sampled by all.
#pragma once

#include "render/passes/shadow_pass.h"
#include "throng/render/crowd_renderer.h"

namespace throng::render {

struct CrowdRendererAccess {
  // From now on `renderer` samples `map` (owned by the caller, drawn by it before each draw) in
  // place of a map of its own; null: its own again.
  static void shareShadowMap(CrowdRenderer& renderer, const ShadowMapPass* map);
  // The shadow distance `renderer` fits its map to for `view` (CrowdRendererDesc::shadow_distance
  // or its default from the view's fog and the character's height).
  static float shadowDistance(const CrowdRenderer& renderer, const FrameView& view);
  // The shadow map's side `renderer` was made to use.
  static int shadowMapSize(const CrowdRenderer& renderer);
};

}  // namespace throng::render
