// An impostor's picture composed on the CPU from its colour atlas as the run time blends it
// (impostorBlend, include/throng/core/impostor.h): the reference the error measure compares with
// the mesh (impostor_error.h) and the drawing paths can be checked against (docs/lods.md).
#pragma once

#include <cstdint>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/impostor.h"

namespace throng::impostor {

// Blended alpha at or above this covers a pixel (the run time's alpha test).
inline constexpr float kImpostorCoverageAlpha = 0.5f;

// One tile's worth of the blended picture, tile_width x tile_height, rows top first (as the
// atlas's rows).
struct ComposedTile {
  uint32_t width = 0;
  uint32_t height = 0;
  // Per texel: linear RGB premultiplied by alpha, and alpha: the sum over the blend's eight tiles
  // (four views x two frames) of weight x texel, the colour decoded from sRGB first (as an sRGB
  // texture's filtering does).
  std::vector<glm::vec4> premultiplied;
  // Per texel: 1 where alpha >= kImpostorCoverageAlpha, else 0.
  std::vector<uint8_t> coverage() const;
};

// The eight tiles of `blend` (views x frames, weights view_weights[v] x (1 - frame_weight) for
// frames[0] and x frame_weight for frames[1]) summed texel by texel at the same tile coordinates.
// `impostor` must hold its colour atlas and `blend` name its rows and columns (impostorBlend's).
ComposedTile composeImpostorTile(const Impostor& impostor, const ImpostorBlend& blend);

}  // namespace throng::impostor
