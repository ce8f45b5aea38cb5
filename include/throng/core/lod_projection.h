// How large a LOD's error looks on screen: the projection shared by the offline chain builder
// (switch distances) and the runtime screen-space LOD pick (crowd/lod_pick.h).
#pragma once

namespace throng {

// Screen-space error (pixels) a LOD may show before a finer one is picked, unless told otherwise:
// below a pixel the error is invisible.
inline constexpr float kDefaultLodThresholdPx = 1.0f;

// The camera a LOD pick assumes: a perspective projection's vertical field of view and the
// viewport's height. The defaults (60 degrees, 1080 px) are the reference camera at which the
// chain builder derives MeshLod::max_distance and `throng inspect` reports switch distances.
struct LodProjection {
  float fov_y = 1.04719755f;           // radians, in (0, pi)
  float viewport_height_px = 1080.0f;  // pixels, > 0
};

// Pixels per model unit at `distance` model units in front of the camera (at the view centre,
// facing it): viewport_height / (2 * distance * tan(fov_y / 2)). Infinite at distance <= 0.
float pixelsPerUnit(float distance, const LodProjection& projection);

// The smallest distance (model units) at which a length of `error` model units covers at most
// `threshold_px` pixels: error * viewport_height / (2 * tan(fov_y / 2) * threshold_px). 0 for an
// error of 0. Requires threshold_px > 0.
float errorDistance(float error, const LodProjection& projection, float threshold_px);

}  // namespace throng
