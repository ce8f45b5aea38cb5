// The CPU-fed instanced path (method B, ES 3.0): the CPU culls, picks LODs and packs one 52-byte
// record per visible agent straight into the mapped instance buffer; one instanced draw per
// (LOD, material).
#pragma once

#include <memory>

#include "render/impostor_renderer.h"
#include "render/instanced_renderer.h"
#include "render/paths/crowd_path.h"
#include "throng/core/package.h"

namespace throng::render {

// The instanced renderer's options from a crowd renderer's desc (the gpu path draws through one
// too).
InstancedRendererOptions instancedOptions(const CrowdRendererDesc& desc);

// The impostor's instanced renderer as LOD `lod`, drawn from the meshes' records (the instanced
// path's and the gpu path's prepareImpostors): made into `impostors` with the user's file of
// `desc`, which `shader` keeps alive for it. ImpostorRenderer::create's errors.
Status makeInstancedImpostors(const Device& device, const Package& package,
                              const CrowdRendererDesc& desc, int lod,
                              std::unique_ptr<ImpostorRenderer>& impostors,
                              std::shared_ptr<const ShaderSource>& shader);

class InstancedCrowdPath final : public CpuFedPath {
 public:
  // Uploads `package` (InstancedRenderer::create's errors: kUnsupported, kLimitExceeded for a
  // texture the device cannot hold, kGlError).
  static Result<std::unique_ptr<InstancedCrowdPath>> create(Device& device, const Package& package,
                                                            const CrowdRendererDesc& desc,
                                                            const CrowdFacts& facts);

  RenderPath kind() const override { return RenderPath::kInstanced; }
  // Plays each visible agent back and writes its record into the mapped instance buffer.
  Status pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) override;
  // One instanced draw per (LOD, material) over the records packed.
  Status submit(const FrameInput& in, const AgentLists& lists, CrowdFrameStats& stats) override;
  void setPlainMaterials(bool plain) override { renderer_->setPlainMaterials(plain); }
  Status readInstanceRecords(std::vector<InstanceRecord>& out) const override;
  GLuint shadingProgram() const override { return renderer_->shadingProgram(); }
  std::vector<int> userTextureUnits() const override {
    return InstancedRenderer::userTextureUnits();
  }

  // The impostor's quads from the same records: one instanced draw after the meshes'.
  Status prepareImpostors(const Device& device, const Package& package,
                          const CrowdRendererDesc& desc, int lod) override;

  const InstancedRenderer& renderer() const { return *renderer_; }
  // The impostor's renderer when it is drawn, else null.
  ImpostorRenderer* impostors() const { return impostors_.get(); }

 private:
  // This frame's cross-fade band before the impostor's switch (none in the depth pass, with a
  // fixed LOD, or without the screen-space rule).
  ImpostorFade impostorFade(const FrameInput& in, const AgentLists& lists) const;

  InstancedCrowdPath(const CrowdFacts& facts, const Device& device,
                     std::unique_ptr<InstancedRenderer> renderer)
      : CpuFedPath(facts, device), renderer_(std::move(renderer)) {}

  std::unique_ptr<InstancedRenderer> renderer_;
  std::unique_ptr<ImpostorRenderer> impostors_;
  std::shared_ptr<const ShaderSource> shader_;  // the user's file, compiled into impostors_' too
};

}  // namespace throng::render
