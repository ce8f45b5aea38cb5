// CrowdRenderer: the front end. It checks its input, keeps the package's facts and the frame's
// settings, and runs a frame's passes in order on the path chosen for the device.
#include "throng/render/crowd_renderer.h"

#include <algorithm>

#include <fmt/core.h>

#include "render/crowd_facts.h"
#include "render/frame_settings.h"
#include "render/passes/cull_lod_pass.h"
#include "render/passes/pass_support.h"
#include "render/passes/scenery_pass.h"
#include "render/paths/crowd_path.h"
#include "render/paths/path_choice.h"
#include "render/test_hooks.h"

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
      (frame.variants.empty() || frame.variants.size() == n)) {
    return Status::okStatus();
  }
  return Status(ErrorCode::kInvalidArgument,
                fmt::format("crowd renderer: {} placements, {} playback states, {} tints, {} "
                            "agent states and {} variants (each must be one per agent; tints, "
                            "states and variants may be none)",
                            n, frame.playback.size(), frame.tints.size(), frame.states.size(),
                            frame.variants.size()));
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
  }

  void beginStats(uint32_t agents);
  // The frame's passes, in order, for every path; a GL failure fails the renderer.
  Status drawFrame(const FrameInput& in);
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
  AgentLists lists;  // the last frame's visible agents by LOD (empty on the gpu path)
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
  m.scenery = std::make_unique<SceneryPass>(m.facts.character_height, m.facts.character_footprint);
  setLodTint(m.settings.lod_tint);
  m.stats.agents_per_lod.assign(m.facts.lods.size(), 0);
  m.lists.reset(m.facts.lods.size());
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
  return impl_->lists.visibleOrder();
}

AgentDrawInfo CrowdRenderer::agentDrawInfo(uint32_t agent) const {
  AgentDrawInfo info;
  if (!ok()) return info;
  const AgentLists& lists = impl_->lists;
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
  stats.cpu_ms = {};
  stats.cpu_ms.update = pending_update_ms;
  pending_update_ms = 0.0;
}

Status CrowdRenderer::Impl::drawFrame(const FrameInput& in) {
  beginStats(static_cast<uint32_t>(in.frame.placements.size()));
  lists.visible = 0;
  if (Status s = path->cull(in, lists, stats); !s.ok()) return failOnGlError(s);
  if (Status s = path->pack(in, lists, stats); !s.ok()) return failOnGlError(s);
  if (Status s = scenery->draw(*device, in.view, settings.ground, in.frame.placements,
                               lists.visibleOrder(), stats);
      !s.ok()) {
    return failOnGlError(s);
  }
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
  const CrowdFrame frame{crowd.placements(), crowd.playback(), tints, crowd.states(),
                         crowd.variants()};
  if (Status s = checkFrame(frame); !s.ok()) return s;
  return impl_->drawFrame(FrameInput{view, frame, &crowd, impl_->settings, impl_->jobs});
}

Status readInstanceRecords(const CrowdRenderer& renderer, std::vector<InstanceRecord>& out) {
  if (!renderer.ok()) return renderer.status();
  return renderer.impl_->path->readInstanceRecords(out);
}

}  // namespace throng::render
