// Runtime LOD pick: the level of detail for a camera distance, from the package's max_distance.
#pragma once

#include <span>

#include "throng/core/package.h"

namespace throng {

// Index of the first LOD whose max_distance (model units) is >= `distance`, treating 0 as "no
// limit"; the last LOD when every limit is exceeded. Requires a non-empty span. Allocates nothing.
int pickLod(std::span<const MeshLod> lods, float distance);

// World-space distance -> the package's model units, for characters drawn at `scale`
// (Placement::scale): a character twice as big looks as near as one at half the distance.
inline float modelDistance(float world_distance, float scale) {
  return scale > 0.0f ? world_distance / scale : world_distance;
}

}  // namespace throng
