// LOD selection: the LOD rule applied per agent, remapped and counted.
#include "throng/crowd/lod_select.h"

#include <algorithm>
#include <cassert>

#include "throng/crowd/lod_pick.h"

namespace throng {

int agentLod(std::span<const MeshLod> lods, const LodView& view, const Placement& placement) {
  assert(!lods.empty());
  const float distance =
      modelDistance(glm::distance(view.eye, placement.position), placement.scale);
  if (view.fov_y > 0.0f && view.viewport_height > 0.0f && view.threshold_pixels > 0.0f) {
    // To the nearest point: measured to the origin, a camera within a few heights of an agent
    // would see its near side larger than the rule assumes.
    const float nearest = std::max(0.0f, distance - view.reach);
    return pickLodScreenSpace(lods, nearest, {view.fov_y, view.viewport_height},
                              view.threshold_pixels);
  }
  return pickLod(lods, distance);  // the stored distances: the rule at the reference camera
}

bool LodSelectJob::validate() const {
  if (lods.empty() || lods.size() > kMaxLodLevels || lod.size() != agents.size() ||
      counts.size() < lods.size() || (!drawn_lod.empty() && drawn_lod.size() != lods.size()) ||
      fixed_lod >= static_cast<int>(lods.size())) {
    return false;
  }
  for (uint8_t d : drawn_lod) {
    if (d >= lods.size()) return false;
  }
  for (uint32_t a : agents) {
    if (a >= placements.size()) return false;
  }
  return true;
}

bool LodSelectJob::run() const {
  if (!validate()) return false;
  for (size_t i = 0; i < agents.size(); ++i) {
    int l = fixed_lod >= 0 ? fixed_lod : agentLod(lods, view, placements[agents[i]]);
    if (!drawn_lod.empty()) l = drawn_lod[l];
    lod[i] = static_cast<uint8_t>(l);
    ++counts[l];
  }
  return true;
}

}  // namespace throng
