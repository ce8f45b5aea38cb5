// MixedCrowdRenderer: a crowd of several characters (a Crowd of several CrowdCharacters) drawn on
// one device: one CrowdRenderer per character over its agents, gathered every frame, their
// animation textures stacked in one shared texture when they fit.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/render/animation_texture_upload.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/ground.h"

namespace throng::render {

class ShadowMapPass;  // src/render/passes/shadow_pass.h

// Draws stay one per (character, LOD, material) on every path; on the instanced and gpu paths
// the characters bind one animation texture a frame between them (SharedAnimationTexture). The
// crowd's character c is drawn with packages[c]. A crowd of one character is drawn as its
// CrowdRenderer draws it (the gpu path mirrors it on the GPU); several are advanced on the CPU and
// their agents handed to each character's renderer as spans (CharacterGatherJob), so the gpu
// path uploads them whole each frame. With a shadow map (CrowdRendererDesc::shadows kMap) the
// characters share one: every character's depth goes into it before any is drawn, so each
// shadows the others. Scratch grows with the crowd and is reused: a frame of a
// crowd no larger than a previous one allocates nothing. `device` must outlive it, with its
// context current whenever it is used or destroyed. Not thread-safe.
class MixedCrowdRenderer {
 public:
  // One renderer per package, each made with `desc` (the ground's grid drawn by the first only;
  // every character has its shadows). With several packages on the instanced or gpu path their
  // animation textures are stacked in one; when they do not fit, one each and separateTextures()
  // says why. Errors: the first renderer that fails, its message after the package's name
  // (names[c], else Package::source); kInvalidArgument for no packages; the shared texture's
  // kGlError.
  static Result<std::unique_ptr<MixedCrowdRenderer>> create(
      Device& device, std::span<const Package* const> packages, const CrowdRendererDesc& desc = {},
      std::span<const std::string> names = {});

  // Advances `crowd` by `seconds`: through the renderer for one character (the gpu path mirrors
  // it), Crowd::update for several.
  void update(Crowd& crowd, float seconds);
  // Draws every character's agents of `crowd` seen through `view` (tints: one per agent, or
  // empty; CrowdRendererDesc::state_tints apply). kInvalidArgument when the crowd has another
  // number of characters than the renderer or tints are not one per agent; the first character's
  // error otherwise (CrowdRenderer::draw).
  Status draw(const FrameView& view, const Crowd& crowd, std::span<const glm::vec4> tints = {});
  // Every character's depth for a light's `view` (CrowdRenderer::drawDepth), into the bound
  // framebuffer. Errors as draw().
  Status drawDepth(const FrameView& view, const Crowd& crowd);
  // CrowdRenderer's user-shader settings, for every character (the first error is returned).
  Status setShaderUniform(std::string_view name, std::span<const float> values);
  Status setShaderUniformInts(std::string_view name, std::span<const int> values);
  Status setShaderTexture(std::string_view name, unsigned gl_texture);
  // CrowdRenderer::readBack for one character (the gpu path's mirror); several are current: true.
  Result<bool> readBack(Crowd& crowd, bool wait = false);
  // CrowdRenderer::takeEvents (CrowdRendererDesc::events): one character's renderer's; with
  // several, each update's Crowd::events() (the crowd advances on the CPU).
  Status takeEvents(std::vector<UpdateEvents>& out, bool wait = false);

  size_t characterCount() const { return renderers_.size(); }
  CrowdRenderer& renderer(size_t character) { return *renderers_[character]; }
  const CrowdRenderer& renderer(size_t character) const { return *renderers_[character]; }
  // The path of the characters' renderers (all made with the same desc and device).
  RenderPath path() const { return renderers_[0]->path(); }
  // The last draw's counters summed over the characters (agents_per_lod by LOD index, as long as
  // the longest; cpu_ms phase by phase; counts_lag the largest).
  const CrowdFrameStats& stats() const;
  // Agents of character `character` in the last draw.
  uint32_t agentsOf(size_t character) const;
  // How the last draw drew agent `agent` of `crowd` (the crowd drawn last): its character's
  // renderer's AgentDrawInfo (draw_call counts that character's draws). O(agents).
  AgentDrawInfo agentDrawInfo(const Crowd& crowd, uint32_t agent) const;
  // The texture the characters share, or null (one character, a merged path, or too large).
  const SharedAnimationTexture* sharedTexture() const { return shared_.get(); }
  // Why the characters have a texture each ("" when shared or alone).
  const std::string& separateTextures() const { return separate_; }

  // CrowdRenderer's frame-to-frame settings, for every character (the grid: the first one's).
  void setGround(const GroundDesc& ground);
  const GroundDesc& ground() const { return renderers_[0]->ground(); }
  void setLodTint(bool on);
  void setLodThresholdPixels(float pixels);
  // The shadows (CrowdRenderer::setShadows) of every character; shadows() and shadowReason() are
  // the first character's (all made alike on one device).
  void setShadows(ShadowMode shadows);
  ShadowMode shadows() const { return renderers_[0]->shadows(); }
  const std::string& shadowReason() const { return renderers_[0]->shadowReason(); }

  ~MixedCrowdRenderer();
  MixedCrowdRenderer(const MixedCrowdRenderer&) = delete;
  MixedCrowdRenderer& operator=(const MixedCrowdRenderer&) = delete;

 private:
  struct Gathered {
    std::vector<Placement> placements;
    std::vector<AgentPlayback> playback;
    std::vector<glm::vec4> tints;
    std::vector<AgentState> states;
    std::vector<uint32_t> attachments;
    std::vector<AgentLayer> layers;
    std::vector<uint16_t> variants;
    std::vector<uint32_t> agents;  // the crowd's index of each gathered agent
    uint32_t count = 0;
  };
  MixedCrowdRenderer() = default;
  // Gathers character c's agents (their placements, playback, tints, states and appearances)
  // into a frame for its renderer.
  Result<CrowdFrame> gather(size_t character, const Crowd& crowd, std::span<const glm::vec4> tints);
  // The crowd's shared shadow map for `view` (kMap with several characters): fitted, and every
  // character's depth drawn into it.
  Status drawShadowMap(const FrameView& view, std::span<const CrowdFrame> frames);

  Device* device_ = nullptr;
  std::vector<std::unique_ptr<CrowdRenderer>> renderers_;
  std::vector<Gathered> gathered_;             // per character, when there are several
  std::vector<CrowdFrame> frames_;             // per character: its gathered frame
  std::unique_ptr<ShadowMapPass> shadow_map_;  // several characters' shared map (kMap)
  std::shared_ptr<const SharedAnimationTexture> shared_;
  std::string separate_;
  bool gather_events_ = false;  // CrowdRendererDesc::events, for several characters
  uint64_t updates_ = 0;
  std::vector<UpdateEvents> held_events_;
  mutable CrowdFrameStats stats_;
};

}  // namespace throng::render
