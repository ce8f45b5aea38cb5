// Runtime LOD pick by camera distance: by stored distance limits or by projected error.
#include "throng/crowd/lod_pick.h"

#include <cassert>
#include <limits>

namespace throng {

int pickLod(std::span<const MeshLod> lods, float distance) {
  assert(!lods.empty());
  for (size_t i = 0; i < lods.size(); ++i) {
    const float limit = lods[i].max_distance;
    if (limit == 0.0f || distance <= limit) return static_cast<int>(i);
  }
  return static_cast<int>(lods.size()) - 1;
}

int pickLodScreenSpace(std::span<const MeshLod> lods, float distance,
                       const LodProjection& projection, float threshold_px) {
  assert(!lods.empty() && threshold_px > 0.0f);
  // error * pixelsPerUnit(distance) <= threshold, without a division per LOD.
  const float budget = threshold_px / pixelsPerUnit(distance, projection);
  for (size_t i = lods.size(); i-- > 1;) {
    if (lods[i].max_error <= budget) return static_cast<int>(i);
  }
  return 0;
}

float lodPickDistance(std::span<const MeshLod> lods, int lod, const LodProjection& projection,
                      float threshold_px) {
  assert(lod >= 0 && static_cast<size_t>(lod) < lods.size());
  if (lod == 0) return 0.0f;
  const float error = lods[lod].max_error;
  for (size_t j = static_cast<size_t>(lod) + 1; j < lods.size(); ++j) {
    if (lods[j].max_error <= error) return std::numeric_limits<float>::infinity();
  }
  return errorDistance(error, projection, threshold_px);
}

}  // namespace throng
