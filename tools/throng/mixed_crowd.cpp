// Mixed crowds in the CLI: per-character renderers over gathered agents, a shared animation
// texture, and per-input clip maps.
#include "mixed_crowd.h"

#include <fmt/core.h>

#include "throng/crowd/character_gather.h"

namespace throng::cli {

Result<std::vector<std::string>> clipMapsPerInput(const std::vector<std::string>& maps,
                                                  size_t inputs) {
  if (maps.empty()) return std::vector<std::string>(inputs);
  if (maps.size() == 1) return std::vector<std::string>(inputs, maps[0]);
  if (maps.size() == inputs) return maps;
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("--clips: given {} times for {} inputs: give one map for every input "
                            "(in input order; '' = by name), or one for all",
                            maps.size(), inputs));
}

Result<std::unique_ptr<MixedCrowdRenderer>> MixedCrowdRenderer::create(
    render::Device& device, std::span<const Package* const> packages,
    std::span<const std::string> names, render::CrowdRendererDesc desc, uint32_t max_agents) {
  auto out = std::make_unique<MixedCrowdRenderer>();
  const bool texture_paths = desc.path == render::RenderPath::kAuto ||
                             desc.path == render::RenderPath::kInstanced ||
                             desc.path == render::RenderPath::kGpu;
  if (packages.size() > 1 && texture_paths && device.caps().gles_major >= 3) {
    std::vector<const AnimationTexture*> textures;
    for (const Package* p : packages) textures.push_back(&p->animation);
    Result<std::shared_ptr<render::SharedAnimationTexture>> shared =
        render::SharedAnimationTexture::create(device, textures);
    if (shared.ok()) {
      out->shared_ = std::move(shared).value();
    } else if (shared.status().code() == ErrorCode::kLimitExceeded) {
      out->separate_ = shared.status().message();
    } else {
      return shared.status();
    }
  } else if (packages.size() > 1) {
    out->separate_ = "the merged paths keep palettes on the CPU";
  }
  for (size_t c = 0; c < packages.size(); ++c) {
    desc.animation_texture = out->shared_;
    desc.animation_texture_slot = c;
    out->renderers_.push_back(std::make_unique<render::CrowdRenderer>(device, *packages[c], desc));
    if (!out->renderers_.back()->ok()) {
      const Status& s = out->renderers_.back()->status();
      return Status(s.code(), fmt::format("{}: {}", names[c], s.message()));
    }
    desc.ground.grid = false;  // one ground under the crowd; every character has its shadows
  }
  if (packages.size() > 1) {
    out->gathered_.resize(packages.size());
    for (Gathered& g : out->gathered_) {
      g.placements.resize(max_agents);
      g.playback.resize(max_agents);
      g.tints.resize(max_agents);
      g.variants.resize(max_agents);
      g.agents.resize(max_agents);
    }
  }
  return out;
}

void MixedCrowdRenderer::update(Crowd& crowd, float seconds) {
  if (renderers_.size() == 1) {
    renderers_[0]->update(crowd, seconds);
  } else {
    crowd.update(seconds);
  }
}

Status MixedCrowdRenderer::draw(const render::FrameView& view, const Crowd& crowd,
                                std::span<const glm::vec4> tints) {
  if (renderers_.size() == 1) return renderers_[0]->draw(view, crowd, tints);
  if (crowd.agentCount() > gathered_[0].agents.size()) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("mixed crowd: {} agents, room for {}", crowd.agentCount(),
                              gathered_[0].agents.size()));
  }
  for (size_t c = 0; c < renderers_.size(); ++c) {
    Gathered& g = gathered_[c];
    const CharacterGatherJob gather{static_cast<uint16_t>(c),
                                    crowd.agentCharacters(),
                                    crowd.placements(),
                                    crowd.playback(),
                                    tints,
                                    g.placements,
                                    g.playback,
                                    g.tints,
                                    g.agents,
                                    &g.count,
                                    crowd.variants(),
                                    g.variants};
    if (!gather.run()) {
      return Status(ErrorCode::kInvalidArgument, "mixed crowd: the agents could not be gathered");
    }
    const render::CrowdFrame frame{
        std::span(g.placements).first(g.count),
        std::span(g.playback).first(g.count),
        tints.empty() ? std::span<const glm::vec4>() : std::span(g.tints).first(g.count),
        {},
        std::span(g.variants).first(g.count)};
    if (Status s = renderers_[c]->draw(view, frame); !s.ok()) return s;
  }
  return Status::okStatus();
}

uint32_t MixedCrowdRenderer::drawCalls() const {
  uint32_t n = 0;
  for (const auto& r : renderers_) n += r->stats().draw_calls;
  return n;
}

uint32_t MixedCrowdRenderer::animationTextureBinds() const {
  uint32_t n = 0;
  for (const auto& r : renderers_) n += r->stats().animation_texture_binds;
  return n;
}

}  // namespace throng::cli
