// A small character built in code whose looks are known exactly: four quads, one per material
// feature (factor, texture, alpha-mask cut-out, vertex colours), for import, package and
// rendering tests.
#pragma once

#include "throng/core/character.h"

namespace throng::test {

// One joint ("root", identity rest and bind) and one clip ("idle", 1 s, LINEAR identity
// rotations: the quads stay still). Four unit quads in the plane z = 0, facing +z (normals +z,
// counter-clockwise seen from +z), quad q covering x in [2q, 2q + 1], y in [0, 1]; uv (0, 0) at a
// quad's top-left corner (x = 2q, y = 1) and (1, 1) at its bottom-right, so v grows downwards as
// in the image. Sub-mesh q draws quad q with material q:
//   0 "red":      base colour (1, 0, 0, 1), no texture, opaque;
//   1 "checker":  white factor x image 0, a 4x4 checker of kCheckerColors (texel (x, y) has
//                 colour (x + y) % 2, so the top-left texel is colour 0), nearest / nearest,
//                 clamp, opaque;
//   2 "cutout":   white factor x image 1, 2x2: left column transparent (alpha 0), right column
//                 opaque green (0, 255, 0, 255); MASK with cutoff 0.5, double-sided, nearest,
//                 clamp: the quad's left half is cut away;
//   3 "painted":  base colour (1, 1, 1, 1) x vertex colours kVertexColor (every vertex), opaque.
// Vertex colours exist for all vertices (white on quads 0-2). Variants: "plain" (every quad as
// above) and "all red" (every quad uses material 0).
Character makeMaterialCharacter();

// The checker's two colours as RGBA8 (sRGB-encoded): orange and blue.
inline constexpr uint8_t kCheckerColors[2][4] = {{255, 128, 0, 255}, {0, 64, 255, 255}};
// Quad 3's vertex colour (linear RGBA).
inline constexpr float kVertexColor[4] = {0.0f, 0.5f, 1.0f, 1.0f};

}  // namespace throng::test
