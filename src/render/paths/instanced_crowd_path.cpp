// The instanced path's packing (records written as the agents are played back) and submit.
#include "render/paths/instanced_crowd_path.h"

#include "render/passes/pass_support.h"
#include "render/passes/playback_pass.h"

#include <algorithm>

namespace throng::render {

InstancedRendererOptions instancedOptions(const CrowdRendererDesc& desc) {
  InstancedRendererOptions options;
  options.cull_back_faces = !desc.double_sided;
  options.shared_texture = desc.animation_texture;
  options.shared_slot = desc.animation_texture_slot;
  options.palette_pass = desc.palette_pass;
  options.shader = desc.shader;
  options.impostor_fade = desc.impostors;
  return options;
}

Result<std::unique_ptr<InstancedCrowdPath>> InstancedCrowdPath::create(
    Device& device, const Package& package, const CrowdRendererDesc& desc,
    const CrowdFacts& facts) {
  Result<std::unique_ptr<InstancedRenderer>> renderer =
      InstancedRenderer::create(device, package, instancedOptions(desc));
  if (!renderer.ok()) return renderer.status();
  return std::unique_ptr<InstancedCrowdPath>(
      new InstancedCrowdPath(facts, device, std::move(renderer).value()));
}

Status InstancedCrowdPath::pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) {
  // One pass, no copy: each agent is played back and its record packed into the mapped buffer.
  const PassClock::time_point start = PassClock::now();
  Result<std::span<InstanceRecord>> mapped = renderer_->beginRecords(lists.visible);
  if (!mapped.ok()) return mapped.status();
  const std::span<InstanceRecord> records = *mapped;
  const uint32_t last_frame = renderer_->lastFrame();
  const std::span<const PlaybackClip> clips(facts().playback_clips);
  const CrowdFrame& frame = in.frame;
  bool any_layer = false;
  if (renderer_->drawsLayers()) {
    for (const AgentLayer& layer : frame.layers) any_layer |= layer.active;
  }
  forVisibleAgents(lists, frame.placements.size(), in.jobs, [&](uint32_t a, uint32_t i, int l) {
    withAgentFrames(
        clips, frame.playback[a],
        [&](const FrameSample& primary, const FrameSample& secondary, float fade) {
          encodeInstanceRecord(
              frame.placements[a], primary, secondary, fade, agentTint(in.settings, frame, a, l),
              frame.variants.empty() ? uint16_t{0} : frame.variants[a], agentId(frame, a),
              agentStateByte(frame, a), agentAttachments(frame, a),
              any_layer ? agentLayer(facts(), frame, a) : LayerSample{}, last_frame, records[i]);
        });
  });
  Status s = renderer_->endRecords();
  stats.cpu_ms.pack_upload = millisecondsSince(start);
  return s;
}

Status makeInstancedImpostors(const Device& device, const Package& package,
                              const CrowdRendererDesc& desc, int lod,
                              std::unique_ptr<ImpostorRenderer>& impostors,
                              std::shared_ptr<const ShaderSource>& shader) {
  shader = desc.shader;
  Result<std::unique_ptr<ImpostorRenderer>> made =
      ImpostorRenderer::create(device, package, lod, shader.get());
  if (!made.ok()) return made.status();
  impostors = std::move(made).value();
  return Status::okStatus();
}

Status InstancedCrowdPath::prepareImpostors(const Device& device, const Package& package,
                                            const CrowdRendererDesc& desc, int lod) {
  return makeInstancedImpostors(device, package, desc, lod, impostors_, shader_);
}

ImpostorFade InstancedCrowdPath::impostorFade(const FrameInput& in, const AgentLists& lists) const {
  ImpostorFade fade;
  const int impostor = facts().impostor_lod;
  if (!impostors_ || impostor < 1 || static_cast<size_t>(impostor) >= lists.lod_counts.size()) {
    return fade;
  }
  fade.band = impostorFadeBand(facts(), in, deviceHeight());
  if (fade.band.y <= 0.0f) return ImpostorFade{};
  fade.instances = lists.lod_counts[impostor - 1];
  fade.eye = in.view.eye;
  return fade;
}

Status InstancedCrowdPath::submit(const FrameInput& in, const AgentLists& lists,
                                  CrowdFrameStats& stats) {
  const PassClock::time_point start = PassClock::now();
  // The meshes' LODs, then the impostor's (the last LOD, its records the last packed).
  const size_t mesh_lods = std::min(lists.lod_counts.size(), size_t(renderer_->lodCount()));
  const std::span<const uint32_t> mesh_counts(lists.lod_counts.data(), mesh_lods);
  const ImpostorFade fade = impostorFade(in, lists);
  renderer_->setFade(static_cast<int>(mesh_lods) - 1, fade.eye, fade.band);
  Status s = renderer_->submit(in.view, mesh_counts, in.shading, in.pass);
  uint32_t impostor_count = 0;
  if (s.ok() && impostors_ && lists.lod_counts.size() > mesh_lods) {
    // With a fade, the last mesh LOD's records (just before the impostor's) are drawn too.
    impostor_count = lists.lod_counts[mesh_lods];
    s = impostors_->draw(in.view, renderer_->instanceBuffer(),
                         renderer_->recordByte(lists.lod_first[mesh_lods] - fade.instances),
                         impostor_count + fade.instances, in.shading, in.pass, fade);
  }
  stats.cpu_ms.submit = millisecondsSince(start);
  const RenderStats& drawn = renderer_->stats();
  stats.draw_calls = drawn.draw_calls + (impostor_count > 0 ? 1 : 0);
  stats.triangles = drawn.triangles + uint64_t{2} * impostor_count;
  stats.animation_texture_binds = drawn.animation_texture_binds;
  stats.palette_pass = drawn.palette_pass;
  return s;
}

Status InstancedCrowdPath::readInstanceRecords(std::vector<InstanceRecord>& out) const {
  out.resize(renderer_->uploadedCount());
  return renderer_->readRecords(out);
}

}  // namespace throng::render
