// What `throng render` and `throng demo` share for a crowd of several characters: one
// CrowdRenderer per character, each given its agents gathered every frame, their animation
// textures shared in one texture when they fit; and the per-input --clips maps.
#pragma once

#include <memory>
#include <optional>
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

namespace throng::cli {

// The clip map of each of `inputs` inputs from --clips given `maps.size()` times: none = by name
// for every input, once = that map for every input, `inputs` times = the i-th for input i. A
// usage message (for exit code 2, naming the flag) when the count is anything else.
Result<std::vector<std::string>> clipMapsPerInput(const std::vector<std::string>& maps,
                                                  size_t inputs);

class MixedCrowdRenderer {
 public:
  // One renderer per package (desc for each; `max_agents` sizes the gather buffers). With
  // several packages on an ES 3 device (instanced or gpu path), their animation textures are
  // stacked in one (SharedAnimationTexture); when they do not fit, one each and
  // separateTextures() says why. Errors: the first renderer that fails, naming its input.
  static Result<std::unique_ptr<MixedCrowdRenderer>> create(
      render::Device& device, std::span<const Package* const> packages,
      std::span<const std::string> names, render::CrowdRendererDesc desc, uint32_t max_agents);

  // Advances the crowd: one character through its renderer (the gpu path mirrors it); several
  // on the CPU (Crowd::update: the gpu path draws them from spans).
  void update(Crowd& crowd, float seconds);
  // Draws every character's agents (tints: one per agent, or empty).
  Status draw(const render::FrameView& view, const Crowd& crowd,
              std::span<const glm::vec4> tints = {});

  size_t size() const { return renderers_.size(); }
  render::CrowdRenderer& renderer(size_t c) { return *renderers_[c]; }
  const render::CrowdRenderer& renderer(size_t c) const { return *renderers_[c]; }
  // The last draw's totals over every character.
  uint32_t drawCalls() const;
  uint32_t animationTextureBinds() const;
  // Character c's agents in the last draw.
  uint32_t agentsOf(size_t c) const { return gathered_[c].count; }
  const render::SharedAnimationTexture* sharedTexture() const { return shared_.get(); }
  // Why the characters have a texture each ("" when shared or alone).
  const std::string& separateTextures() const { return separate_; }

 private:
  struct Gathered {
    std::vector<Placement> placements;
    std::vector<AgentPlayback> playback;
    std::vector<glm::vec4> tints;
    std::vector<uint16_t> variants;
    std::vector<uint32_t> agents;
    uint32_t count = 0;
  };
  std::vector<std::unique_ptr<render::CrowdRenderer>> renderers_;
  std::vector<Gathered> gathered_;
  std::shared_ptr<const render::SharedAnimationTexture> shared_;
  std::string separate_;
};

}  // namespace throng::cli
