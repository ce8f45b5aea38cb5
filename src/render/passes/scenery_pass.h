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

 private:
  float height_;
  float footprint_;
  std::unique_ptr<GroundRenderer> renderer_;  // made when the ground is first shown
  std::vector<BlobShadow> shadows_;
};

}  // namespace throng::render
