// An impostor's error as drawn: its blended picture (impostor_compose.h) against the mesh drawn
// from views and at times between the baked ones (docs/lods.md, "Impostors", "Error").
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/status.h"

namespace throng::impostor {

// Samples (a direction and a clip time each) measured at most by default: about a quarter of the
// tiles the default bake draws, so the measure adds well under a second to it here; every
// direction and every time between the baked ones is still sampled (measureImpostorError).
inline constexpr uint32_t kDefaultImpostorErrorSamples = 512;
// The highest camera elevation measured, degrees: from above it the tile's "up" (+Y of the model
// projected) turns about the view as the azimuth does, and crowd cameras do not look straight down
// at characters they draw as impostors.
inline constexpr float kMaxMeasuredElevationDeg = 80.0f;

struct ImpostorErrorOptions {
  uint32_t max_samples = kDefaultImpostorErrorSamples;  // >= 1
};

// Model units; the stored Impostor::max_error is texel + silhouette.
struct ImpostorError {
  float texel = 0.0f;           // the texel footprint: size.y / tile_height
  float silhouette = 0.0f;      // the largest silhouette distance over the samples
  float silhouette_p90 = 0.0f;  // their 90th percentile (shown next to the largest)
  uint32_t samples = 0;
  // The worst sample: the direction towards the camera (model space) and the clip time.
  glm::vec3 worst_direction{0.0f};
  uint32_t worst_clip = 0;
  float worst_time = 0.0f;
  float total() const { return texel + silhouette; }
};

// The symmetric (Hausdorff) distance between two coverage masks of width x height texels (1:
// covered), texels `texel` apart (x, y; model units): the farthest a covered texel of either is
// from the nearest covered texel of the other. 0 when both are empty; when one is empty, the
// other's extent (the diagonal of its covered texels' bounding box: the whole shape is wrong).
float silhouetteDistance(std::span<const uint8_t> a, std::span<const uint8_t> b, uint32_t width,
                         uint32_t height, glm::vec2 texel);

// The directions the measure samples: every azimuth half way between two baked ones, at every
// elevation half way between two bands, the horizon and half a band above the last (at most
// kMaxMeasuredElevationDeg). Unit vectors from the model towards the camera.
std::vector<glm::vec3> impostorErrorDirections(const Impostor& impostor);
// The clip times it samples: every time half way between two baked frames (one per clip frame of
// a looping clip, one fewer of a one-shot clip, the middle of a clip of one frame).
struct ClipTime {
  uint32_t clip = 0;
  float time = 0.0f;
};
std::vector<ClipTime> impostorErrorTimes(const Package& package, const Impostor& impostor);

// Draws LOD 0 of `package` from impostorErrorDirections at impostorErrorTimes (tiles framed as
// the bake's: same centre, size and texels; headless, through CrowdRenderer like the bake), and
// composes the impostor's picture of the same direction and time by impostorBlend; each sample's
// error is silhouetteDistance of the two coverages (alpha >= kImpostorCoverageAlpha). When there
// are more directions x times than options.max_samples, direction d is sampled at times t with
// (d + t) % m == 0, m the smallest that fits: every direction and every time still sampled.
// `impostor` must be `package`'s, baked (atlases present). kGlError when nothing can be drawn;
// kInvalidArgument for max_samples 0.
Result<ImpostorError> measureImpostorError(const Package& package, const Impostor& impostor,
                                           const ImpostorErrorOptions& options = {});

}  // namespace throng::impostor
