// The GPU-driven path: the mirror's update and read-back, and a frame's compute pass and draws.
#include "render/paths/gpu_driven_path.h"

#include <algorithm>

#include "render/passes/pass_support.h"
#include "render/paths/instanced_crowd_path.h"

namespace throng::render {

Result<std::unique_ptr<GpuDrivenPath>> GpuDrivenPath::create(Device& device, const Package& package,
                                                             const CrowdRendererDesc& desc,
                                                             const CrowdFacts& facts) {
  std::unique_ptr<GpuDrivenPath> path(new GpuDrivenPath(facts, device));
  Result<std::unique_ptr<InstancedRenderer>> renderer =
      InstancedRenderer::create(device, package, instancedOptions(desc));
  if (!renderer.ok()) return renderer.status();
  path->renderer_ = std::move(renderer).value();
  // Its colour program now, so that a user's file that does not compile fails creation.
  if (Status s = path->renderer_->prepareIndirect(); !s.ok()) return s;
  Result<std::unique_ptr<GpuCrowd>> gpu = GpuCrowd::create(device, package, *path->renderer_);
  if (!gpu.ok()) return gpu.status();
  path->gpu_ = std::move(gpu).value();
  for (int l = 0; l < kGpuLodColors; ++l) path->lod_colors_[l] = lodDebugColor(l);
  return path;
}

Status GpuDrivenPath::prepareImpostors(const Device& device, const Package& package,
                                       const CrowdRendererDesc& desc, int lod) {
  if (Status s = makeInstancedImpostors(device, package, desc, lod, impostors_, shader_); !s.ok())
    return s;
  return gpu_->addImpostorLod(package.impostor.max_error, *impostors_);
}

void GpuDrivenPath::update(Crowd& crowd, float seconds, JobSystem* /*jobs*/) {
  // The layers live in the Crowd (the GPU's agents hold none): they advance there, before the
  // mirror takes the queued commands (a kDie ends a layer).
  crowd.advanceLayers(seconds);
  if (Status s = gpu_->update(crowd, seconds, crowd.events()); !s.ok() && update_status_.ok())
    update_status_ = s;
}

Result<bool> GpuDrivenPath::readBack(Crowd& crowd, bool wait) {
  return gpu_->readBack(crowd, wait);
}

Status GpuDrivenPath::cull(const FrameInput& in, AgentLists& /*lists*/,
                           CrowdFrameStats& /*stats*/) {
  if (!in.crowd) return Status::okStatus();
  Status s = update_status_;
  update_status_ = Status::okStatus();
  return s;
}

Status GpuDrivenPath::pack(const FrameInput& /*in*/, AgentLists& /*lists*/,
                           CrowdFrameStats& /*stats*/) {
  return Status::okStatus();
}

GpuDrawOptions GpuDrivenPath::drawOptions(const FrameInput& in) const {
  const FrameSettings& settings = in.settings;
  GpuDrawOptions options;
  options.fixed_lod = settings.fixed_lod.value_or(-1);
  options.lod_view = lodViewOf(in.view, device_->height(), settings.lod_threshold_pixels);
  options.lod_view.reach = facts_->reach;
  options.fade_band = impostorFadeBand(*facts_, in, device_->height());
  if (options.fade_band.y > 0.0f) options.fade_lod = facts_->impostor_lod - 1;
  options.lod_colors = settings.lod_tint ? &lod_colors_ : nullptr;
  options.shading = in.shading;
  options.pass = in.pass;
  options.attachments = in.frame.attachments;
  options.variants = in.frame.variants;
  options.blobs = in.listed_blobs;
  return options;
}

Status GpuDrivenPath::submit(const FrameInput& in, const AgentLists& /*lists*/,
                             CrowdFrameStats& stats) {
  const PassClock::time_point start = PassClock::now();
  GpuDrawOptions options = drawOptions(in);
  const CrowdFrame& frame = in.frame;
  // The agents' layers, sampled on the CPU (their times live in the Crowd) and uploaded with the
  // props: O(agents) only while some agent has a layer.
  const size_t agents = frame.placements.size();
  bool any_layer = false;
  if (in.crowd) {
    any_layer = in.crowd->activeLayerCount() > 0;  // O(1): a Crowd counts its layers
  } else {
    for (const AgentLayer& layer : frame.layers) any_layer |= layer.active;
  }
  if (any_layer && renderer_->drawsLayers()) {
    growTo(layers_, agents);
    for (uint32_t a = 0; a < agents; ++a) layers_[a] = agentLayer(*facts_, frame, a);
    options.layers = std::span<const LayerSample>(layers_.data(), agents);
  }
  // CrowdRendererDesc::tint off: every agent shows its material.
  std::span<const glm::vec4> tints = in.settings.tint ? frame.tints : std::span<const glm::vec4>();
  Status s;
  if (in.crowd) {
    // The mirror's states live on the GPU: its pass tints by state.
    options.state_tints = in.settings.state_tints ? &*in.settings.state_tints : nullptr;
    options.attachments_version = in.crowd->attachmentsVersion();
    s = gpu_->draw(in.view, *in.crowd, tints, options);
  } else {
    // Span-given agents all stand idle on the GPU: their states' tints are folded in here.
    const size_t n = frame.placements.size();
    if (in.settings.state_tints && !frame.states.empty() && !in.settings.lod_tint) {
      growTo(tints_, n);
      for (uint32_t a = 0; a < n; ++a) tints_[a] = agentTint(in.settings, frame, a, 0);
      tints = std::span<const glm::vec4>(tints_.data(), n);
    }
    s = gpu_->draw(in.view, frame.placements, frame.playback, tints, options, frame.states,
                   frame.agent_ids);
  }
  stats.cpu_ms.submit = millisecondsSince(start);
  if (in.pass == DrawPass::kDepth) {
    stats.draw_calls = renderer_->stats().draw_calls;
    return s;
  }
  stats.agents = gpu_->agentCount();
  // The ground's draws and the blob shadows drawn from the lists.
  if (in.listed_blobs) stats.ground_draw_calls = in.listed_blobs->renderer->drawCalls();
  stats.draw_calls = renderer_->stats().draw_calls;
  stats.animation_texture_binds = renderer_->stats().animation_texture_binds;
  pollCounts(stats);
  return s;
}

Result<const AgentLists*> GpuDrivenPath::drawnLists(const AgentLists& /*cpu_lists*/) const {
  const uint64_t frame = gpu_->framesDrawn();
  if (frame == drawn_lists_frame_) return &drawn_lists_;
  const int lods = facts_->lodCount();
  drawn_lists_.reset(static_cast<size_t>(lods));
  drawn_lists_frame_ = frame;
  if (frame == 0) return &drawn_lists_;
  if (Status s = gpu_->captureLastFrame(capture_); !s.ok()) {
    drawn_lists_frame_ = ~uint64_t{0};
    return s;
  }
  // The capture lists LOD by LOD, within a LOD in the atomics' order, sorted here by agent. An
  // impostor's cross-fade lists an agent in the impostor's list too: it is kept in its mesh LOD
  // only (the LOD it was picked with), as the instanced path's lists have it.
  std::vector<uint32_t>& order = drawn_lists_.order;
  order.clear();
  size_t at = 0;
  for (int l = 0; l < lods; ++l) {
    const size_t first = order.size();
    const size_t from = at;
    while (at < capture_.lods.size() && capture_.lods[at] == l) ++at;
    order.insert(order.end(), capture_.agents.begin() + static_cast<std::ptrdiff_t>(from),
                 capture_.agents.begin() + static_cast<std::ptrdiff_t>(at));
    const auto begin = order.begin() + static_cast<std::ptrdiff_t>(first);
    std::sort(begin, order.end());
    if (l == facts_->impostor_lod && l > 0 && capture_.fade_listed > 0) {
      const auto mesh_begin = order.begin() + drawn_lists_.lod_first[l - 1];
      const auto mesh_end = mesh_begin + drawn_lists_.lod_counts[l - 1];
      order.erase(std::remove_if(begin, order.end(),
                                 [&](uint32_t agent) {
                                   return std::binary_search(mesh_begin, mesh_end, agent);
                                 }),
                  order.end());
    }
    drawn_lists_.lod_first[l] = static_cast<uint32_t>(first);
    drawn_lists_.lod_counts[l] = static_cast<uint32_t>(order.size() - first);
  }
  drawn_lists_.visible = static_cast<uint32_t>(order.size());
  return &drawn_lists_;
}

void GpuDrivenPath::pollCounts(CrowdFrameStats& stats) const {
  const GpuFrameCounts& counts = gpu_->counts();
  stats.counts_lag = static_cast<uint32_t>(gpu_->framesDrawn() - counts.frame);
  std::fill(stats.agents_per_lod.begin(), stats.agents_per_lod.end(), 0u);
  stats.visible = 0;
  stats.triangles = 0;
  if (counts.frame == 0) return;
  for (int l = 0; l < facts_->lodCount(); ++l) {
    stats.agents_per_lod[l] = counts.agents_per_lod[l];
    stats.triangles += uint64_t{counts.agents_per_lod[l]} * facts_->lod_info[l].triangles;
  }
  stats.visible = counts.visible;
}

}  // namespace throng::render
