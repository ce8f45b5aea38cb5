// The merged-batch paths (method A, ES 2.0): the CPU culls, picks LODs and fills each visible
// agent's palette from the baked frames; K characters per draw, palettes as uniforms (K = 1:
// the per-character path).
#pragma once

#include <memory>
#include <vector>

#include "render/impostor_renderer.h"
#include "render/merged_batch_renderer.h"
#include "render/paths/crowd_path.h"
#include "throng/core/animation_texture.h"
#include "throng/core/package.h"

namespace throng::render {

class MergedCrowdPath final : public CpuFedPath {
 public:
  // Builds the batches (MergedBatchRenderer::create's errors) and writes what it decided into
  // `facts`: each LOD's drawn LOD, joints and K, the fallbacks' warnings and the joint encoding
  // with its reason.
  static Result<std::unique_ptr<MergedCrowdPath>> create(Device& device, const Package& package,
                                                         const CrowdRendererDesc& desc,
                                                         bool per_character, CrowdFacts& facts);

  RenderPath kind() const override {
    return per_character_ ? RenderPath::kPerCharacter : RenderPath::kMerged;
  }
  // Plays each visible agent back, then fills its placed palette and its tint, LOD by LOD.
  Status pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) override;
  // Every LOD's characters, opaque materials first, then the blended ones.
  Status submit(const FrameInput& in, const AgentLists& lists, CrowdFrameStats& stats) override;
  void setPlainMaterials(bool plain) override { renderer_->setPlainMaterials(plain); }
  GLuint shadingProgram() const override { return renderer_->shadingProgram(); }
  std::vector<int> userTextureUnits() const override {
    return MergedBatchRenderer::userTextureUnits(morph_);
  }
  // The impostor's quads, K per draw as the meshes' characters (ImpostorRenderer::createBatched;
  // one per draw on the per-character path), after the opaque meshes.
  Status prepareImpostors(const Device& device, const Package& package,
                          const CrowdRendererDesc& desc, int lod) override;

 private:
  MergedCrowdPath(const CrowdFacts& facts, const Device& device, bool per_character)
      : CpuFedPath(facts, device), per_character_(per_character) {}
  void packPalettes(const FrameInput& in, const AgentLists& lists);
  // The impostor agents' values (impostor_agents_), in slot order.
  void packImpostors(const FrameInput& in, const AgentLists& lists);

  bool per_character_;
  std::unique_ptr<MergedBatchRenderer> renderer_;
  AnimationTexture texture_;  // palettes are copied from it on the CPU
  bool morph_ = false;        // the package has morph animation: morph_frames_ go up too

  // Per-frame scratch, grown with the crowd and reused.
  std::vector<InstanceFrames> frames_;   // the visible agents' frames, by agent
  std::vector<JointRows> palettes_;      // every visible agent's, LOD by LOD
  std::vector<glm::vec4> tints_;         // by slot
  std::vector<glm::vec4> agents_;        // by slot: index, state, appearance, LOD (u_agent)
  std::vector<glm::vec4> morph_frames_;  // by slot, kMorphVectorsPerCharacter each (u_morph_frames)
  std::unique_ptr<ImpostorRenderer> impostors_;  // null: no impostor drawn
  // The impostor LOD's visible agents, then the fade band's (the last mesh LOD's agents in it).
  std::vector<ImpostorAgent> impostor_agents_;
  std::vector<float> fades_;  // the last mesh LOD's agents' fade weights, by slot from its first
};

}  // namespace throng::render
