// CrowdRenderer: the front end. It checks its input, keeps the package's facts and the frame's
// settings, and runs a frame's passes in order on the path chosen for the device.
#include "throng/render/crowd_renderer.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>
#include <glm/gtc/type_ptr.hpp>

#include "render/crowd_facts.h"
#include "render/crowd_renderer_access.h"
#include "render/frame_settings.h"
#include "render/passes/cull_lod_pass.h"
#include "render/passes/pass_support.h"
#include "render/passes/scenery_pass.h"
#include "render/passes/shadow_pass.h"
#include "render/paths/crowd_path.h"
#include "render/paths/path_choice.h"
#include "render/test_hooks.h"
#include "render/user_uniforms.h"

namespace throng::render {
namespace {

// Debug colours of the LODs, finest first.
const glm::vec4 kLodColors[] = {
    {0.30f, 0.85f, 0.35f, 1.0f}, {0.75f, 0.90f, 0.25f, 1.0f}, {1.00f, 0.85f, 0.20f, 1.0f},
    {1.00f, 0.55f, 0.15f, 1.0f}, {0.95f, 0.25f, 0.20f, 1.0f}, {0.85f, 0.30f, 0.80f, 1.0f},
    {0.40f, 0.45f, 1.00f, 1.0f}, {0.25f, 0.85f, 0.95f, 1.0f},
};

Status checkFrame(const CrowdFrame& frame) {
  const size_t n = frame.placements.size();
  if (frame.playback.size() == n && (frame.tints.empty() || frame.tints.size() == n) &&
      (frame.states.empty() || frame.states.size() == n) &&
      (frame.variants.empty() || frame.variants.size() == n) &&
      (frame.attachments.empty() || frame.attachments.size() == n) &&
      (frame.layers.empty() || frame.layers.size() == n)) {
    return Status::okStatus();
  }
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("crowd renderer: {} placements, {} playback states, {} tints, {} "
                            "agent states, {} variants, {} prop masks and {} layers (each must "
                            "be one per agent; all but placements and playback may be none)",
                            n, frame.playback.size(), frame.tints.size(), frame.states.size(),
                            frame.variants.size(), frame.attachments.size(), frame.layers.size()));
}

// True when `m` is an orthographic projection (its last row is 0, 0, 0, 1).
bool orthographic(const glm::mat4& m) {
  return m[0][3] == 0.0f && m[1][3] == 0.0f && m[2][3] == 0.0f && m[3][3] == 1.0f;
}

// The LOD rule with an orthographic view: a model unit covers the same pixels everywhere
// (half the viewport's height times the projection's y scale), so every agent gets the coarsest
// LOD whose error (model units, at scale 1) stays within `threshold_pixels`.
int orthographicLod(std::span<const MeshLod> lods, const FrameView& view, int frame_height,
                    float threshold_pixels) {
  const glm::mat4& m = view.view_projection;
  const float height =
      view.viewport_height > 0.0f ? view.viewport_height : static_cast<float>(frame_height);
  const float pixels_per_unit = 0.5f * height * glm::length(glm::vec3(m[0][1], m[1][1], m[2][1]));
  const float budget = pixels_per_unit > 0.0f ? threshold_pixels / pixels_per_unit : 0.0f;
  int lod = 0;
  for (int i = 1; i < static_cast<int>(lods.size()); ++i) {
    if (lods[i].max_error <= budget) lod = i;
  }
  return lod;
}

}  // namespace

glm::vec4 lodDebugColor(int lod) {
  constexpr int n = static_cast<int>(std::size(kLodColors));
  return kLodColors[((lod % n) + n) % n];
}

struct CrowdRenderer::Impl {
  Impl(Device& d, const CrowdRendererDesc& desc) : device(&d), jobs(desc.jobs), kind(desc.path) {
    settings.fixed_lod = desc.fixed_lod;
    settings.lod_threshold_pixels =
        desc.lod_threshold_pixels > 0.0f ? desc.lod_threshold_pixels : kDefaultLodThresholdPx;
    settings.tint = desc.tint;
    settings.lod_tint = desc.lod_tint;
    settings.state_tints = desc.state_tints;
    settings.ground = desc.ground;
    requested_shadows = desc.shadows;
    shadow_distance = desc.shadow_distance;
    shadow_map_size = desc.shadow_map_size > 0 ? desc.shadow_map_size : kDefaultShadowMapSize;
  }

  void beginStats(uint32_t agents);
  // The frame's passes, in order, for every path; a GL failure fails the renderer.
  Status drawFrame(const FrameInput& in);
  // A depth pass (in.pass kDepth) for in.view: cull, pack and submit into its own lists, counted
  // in stats.shadow_draw_calls and cpu_ms.shadow.
  Status drawDepthPass(const FrameInput& in);
  // The settings of a depth pass for `view`: the LOD rule of its projection.
  const FrameSettings& depthSettings(const FrameView& view);
  // The shadow map this frame samples, drawn first when it is this renderer's own; null without.
  Result<const ShadowMapPass*> shadowMap(const FrameInput& in);
  // What setShadows(requested) draws on this device, and why.
  void chooseShadows();
  float shadowDistanceFor(const FrameView& view) const;
  // Makes the path draw the package's impostor as its last LOD when asked and it can; errors
  // other than its refusal fail the renderer.
  Status prepareImpostors(const Package& package, const CrowdRendererDesc& desc);
  Status failOnGlError(Status s) {
    if (s.code() == ErrorCode::kGlError) status = s;
    return s;
  }

  Device* device;
  JobSystem* jobs;
  Status status;
  RenderPath kind;
  std::string reason;
  CrowdFacts facts;
  FrameSettings settings;
  std::unique_ptr<CrowdPath> path;
  std::unique_ptr<SceneryPass> scenery;
  AgentLists lists;        // the last frame's visible agents by LOD (empty on the gpu path)
  AgentLists depth_lists;  // the depth pass's
  FrameSettings depth_settings;
  UserUniforms user;
  ShadowMode requested_shadows = ShadowMode::kOff;
  std::string shadow_reason;
  float shadow_distance = 0.0f;
  int shadow_map_size = kDefaultShadowMapSize;
  std::unique_ptr<ShadowMapPass> own_shadow_map;     // made at the first frame that needs it
  const ShadowMapPass* shared_shadow_map = nullptr;  // MixedCrowdRenderer's
  FrameView shadow_view;
  double pending_update_ms = 0.0;
  mutable CrowdFrameStats stats;  // mutable: stats() polls the gpu path's counts
};

CrowdRenderer::CrowdRenderer(Device& device, const Package& package, const CrowdRendererDesc& desc)
    : impl_(std::make_unique<Impl>(device, desc)) {
  Impl& m = *impl_;
  if (Status s = gatherCrowdFacts(package, desc, m.facts); !s.ok()) {
    m.status = s;
    return;
  }
  if (Status s = device.makeCurrent(); !s.ok()) {
    m.status = s;
    return;
  }
  PathChoice choice = chooseCrowdPath(device, package, desc, m.facts);
  m.kind = choice.kind;
  m.reason = std::move(choice.reason);
  if (!choice.status.ok()) {
    m.status = choice.status;
    return;
  }
  m.path = std::move(choice.path);
  m.path->gatherEvents(desc.events);
  if (Status s = m.prepareImpostors(package, desc); !s.ok()) {
    m.status = s;
    return;
  }
  m.scenery = std::make_unique<SceneryPass>(m.facts.character_height, m.facts.character_footprint);
  setLodTint(m.settings.lod_tint);
  m.stats.agents_per_lod.assign(m.facts.lods.size(), 0);
  m.lists.reset(m.facts.lods.size());
  m.depth_lists.reset(m.facts.lods.size());
  if (desc.shader) {
    if (Status s = m.user.declare(userUniformsOf(m.path->shadingProgram()),
                                  unitsOnDevice(m.path->userTextureUnits(), device.caps()),
                                  desc.shader->name);
        !s.ok()) {
      m.status = s;
      return;
    }
  }
  m.chooseShadows();
}

void CrowdRenderer::Impl::chooseShadows() {
  settings.shadows = requested_shadows;
  switch (requested_shadows) {
    case ShadowMode::kOff:
      shadow_reason = "off: asked for";
      return;
    case ShadowMode::kBlob:
      shadow_reason = "blob: asked for";
      return;
    case ShadowMode::kMap:
      break;
  }
  const Caps& caps = device->caps();
  if (!caps.depth_textures) {
    settings.shadows = ShadowMode::kBlob;
    shadow_reason = fmt::format(
        "blob: the device has no depth textures for a shadow map ({} without OES_depth_texture)",
        caps.version);
    return;
  }
  const int size = std::min(shadow_map_size, std::max(caps.max_texture_size, 1));
  shadow_reason =
      shadow_distance > 0.0f
          ? fmt::format("map: {}x{} depth texture, up to {:.4g} world units from the eye", size,
                        size, shadow_distance)
          : fmt::format(
                "map: {}x{} depth texture, up to the fog's end or {:.4g} world units "
                "({:.0f} character heights) from the eye",
                size, size, kDefaultShadowDistanceHeights * facts.character_height,
                kDefaultShadowDistanceHeights);
}

Status CrowdRenderer::Impl::prepareImpostors(const Package& package,
                                             const CrowdRendererDesc& desc) {
  if (package.impostor.empty()) {
    facts.impostor_reason = "none: the package has no impostor";
    return Status::okStatus();
  }
  if (!desc.impostors) {
    facts.impostor_reason = "off: asked for";
    return Status::okStatus();
  }
  const Status s =
      path->prepareImpostors(*device, package, desc, static_cast<int>(package.lods.size()));
  const bool fixed = desc.fixed_lod && *desc.fixed_lod == static_cast<int>(package.lods.size());
  if (!fixed && (s.code() == ErrorCode::kUnsupported || s.code() == ErrorCode::kLimitExceeded)) {
    facts.impostor_reason = fmt::format("not drawn, the last mesh LOD stands in: {}", s.message());
    return Status::okStatus();
  }
  if (!s.ok()) return s;
  appendImpostorLod(package, facts);
  return Status::okStatus();
}

float CrowdRenderer::Impl::shadowDistanceFor(const FrameView& view) const {
  if (shadow_distance > 0.0f) return shadow_distance;
  if (view.fog.enabled()) return view.fog.end;
  return kDefaultShadowDistanceHeights * facts.character_height;
}

CrowdRenderer::~CrowdRenderer() = default;
CrowdRenderer::CrowdRenderer(CrowdRenderer&&) noexcept = default;
CrowdRenderer& CrowdRenderer::operator=(CrowdRenderer&&) noexcept = default;

const Status& CrowdRenderer::status() const {
  return impl_->status;
}
RenderPath CrowdRenderer::path() const {
  return impl_->kind;
}
const std::string& CrowdRenderer::pathReason() const {
  return impl_->reason;
}
int CrowdRenderer::lodCount() const {
  return impl_->facts.lodCount();
}
int CrowdRenderer::impostorLod() const {
  return impl_->facts.impostor_lod;
}
const std::string& CrowdRenderer::impostorReason() const {
  return impl_->facts.impostor_reason;
}
const std::vector<Warning>& CrowdRenderer::warnings() const {
  return impl_->facts.warnings;
}
JointEncoding CrowdRenderer::jointEncoding() const {
  return impl_->facts.joint_encoding;
}
const std::string& CrowdRenderer::jointEncodingReason() const {
  return impl_->facts.joint_encoding_reason;
}
float CrowdRenderer::quatEncodingError() const {
  return impl_->facts.quat_encoding_error;
}
void CrowdRenderer::setGround(const GroundDesc& ground) {
  impl_->settings.ground = ground;
}
const GroundDesc& CrowdRenderer::ground() const {
  return impl_->settings.ground;
}
void CrowdRenderer::setShadows(ShadowMode shadows) {
  impl_->requested_shadows = shadows;
  impl_->chooseShadows();
}
ShadowMode CrowdRenderer::shadows() const {
  return impl_->settings.shadows;
}
const std::string& CrowdRenderer::shadowReason() const {
  return impl_->shadow_reason;
}
const FrameView& CrowdRenderer::shadowView() const {
  return impl_->shadow_view;
}
bool CrowdRenderer::lodTint() const {
  return impl_->settings.lod_tint;
}
float CrowdRenderer::lodThresholdPixels() const {
  return impl_->settings.lod_threshold_pixels;
}

LodDrawInfo CrowdRenderer::lodInfo(int lod) const {
  if (!ok() || lod < 0 || lod >= lodCount()) return {};
  return impl_->facts.lod_info[lod];
}

void CrowdRenderer::setLodThresholdPixels(float pixels) {
  impl_->settings.lod_threshold_pixels = pixels > 0.0f ? pixels : kDefaultLodThresholdPx;
}

void CrowdRenderer::setLodTint(bool on) {
  impl_->settings.lod_tint = on;
  // The debug colour alone shows, not multiplied by the materials.
  if (impl_->path) impl_->path->setPlainMaterials(on);
}

std::span<const uint32_t> CrowdRenderer::drawOrder() const {
  if (!ok()) return impl_->lists.visibleOrder();
  Result<const AgentLists*> lists = impl_->path->drawnLists(impl_->lists);
  if (!lists.ok()) return {};
  return (*lists)->visibleOrder();
}

AgentDrawInfo CrowdRenderer::agentDrawInfo(uint32_t agent) const {
  AgentDrawInfo info;
  if (!ok()) return info;
  Result<const AgentLists*> drawn = impl_->path->drawnLists(impl_->lists);
  if (!drawn.ok()) return info;
  const AgentLists& lists = **drawn;
  const std::vector<LodDrawInfo>& lods = impl_->facts.lod_info;
  int draw_call = 0;
  for (int l = 0; l < lodCount(); ++l) {
    const uint32_t count = lists.lod_counts[l];
    if (count == 0) continue;
    // K characters per draw on the merged paths; all of a LOD's in one draw (0) when instanced.
    const uint32_t per_draw = lods[l].characters_per_draw > 0
                                  ? static_cast<uint32_t>(lods[l].characters_per_draw)
                                  : count;
    const uint32_t first = lists.lod_first[l];
    for (uint32_t i = first; i < first + count && i < lists.visible; ++i) {
      if (lists.order[i] != agent) continue;
      const uint32_t k = i - first;
      info.visible = true;
      info.lod = l;
      info.drawn_lod = lods[l].drawn_lod;
      info.draw_call = draw_call + static_cast<int>(k / per_draw);
      info.slot = static_cast<int>(k % per_draw);
      return info;
    }
    draw_call += static_cast<int>((count + per_draw - 1) / per_draw);
  }
  return info;
}

void CrowdRenderer::update(Crowd& crowd, float seconds) {
  const PassClock::time_point start = PassClock::now();
  if (impl_->path) {
    impl_->path->update(crowd, seconds, impl_->jobs);
  } else {
    crowd.update(seconds, impl_->jobs);  // a failed renderer still advances the crowd
  }
  impl_->pending_update_ms += millisecondsSince(start);
}

Status CrowdRenderer::takeEvents(std::vector<UpdateEvents>& out, bool wait) {
  if (!ok()) return impl_->status;
  return impl_->failOnGlError(impl_->path->takeEvents(out, wait));
}

Result<bool> CrowdRenderer::readBack(Crowd& crowd, bool wait) {
  if (!ok()) return impl_->status;
  return impl_->path->readBack(crowd, wait);
}

const CrowdFrameStats& CrowdRenderer::stats() const {
  if (ok()) impl_->path->pollCounts(impl_->stats);
  return impl_->stats;
}

void CrowdRenderer::Impl::beginStats(uint32_t agents) {
  std::fill(stats.agents_per_lod.begin(), stats.agents_per_lod.end(), 0u);
  stats.agents = agents;
  stats.visible = 0;
  stats.draw_calls = 0;
  stats.triangles = 0;
  stats.ground_draw_calls = 0;
  stats.counts_lag = 0;
  stats.palette_pass = false;
  // The depth pass's counters stay: an engine's drawDepth comes before its draw.
  const double shadow_ms = stats.cpu_ms.shadow;
  stats.cpu_ms = {};
  stats.cpu_ms.shadow = shadow_ms;
  stats.cpu_ms.update = pending_update_ms;
  pending_update_ms = 0.0;
}

const FrameSettings& CrowdRenderer::Impl::depthSettings(const FrameView& view) {
  depth_settings = settings;
  depth_settings.lod_tint = false;
  if (!settings.fixed_lod && orthographic(view.view_projection)) {
    depth_settings.fixed_lod =
        orthographicLod(facts.lods, view, device->height(), settings.lod_threshold_pixels);
  }
  return depth_settings;
}

Status CrowdRenderer::Impl::drawDepthPass(const FrameInput& in) {
  const PassClock::time_point start = PassClock::now();
  // Its own counters: the colour pass's are the frame's.
  CrowdFrameStats depth;
  depth.agents_per_lod.assign(facts.lods.size(), 0);
  depth_lists.visible = 0;
  Status s = path->cull(in, depth_lists, depth);
  if (s.ok()) s = path->pack(in, depth_lists, depth);
  if (s.ok()) s = path->submit(in, depth_lists, depth);
  stats.shadow_draw_calls = depth.draw_calls;
  stats.cpu_ms.shadow = millisecondsSince(start);
  return failOnGlError(s);
}

Result<const ShadowMapPass*> CrowdRenderer::Impl::shadowMap(const FrameInput& in) {
  if (settings.shadows != ShadowMode::kMap) return nullptr;
  if (shared_shadow_map) return shared_shadow_map;
  if (!own_shadow_map) {
    Result<std::unique_ptr<ShadowMapPass>> made = ShadowMapPass::create(*device, shadow_map_size);
    if (!made.ok()) return failOnGlError(made.status());
    own_shadow_map = std::move(made).value();
  }
  ShadowMapPass& map = *own_shadow_map;
  map.fit(in.view, shadowDistanceFor(in.view));
  shadow_view = map.lightView();
  FrameInput depth{
      map.lightView(), in.frame,         in.crowd,        depthSettings(map.lightView()),
      in.jobs,         {nullptr, &user}, DrawPass::kDepth};
  map.begin();
  Status s = drawDepthPass(depth);
  map.end();
  if (!s.ok()) return s;
  return &map;
}

Status CrowdRenderer::Impl::drawFrame(const FrameInput& given) {
  beginStats(static_cast<uint32_t>(given.frame.placements.size()));
  stats.shadow_draw_calls = 0;
  stats.cpu_ms.shadow = 0.0;
  Result<const ShadowMapPass*> map = shadowMap(given);
  if (!map.ok()) return map.status();
  FrameInput in = given;
  in.shading = FrameShading{*map ? &(*map)->binding() : nullptr, &user};
  lists.visible = 0;
  if (Status s = path->cull(in, lists, stats); !s.ok()) return failOnGlError(s);
  if (Status s = path->pack(in, lists, stats); !s.ok()) return failOnGlError(s);
  if (Status s = scenery->draw(*device, in.view, settings.ground, settings.shadows,
                               in.frame.placements, lists.visibleOrder(), in.shading, stats);
      !s.ok()) {
    return failOnGlError(s);
  }
  in.listed_blobs = scenery->listedBlobs();
  return failOnGlError(path->submit(in, lists, stats));
}

Status CrowdRenderer::draw(const FrameView& view, const CrowdFrame& frame) {
  if (!ok()) return impl_->status;
  if (Status s = checkFrame(frame); !s.ok()) return s;
  return impl_->drawFrame(FrameInput{view, frame, nullptr, impl_->settings, impl_->jobs});
}

Status CrowdRenderer::draw(const FrameView& view, const Crowd& crowd,
                           std::span<const glm::vec4> tints) {
  if (crowd.characterCount() > 1) {
    return Status(ErrorCode::kInvalidArgument,
                  "a mixed crowd: draw each character's agents with its own renderer "
                  "(MixedCrowdRenderer)");
  }
  if (!ok()) return impl_->status;
  const CrowdFrame frame{crowd.placements(),  crowd.playback(), tints,
                         crowd.states(),      crowd.variants(), {},
                         crowd.attachments(), crowd.layers()};
  if (Status s = checkFrame(frame); !s.ok()) return s;
  return impl_->drawFrame(FrameInput{view, frame, &crowd, impl_->settings, impl_->jobs});
}

Status CrowdRenderer::drawDepth(const FrameView& view, const CrowdFrame& frame) {
  if (!ok()) return impl_->status;
  if (Status s = checkFrame(frame); !s.ok()) return s;
  Impl& m = *impl_;
  return m.drawDepthPass(FrameInput{view, frame, nullptr, m.depthSettings(view), m.jobs,
                                    FrameShading{nullptr, &m.user}, DrawPass::kDepth});
}

Status CrowdRenderer::drawDepth(const FrameView& view, const Crowd& crowd) {
  if (crowd.characterCount() > 1) {
    return Status(ErrorCode::kInvalidArgument,
                  "a mixed crowd: draw each character's agents with its own renderer "
                  "(MixedCrowdRenderer)");
  }
  if (!ok()) return impl_->status;
  const CrowdFrame frame{crowd.placements(),  crowd.playback(), {},
                         crowd.states(),      crowd.variants(), {},
                         crowd.attachments(), crowd.layers()};
  if (Status s = checkFrame(frame); !s.ok()) return s;
  Impl& m = *impl_;
  return m.drawDepthPass(FrameInput{view, frame, &crowd, m.depthSettings(view), m.jobs,
                                    FrameShading{nullptr, &m.user}, DrawPass::kDepth});
}

Status CrowdRenderer::setShaderUniform(std::string_view name, std::span<const float> values) {
  if (!ok()) return impl_->status;
  return impl_->user.setFloats(name, values);
}
Status CrowdRenderer::setShaderUniform(std::string_view name, float value) {
  return setShaderUniform(name, std::span<const float>(&value, 1));
}
Status CrowdRenderer::setShaderUniform(std::string_view name, const glm::vec2& value) {
  return setShaderUniform(name, std::span<const float>(glm::value_ptr(value), 2));
}
Status CrowdRenderer::setShaderUniform(std::string_view name, const glm::vec3& value) {
  return setShaderUniform(name, std::span<const float>(glm::value_ptr(value), 3));
}
Status CrowdRenderer::setShaderUniform(std::string_view name, const glm::vec4& value) {
  return setShaderUniform(name, std::span<const float>(glm::value_ptr(value), 4));
}
Status CrowdRenderer::setShaderUniform(std::string_view name, const glm::mat4& value) {
  return setShaderUniform(name, std::span<const float>(glm::value_ptr(value), 16));
}
Status CrowdRenderer::setShaderUniformInts(std::string_view name, std::span<const int> values) {
  if (!ok()) return impl_->status;
  return impl_->user.setInts(name, values);
}
Status CrowdRenderer::setShaderTexture(std::string_view name, unsigned gl_texture) {
  if (!ok()) return impl_->status;
  return impl_->user.setTexture(name, gl_texture);
}

void CrowdRendererAccess::shareShadowMap(CrowdRenderer& renderer, const ShadowMapPass* map) {
  renderer.impl_->shared_shadow_map = map;
}

float CrowdRendererAccess::shadowDistance(const CrowdRenderer& renderer, const FrameView& view) {
  return renderer.impl_->shadowDistanceFor(view);
}

int CrowdRendererAccess::shadowMapSize(const CrowdRenderer& renderer) {
  return renderer.impl_->shadow_map_size;
}

Status readInstanceRecords(const CrowdRenderer& renderer, std::vector<InstanceRecord>& out) {
  if (!renderer.ok()) return renderer.status();
  return renderer.impl_->path->readInstanceRecords(out);
}

}  // namespace throng::render
