// LOD selection: the LOD rule applied per agent, remapped and counted.
#include "throng/crowd/lod_select.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

#include "throng/crowd/lod_pick.h"

namespace throng {

LodRule::LodRule(std::span<const MeshLod> lods, const LodView& view)
    : eye_(view.eye), count_(static_cast<int>(lods.size())) {
  assert(!lods.empty() && lods.size() <= kMaxLodLevels);
  screen_space_ = view.fov_y > 0.0f && view.viewport_height > 0.0f && view.threshold_pixels > 0.0f;
  constexpr float kInfinity = std::numeric_limits<float>::infinity();
  if (!screen_space_) {
    // pickLod: the first LOD whose limit is 0 (none) or at least the distance.
    for (int i = 0; i < count_; ++i) {
      const float limit = lods[i].max_distance;
      limit_sq_[i] = limit == 0.0f ? kInfinity : limit > 0.0f ? limit * limit : -1.0f;
    }
    return;
  }
  // pickLodScreenSpace at the nearest point x = max(0, distance - reach) takes the last LOD whose
  // error is within budget there. The last LOD at or past i within budget exists from the
  // smallest of their errors on, so LOD i is picked from x = errorDistance of that error.
  const LodProjection projection{view.fov_y, view.viewport_height};
  float smallest = kInfinity;
  for (int i = count_ - 1; i > 0; --i) {
    const float error = lods[i].max_error;
    if (error < smallest) smallest = error;  // NaN never is
    if (!(smallest > 0.0f)) {
      limit_sq_[i] = 0.0f;  // within budget at any distance (an error of 0)
      continue;
    }
    const float limit = errorDistance(smallest, projection, view.threshold_pixels) + view.reach;
    limit_sq_[i] = limit * limit;
  }
}

float lodReach(std::span<const MeshLod> lods) {
  float reach = 0.0f;
  if (lods.empty()) return reach;
  for (const glm::vec3& p : lods[0].mesh.positions) reach = std::max(reach, glm::length(p));
  return reach;
}

int agentLod(std::span<const MeshLod> lods, const LodView& view, const Placement& placement) {
  return LodRule(lods, view).pick(placement);
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
  const LodRule rule(lods, view);
  for (size_t i = 0; i < agents.size(); ++i) {
    int l = fixed_lod >= 0 ? fixed_lod : rule.pick(placements[agents[i]]);
    if (!drawn_lod.empty()) l = drawn_lod[l];
    lod[i] = static_cast<uint8_t>(l);
    ++counts[l];
  }
  return true;
}

}  // namespace throng
