// The GPU-driven path (ES 3.1 compute): the crowd is mirrored on the GPU, whose one compute pass
// a frame simulates, plays back, culls and picks LODs; one indirect draw per (LOD, material).
#pragma once

#include <array>
#include <memory>

#include "render/gpu_crowd.h"
#include "render/impostor_renderer.h"
#include "render/instanced_renderer.h"
#include "render/paths/crowd_path.h"
#include "throng/core/package.h"

namespace throng::render {

class GpuDrivenPath final : public CrowdPath {
 public:
  // The instanced renderer it draws through, then the GPU crowd (kUnsupported without compute,
  // kLimitExceeded for a texture the device cannot hold, kGlError).
  static Result<std::unique_ptr<GpuDrivenPath>> create(Device& device, const Package& package,
                                                       const CrowdRendererDesc& desc,
                                                       const CrowdFacts& facts);

  RenderPath kind() const override { return RenderPath::kGpu; }
  // Advances the crowd's layers on the CPU (Crowd::advanceLayers), then hands its commands and
  // new or removed agents to the GPU; its errors come with the next cull of a Crowd.
  void update(Crowd& crowd, float seconds, JobSystem* jobs) override;
  Result<bool> readBack(Crowd& crowd, bool wait) override;
  // The compute pass gathers the events (GpuCrowd::takeEvents), the layers' merged in.
  void gatherEvents(bool on) override { gpu_->gatherEvents(on); }
  Status takeEvents(std::vector<UpdateEvents>& out, bool wait) override {
    return gpu_->takeEvents(out, wait);
  }
  // The last colour draw's lists, read back once per draw (GpuCrowd::captureLastFrame: a stall)
  // and sorted by agent within each LOD, as the CPU's counting sort lays them out.
  Result<const AgentLists*> drawnLists(const AgentLists& cpu_lists) const override;
  // The GPU culls and packs in submit's compute pass: cull only returns update()'s errors (for a
  // Crowd), pack does nothing; the lists stay empty.
  Status cull(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) override;
  Status pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) override;
  // The compute pass and the indirect draws: a Crowd's mirror, or the spans uploaded whole.
  Status submit(const FrameInput& in, const AgentLists& lists, CrowdFrameStats& stats) override;
  // The newest frame's counts the GPU has finished (read back without waiting).
  void pollCounts(CrowdFrameStats& stats) const override;
  void setPlainMaterials(bool plain) override { renderer_->setPlainMaterials(plain); }
  GLuint shadingProgram() const override { return renderer_->shadingProgram(); }
  std::vector<int> userTextureUnits() const override {
    return InstancedRenderer::userTextureUnits();
  }

  // The compute pass lists impostor agents as the LOD past the meshes; one indirect draw of
  // quads after the meshes' (ImpostorRenderer::drawIndirect).
  Status prepareImpostors(const Device& device, const Package& package,
                          const CrowdRendererDesc& desc, int lod) override;

  const InstancedRenderer& renderer() const { return *renderer_; }

 private:
  GpuDrivenPath(const CrowdFacts& facts, const Device& device) : facts_(&facts), device_(&device) {}
  GpuDrawOptions drawOptions(const FrameInput& in) const;

  const CrowdFacts* facts_;
  const Device* device_;
  std::unique_ptr<InstancedRenderer> renderer_;
  std::unique_ptr<ImpostorRenderer> impostors_;  // before gpu_, which draws with it
  std::shared_ptr<const ShaderSource> shader_;   // the user's file, compiled into impostors_' too
  std::unique_ptr<GpuCrowd> gpu_;                // the mirrored crowd (draws through renderer_)
  std::array<glm::vec4, kGpuLodColors> lod_colors_{};  // lodDebugColor of LODs 0..7
  Status update_status_;             // the first error of update() since the last cull of a Crowd
  std::vector<glm::vec4> tints_;     // span-given agents' tints with their states' folded in
  std::vector<LayerSample> layers_;  // the frame's layers (layerSample), when any
  // drawnLists()' copy and the draw it is of (GpuCrowd::framesDrawn; none yet: the largest).
  mutable AgentLists drawn_lists_;
  mutable uint64_t drawn_lists_frame_ = ~uint64_t{0};
  mutable GpuFrameCapture capture_;
};

}  // namespace throng::render
