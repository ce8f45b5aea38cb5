// The scenery pass: ground defaults from the character, one blob shadow per visible agent.
#include "render/passes/scenery_pass.h"

#include <cmath>

#include "render/passes/pass_support.h"

namespace throng::render {

Status SceneryPass::draw(Device& device, const FrameView& view, const GroundDesc& ground,
                         ShadowMode shadows, std::span<const Placement> placements,
                         std::span<const uint32_t> visible, const FrameShading& shading,
                         CrowdFrameStats& stats) {
  const bool blobs = shadows == ShadowMode::kBlob;
  listed_.renderer = nullptr;
  if (!ground.grid && !blobs) return Status::okStatus();
  const PassClock::time_point start = PassClock::now();
  if (!renderer_) {
    Result<std::unique_ptr<GroundRenderer>> made = GroundRenderer::create(device);
    if (!made.ok()) return made.status();
    renderer_ = std::move(made).value();
  }
  GroundDesc desc = ground;
  if (!(desc.cell > 0.0f)) desc.cell = 0.5f * height_;
  const float radius = desc.shadow_radius > 0.0f ? desc.shadow_radius : footprint_;
  uint32_t count = 0;
  if (blobs) {
    growTo(shadows_, visible.size());
    for (const uint32_t a : visible) {
      const Placement& p = placements[a];
      shadows_[count++] = {glm::vec3(p.position.x, desc.height, p.position.z),
                           radius * std::abs(p.scale)};
    }
  }
  if (blobs) listed_ = {renderer_.get(), desc, radius};
  Status s =
      renderer_->draw(view, desc, std::span<const BlobShadow>(shadows_.data(), count), shading);
  stats.ground_draw_calls = renderer_->drawCalls();
  stats.cpu_ms.ground = millisecondsSince(start);
  return s;
}

}  // namespace throng::render
