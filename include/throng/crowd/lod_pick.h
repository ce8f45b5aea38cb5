// Runtime LOD pick: the level of detail for a camera distance, by the package's max_distance or
// by how large each LOD's error looks on screen.
#pragma once

#include <span>

#include "throng/core/lod_projection.h"
#include "throng/core/package.h"

namespace throng {

// Index of the first LOD whose max_distance (model units) is >= `distance`, treating 0 as "no
// limit"; the last LOD when every limit is exceeded. Requires a non-empty span. Allocates nothing.
// The chain builder sets max_distance to the screen-space switch distances at the reference
// camera (LodProjection{}, kDefaultLodThresholdPx) plus the bind mesh's radius about the origin,
// so this is pickLodScreenSpace for that camera with `distance` measured to the agent's origin.
int pickLod(std::span<const MeshLod> lods, float distance);

// The screen-space rule: the coarsest LOD whose MeshLod::max_error (model units), seen at
// `distance` through `projection`, covers at most `threshold_px` pixels; LOD 0 when none does.
// `distance` (model units) is from the camera to the agent's nearest point: its distance to the
// agent's origin minus the agent's bounding radius (its culling sphere's), at least 0. (The
// distance to the origin alone would under-rate the error whenever the camera is within a few
// heights of the agent, where its near side is much closer than its origin.) Requires a
// non-empty span and threshold_px > 0. Allocates nothing.
int pickLodScreenSpace(std::span<const MeshLod> lods, float distance,
                       const LodProjection& projection = {},
                       float threshold_px = kDefaultLodThresholdPx);

// The smallest distance (model units, camera to the agent's nearest point, as above) at which
// pickLodScreenSpace picks LOD `lod`: 0 for LOD 0, errorDistance(max_error) for a LOD picked
// somewhere, infinity for a LOD never picked (a coarser one has no larger error). Requires
// 0 <= lod < lods.size() and threshold_px > 0.
float lodPickDistance(std::span<const MeshLod> lods, int lod, const LodProjection& projection = {},
                      float threshold_px = kDefaultLodThresholdPx);

// World-space distance -> the package's model units, for characters drawn at `scale`
// (Placement::scale): a character twice as big looks as near as one at half the distance.
inline float modelDistance(float world_distance, float scale) {
  return scale > 0.0f ? world_distance / scale : world_distance;
}

}  // namespace throng
