// The CPU twin of the morph fetch (package section VATX): what the GPU's vertex shader must
// reproduce before it skins.
#pragma once

#include <cstdint>
#include <span>

#include "throng/core/package.h"
#include "throng/crowd/playback.h"

namespace throng {

// LOD `lod`'s bind-space (pre-skinning) vertices for `frames`, blended as the palette is
// (FramePaletteJob: frame pair by `blend`, then the cross-fade by `fade`, GLSL mix arithmetic
// x * (1 - t) + y * t), by the package's morph kind:
//   kVertexFrames: P(f) = the VAT's texel 0 of (frame f, vertex), N(f) its texel 1;
//     p = mix(mix(P(pa), P(pb), blend), mix(P(sa), P(sb), blend2), fade), n likewise;
//   kTargetDeltas: w_t = mix(mix(W(pa,t), W(pb,t), blend), mix(W(sa,t), W(sb,t), blend2), fade)
//     with W(f,t) = frame_weights[f * targets + t]; p = p0 + sum_t w_t * D0(t), n = n0 +
//     sum_t w_t * D1(t), D k the texel k of (target t, vertex), summed in target order;
//   kNone: the mesh's own positions and normals.
// Only the primary pair is read when fade <= 0, as in FramePaletteJob. Normals are not
// normalised: SkinJob (and the shaders) normalise after skinning. Sizes: out_positions and
// out_normals hold the LOD's vertices; lod < package->lods.size(); frame indices below the
// animation texture's frame_count.
struct FrameMorphJob {
  const Package* package = nullptr;
  uint32_t lod = 0;
  InstanceFrames frames;
  std::span<glm::vec3> out_positions;
  std::span<glm::vec3> out_normals;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
