// What every path shares: no instance records by default; the CPU-fed paths' update and cull.
#include "render/paths/crowd_path.h"

#include <algorithm>

#include <fmt/core.h>

namespace throng::render {

Status CrowdPath::readInstanceRecords(std::vector<InstanceRecord>& /*out*/) const {
  return Status(ErrorCode::kUnsupported,
                fmt::format("crowd renderer: the {} path keeps no instance records on the CPU's "
                            "side",
                            renderPathName(kind())));
}

void CpuFedPath::update(Crowd& crowd, float seconds, JobSystem* jobs) {
  crowd.update(seconds, jobs);
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

}  // namespace throng::render
