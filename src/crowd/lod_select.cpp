// LOD selection: the LOD rule applied per agent, remapped and counted.
#include "throng/crowd/lod_select.h"

#include <cassert>

#include "throng/crowd/lod_pick.h"

namespace throng {

int agentLod(std::span<const MeshLod> lods, const LodView& view, const Placement& placement) {
  assert(!lods.empty());
  return pickLod(lods, modelDistance(glm::distance(view.eye, placement.position), placement.scale));
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
