// The frame's scenery pass: the ground under the crowd and a blob shadow under every visible
// agent, drawn before the crowd's submit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "render/frame_shading.h"
#include "render/ground_renderer.h"
#include "throng/core/status.h"
#include "throng/crowd/playback.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/ground.h"
#include "throng/render/shading.h"

namespace throng::render {

// What a path that lists its visible agents on the GPU (the gpu path) needs to draw their blob
// shadows itself (GroundRenderer::drawListedShadows), between its compute pass and its draws.
struct ListedBlobShadows {
  GroundRenderer* renderer = nullptr;
  GroundDesc desc;      // the frame's ground, its sizes filled in
  float radius = 0.0f;  // a shadow's radius at scale 1 (world units)
};

class SceneryPass {
 public:
  // Sizes of 0 in a GroundDesc are filled in from the character: grid cells half its `height`,
  // shadows of `footprint` radius at scale 1 (world units).
  SceneryPass(float height, float footprint) : height_(height), footprint_(footprint) {}

  // Draws `ground` (nothing when it has no grid and `shadows` is not kBlob) with a blob shadow
  // under each agent of `visible` (indices into `placements`) when `shadows` is kBlob; the ground
  // samples `shading`'s shadow map (kMap). Makes the ground's programs on first use. Times
  // itself into stats.cpu_ms.ground and counts stats.ground_draw_calls. kGlError on GL failure.
  Status draw(Device& device, const FrameView& view, const GroundDesc& ground, ShadowMode shadows,
              std::span<const Placement> placements, std::span<const uint32_t> visible,
              const FrameShading& shading, CrowdFrameStats& stats);
  // After draw(): the frame's blob shadows for a path to draw from its own lists (the agents of
  // `visible` already have theirs), or null when the frame has none.
  const ListedBlobShadows* listedBlobs() const { return listed_.renderer ? &listed_ : nullptr; }

 private:
  float height_;
  float footprint_;
  std::unique_ptr<GroundRenderer> renderer_;  // made when the ground is first shown
  std::vector<BlobShadow> shadows_;
  ListedBlobShadows listed_;  // the last draw()'s; renderer null without blob shadows
};

}  // namespace throng::render
