// Mixed crowds: a renderer per character over its gathered agents, one shared animation texture.
#include "throng/render/mixed_crowd_renderer.h"

#include <algorithm>

#include <fmt/core.h>

#include "render/crowd_renderer_access.h"
#include "render/passes/pass_support.h"
#include "render/passes/shadow_pass.h"
#include "throng/crowd/character_gather.h"

namespace throng::render {
namespace {

// Applies `set` to every character's renderer (each compiled the same file); the first error, or
// ok. Every renderer is told even after one fails, so they stay alike.
template <typename Set>
Status setOnEvery(std::vector<std::unique_ptr<CrowdRenderer>>& renderers, Set set) {
  Status first;
  for (auto& r : renderers) {
    Status s = set(*r);
    if (first.ok()) first = s;
  }
  return first;
}

// The instanced and gpu paths read the animation texture on the GPU; the merged ones keep
// palettes on the CPU.
bool texturePath(RenderPath path) {
  return path == RenderPath::kAuto || path == RenderPath::kInstanced || path == RenderPath::kGpu;
}

void addStats(const CrowdFrameStats& one, CrowdFrameStats& sum) {
  sum.agents += one.agents;
  sum.visible += one.visible;
  sum.draw_calls += one.draw_calls;
  sum.triangles += one.triangles;
  if (sum.agents_per_lod.size() < one.agents_per_lod.size())
    sum.agents_per_lod.resize(one.agents_per_lod.size(), 0);
  for (size_t l = 0; l < one.agents_per_lod.size(); ++l)
    sum.agents_per_lod[l] += one.agents_per_lod[l];
  sum.counts_lag = std::max(sum.counts_lag, one.counts_lag);
  sum.ground_draw_calls += one.ground_draw_calls;
  sum.animation_texture_binds += one.animation_texture_binds;
  sum.palette_pass = sum.palette_pass || one.palette_pass;
  sum.cpu_ms.update += one.cpu_ms.update;
  sum.cpu_ms.playback += one.cpu_ms.playback;
  sum.cpu_ms.cull += one.cpu_ms.cull;
  sum.cpu_ms.lod += one.cpu_ms.lod;
  sum.cpu_ms.pack_upload += one.cpu_ms.pack_upload;
  sum.cpu_ms.submit += one.cpu_ms.submit;
  sum.cpu_ms.ground += one.cpu_ms.ground;
  sum.cpu_ms.shadow += one.cpu_ms.shadow;
  sum.shadow_draw_calls += one.shadow_draw_calls;
}

}  // namespace

Result<std::unique_ptr<MixedCrowdRenderer>> MixedCrowdRenderer::create(
    Device& device, std::span<const Package* const> packages, const CrowdRendererDesc& desc,
    std::span<const std::string> names) {
  if (packages.empty())
    return Status(ErrorCode::kInvalidArgument, "mixed crowd: no characters to draw");
  std::unique_ptr<MixedCrowdRenderer> out(new MixedCrowdRenderer());
  out->device_ = &device;
  out->gather_events_ = desc.events;
  if (packages.size() > 1 && texturePath(desc.path) && device.caps().gles_major >= 3) {
    std::vector<const AnimationTexture*> textures;
    for (const Package* p : packages) textures.push_back(&p->animation);
    Result<std::shared_ptr<SharedAnimationTexture>> shared =
        SharedAnimationTexture::create(device, textures);
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
  CrowdRendererDesc each = desc;
  for (size_t c = 0; c < packages.size(); ++c) {
    each.animation_texture = out->shared_;
    each.animation_texture_slot = c;
    out->renderers_.push_back(std::make_unique<CrowdRenderer>(device, *packages[c], each));
    if (!out->renderers_.back()->ok()) {
      const Status& s = out->renderers_.back()->status();
      const std::string& name = c < names.size() ? names[c] : packages[c]->source;
      return Status(s.code(), fmt::format("{}: {}", name, s.message()));
    }
    each.ground.grid = false;  // one ground under the crowd; every character has its shadows
  }
  if (packages.size() > 1) {
    out->gathered_.resize(packages.size());
    out->frames_.resize(packages.size());
  }
  return out;
}

MixedCrowdRenderer::~MixedCrowdRenderer() = default;

void MixedCrowdRenderer::update(Crowd& crowd, float seconds) {
  if (renderers_.size() == 1) {
    renderers_[0]->update(crowd, seconds);
    return;
  }
  crowd.update(seconds);
  if (gather_events_) {
    UpdateEvents events;
    events.update = ++updates_;
    events.events.assign(crowd.events().begin(), crowd.events().end());
    held_events_.push_back(std::move(events));
  }
}

Status MixedCrowdRenderer::takeEvents(std::vector<UpdateEvents>& out, bool wait) {
  if (renderers_.size() == 1) return renderers_[0]->takeEvents(out, wait);
  for (UpdateEvents& events : held_events_) out.push_back(std::move(events));
  held_events_.clear();
  return Status::okStatus();
}

Result<bool> MixedCrowdRenderer::readBack(Crowd& crowd, bool wait) {
  if (renderers_.size() == 1) return renderers_[0]->readBack(crowd, wait);
  return true;
}

Status MixedCrowdRenderer::draw(const FrameView& view, const Crowd& crowd,
                                std::span<const glm::vec4> tints) {
  if (crowd.characterCount() != renderers_.size()) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("mixed crowd: the crowd has {} characters, the renderer {}",
                              crowd.characterCount(), renderers_.size()));
  }
  if (renderers_.size() == 1) return renderers_[0]->draw(view, crowd, tints);
  for (size_t c = 0; c < renderers_.size(); ++c) {
    Result<CrowdFrame> frame = gather(c, crowd, tints);
    if (!frame.ok()) return frame.status();
    frames_[c] = *frame;
  }
  if (Status s = drawShadowMap(view, frames_); !s.ok()) return s;
  for (size_t c = 0; c < renderers_.size(); ++c) {
    if (Status s = renderers_[c]->draw(view, frames_[c]); !s.ok()) return s;
  }
  return Status::okStatus();
}

Status MixedCrowdRenderer::drawShadowMap(const FrameView& view,
                                         std::span<const CrowdFrame> frames) {
  CrowdRenderer& first = *renderers_[0];
  if (first.shadows() != ShadowMode::kMap) return Status::okStatus();
  if (!shadow_map_) {
    Result<std::unique_ptr<ShadowMapPass>> made =
        ShadowMapPass::create(*device_, CrowdRendererAccess::shadowMapSize(first));
    if (!made.ok()) return made.status();
    shadow_map_ = std::move(made).value();
    for (auto& r : renderers_) CrowdRendererAccess::shareShadowMap(*r, shadow_map_.get());
  }
  // The farthest any character's map would reach (each character's height sets its default).
  float distance = 0.0f;
  for (const auto& r : renderers_) {
    distance = std::max(distance, CrowdRendererAccess::shadowDistance(*r, view));
  }
  shadow_map_->fit(view, distance);
  shadow_map_->begin();
  Status status;
  for (size_t c = 0; c < renderers_.size() && status.ok(); ++c) {
    status = renderers_[c]->drawDepth(shadow_map_->lightView(), frames[c]);
  }
  shadow_map_->end();
  return status;
}

Status MixedCrowdRenderer::drawDepth(const FrameView& view, const Crowd& crowd) {
  if (crowd.characterCount() != renderers_.size()) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("mixed crowd: the crowd has {} characters, the renderer {}",
                              crowd.characterCount(), renderers_.size()));
  }
  if (renderers_.size() == 1) return renderers_[0]->drawDepth(view, crowd);
  for (size_t c = 0; c < renderers_.size(); ++c) {
    Result<CrowdFrame> frame = gather(c, crowd, {});
    if (!frame.ok()) return frame.status();
    if (Status s = renderers_[c]->drawDepth(view, *frame); !s.ok()) return s;
  }
  return Status::okStatus();
}

Status MixedCrowdRenderer::setShaderUniform(std::string_view name, std::span<const float> values) {
  return setOnEvery(renderers_, [&](CrowdRenderer& r) { return r.setShaderUniform(name, values); });
}

Status MixedCrowdRenderer::setShaderUniformInts(std::string_view name,
                                                std::span<const int> values) {
  return setOnEvery(renderers_,
                    [&](CrowdRenderer& r) { return r.setShaderUniformInts(name, values); });
}

Status MixedCrowdRenderer::setShaderTexture(std::string_view name, unsigned gl_texture) {
  return setOnEvery(renderers_,
                    [&](CrowdRenderer& r) { return r.setShaderTexture(name, gl_texture); });
}

void MixedCrowdRenderer::setShadows(ShadowMode shadows) {
  for (auto& r : renderers_) r->setShadows(shadows);
}

Result<CrowdFrame> MixedCrowdRenderer::gather(size_t c, const Crowd& crowd,
                                              std::span<const glm::vec4> tints) {
  Gathered& g = gathered_[c];
  const uint32_t n = crowd.agentCount();
  growTo(g.placements, n);
  growTo(g.playback, n);
  growTo(g.tints, n);
  growTo(g.states, n);
  growTo(g.variants, n);
  growTo(g.agents, n);
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
  const std::span<const AgentState> states = crowd.states();
  for (uint32_t i = 0; i < g.count; ++i) g.states[i] = states[g.agents[i]];
  growTo(g.attachments, n);
  const std::span<const uint32_t> attachments = crowd.attachments();
  for (uint32_t i = 0; i < g.count; ++i) g.attachments[i] = attachments[g.agents[i]];
  growTo(g.layers, n);
  const std::span<const AgentLayer> layers = crowd.layers();
  for (uint32_t i = 0; i < g.count; ++i) g.layers[i] = layers[g.agents[i]];
  return CrowdFrame{
      std::span(g.placements).first(g.count),
      std::span(g.playback).first(g.count),
      tints.empty() ? std::span<const glm::vec4>() : std::span(g.tints).first(g.count),
      std::span(g.states).first(g.count),
      std::span(g.variants).first(g.count),
      std::span(g.agents).first(g.count),
      std::span(g.attachments).first(g.count),
      std::span(g.layers).first(g.count)};
}

const CrowdFrameStats& MixedCrowdRenderer::stats() const {
  if (renderers_.size() == 1) return renderers_[0]->stats();
  std::vector<uint32_t> per_lod = std::move(stats_.agents_per_lod);  // kept: no allocation
  std::fill(per_lod.begin(), per_lod.end(), 0u);
  stats_ = {};
  stats_.agents_per_lod = std::move(per_lod);
  for (const auto& r : renderers_) addStats(r->stats(), stats_);
  return stats_;
}

uint32_t MixedCrowdRenderer::agentsOf(size_t character) const {
  if (renderers_.size() == 1) return renderers_[0]->stats().agents;
  return gathered_[character].count;
}

AgentDrawInfo MixedCrowdRenderer::agentDrawInfo(const Crowd& crowd, uint32_t agent) const {
  if (renderers_.size() == 1) return renderers_[0]->agentDrawInfo(agent);
  if (agent >= crowd.agentCount()) return {};
  const uint16_t c = crowd.agentCharacters()[agent];
  if (c >= gathered_.size()) return {};
  const Gathered& g = gathered_[c];
  const auto at = std::find(g.agents.begin(), g.agents.begin() + g.count, agent);
  if (at == g.agents.begin() + g.count) return {};
  return renderers_[c]->agentDrawInfo(static_cast<uint32_t>(at - g.agents.begin()));
}

void MixedCrowdRenderer::setGround(const GroundDesc& ground) {
  GroundDesc each = ground;
  for (auto& r : renderers_) {
    r->setGround(each);
    each.grid = false;  // one ground under the crowd
  }
}

void MixedCrowdRenderer::setLodTint(bool on) {
  for (auto& r : renderers_) r->setLodTint(on);
}

void MixedCrowdRenderer::setLodThresholdPixels(float pixels) {
  for (auto& r : renderers_) r->setLodThresholdPixels(pixels);
}

}  // namespace throng::render
