// What every path shares: no instance records by default; the CPU-fed paths' update and cull.
#include "render/paths/crowd_path.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "render/impostor_renderer.h"
#include "throng/crowd/lod_select.h"

namespace throng::render {

Status CrowdPath::readInstanceRecords(std::vector<InstanceRecord>& /*out*/) const {
  return Status(ErrorCode::kUnsupported,
                fmt::format("crowd renderer: the {} path keeps no instance records on the CPU's "
                            "side",
                            renderPathName(kind())));
}

void CrowdPath::keepEvents(const Crowd& crowd) {
  if (!gather_events_) return;
  UpdateEvents events;
  events.update = ++updates_;
  events.events.assign(crowd.events().begin(), crowd.events().end());
  held_events_.push_back(std::move(events));
}

Status CrowdPath::takeEvents(std::vector<UpdateEvents>& out, bool /*wait*/) {
  for (UpdateEvents& events : held_events_) out.push_back(std::move(events));
  held_events_.clear();
  return Status::okStatus();
}

void CpuFedPath::update(Crowd& crowd, float seconds, JobSystem* jobs) {
  crowd.update(seconds, jobs);
  keepEvents(crowd);
}

Result<bool> CpuFedPath::readBack(Crowd& /*crowd*/, bool /*wait*/) {
  return true;  // the crowd advanced on the CPU: it is current
}

Status CpuFedPath::cull(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) {
  const CrowdFacts& f = facts();
  CullLodInput cull;
  cull.clip_spheres = f.clip_spheres;
  cull.lods = f.lods;
  cull.drawn_lod = f.drawn_lod;
  cull.reach = f.reach;
  cull.fixed_lod = in.settings.fixed_lod.value_or(-1);
  cull.lod_threshold_pixels = in.settings.lod_threshold_pixels;
  cull.frame_height = device_->height();
  if (Status s = cullAndPickLods(cull, in.view, in.frame.placements, in.frame.playback, in.jobs,
                                 lists, stats.cpu_ms);
      !s.ok()) {
    return s;
  }
  stats.visible = lists.visible;
  std::copy(lists.lod_counts.begin(), lists.lod_counts.end(), stats.agents_per_lod.begin());
  return Status::okStatus();
}

glm::vec2 impostorFadeBand(const CrowdFacts& facts, const FrameInput& in, int frame_height) {
  const int impostor = facts.impostor_lod;
  if (impostor < 1 || in.pass != DrawPass::kColor || in.settings.fixed_lod) return glm::vec2(0.0f);
  LodView lod_view = lodViewOf(in.view, frame_height, in.settings.lod_threshold_pixels);
  lod_view.reach = facts.reach;
  const LodRule rule(facts.lods, lod_view);
  if (!rule.screenSpace()) return glm::vec2(0.0f);
  const float end = std::sqrt(rule.pickDistanceSq(impostor));
  const float previous = std::sqrt(rule.pickDistanceSq(impostor - 1));
  if (!(end > 0.0f) || !std::isfinite(end)) return glm::vec2(0.0f);
  // The band ends at the switch and never reaches back before the last mesh LOD's own switch.
  const float start = std::max(end * (1.0f - kImpostorFadeBand), previous);
  if (!(end > start)) return glm::vec2(0.0f);
  return glm::vec2(start, 1.0f / (end - start));
}

}  // namespace throng::render
