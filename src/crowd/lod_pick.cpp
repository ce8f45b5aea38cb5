// Runtime LOD pick by camera distance.
#include "throng/crowd/lod_pick.h"

#include <cassert>

namespace throng {

int pickLod(std::span<const MeshLod> lods, float distance) {
  assert(!lods.empty());
  for (size_t i = 0; i < lods.size(); ++i) {
    const float limit = lods[i].max_distance;
    if (limit == 0.0f || distance <= limit) return static_cast<int>(i);
  }
  return static_cast<int>(lods.size()) - 1;
}

}  // namespace throng
