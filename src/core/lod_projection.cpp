// The perspective projection of a LOD error: pixels per model unit and the distance that makes
// an error sub-pixel.
#include "throng/core/lod_projection.h"

#include <cassert>
#include <cmath>
#include <limits>

namespace throng {

float pixelsPerUnit(float distance, const LodProjection& projection) {
  if (!(distance > 0.0f)) return std::numeric_limits<float>::infinity();
  return projection.viewport_height_px / (2.0f * distance * std::tan(0.5f * projection.fov_y));
}

float errorDistance(float error, const LodProjection& projection, float threshold_px) {
  assert(threshold_px > 0.0f);
  return error * projection.viewport_height_px /
         (2.0f * std::tan(0.5f * projection.fov_y) * threshold_px);
}

}  // namespace throng
