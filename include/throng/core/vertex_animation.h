// Baked morph animation of a package: per-frame morphed vertices (VAT) or per-frame weights with
// target deltas, laid out as RGBA texels per LOD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/math.h"

namespace throng {

// How a package carries its morph targets (docs/morph.md).
enum class MorphBakeKind : uint8_t {
  kNone = 0,          // no morph targets: the mesh is skinned as it is
  kVertexFrames = 1,  // VAT: every frame's morphed positions and normals replace the mesh's
  kTargetDeltas = 2,  // every frame's weights of the active targets, plus those targets' deltas
};
const char* morphBakeKindName(MorphBakeKind kind);  // "none", "vertex frames", "target deltas"

// Texels per vertex in a block: position (or its delta), then normal (or its delta), xyz, w = 0.
inline constexpr uint32_t kVertexTexelsPerVertex = 2;

// One LOD's morph texels: block_count blocks of vertex_count vertices (a block is a texture frame
// for kVertexFrames, an active target for kTargetDeltas), kVertexTexelsPerVertex texels per
// vertex. Texel i = (block * vertex_count + vertex) * 2 + k (k = 0 position, 1 normal) lies at
// x = i % width, y = i / width: the texels are one run, row after row, so texels32/texels16 hold
// texel i at channel 4 * i. The width is even, so a vertex's two texels share a row. Values are
// in the mesh's bind (model) space, before skinning.
struct VertexTexture {
  TexelFormat format = TexelFormat::kRgba32F;
  uint32_t width = 0;   // texels, even
  uint32_t height = 0;  // texels: ceil(block_count * vertex_count * 2 / width)
  uint32_t vertex_count = 0;
  uint32_t block_count = 0;
  std::vector<float> texels32;     // width * height * 4 floats when format == kRgba32F
  std::vector<uint16_t> texels16;  // width * height * 4 halves when format == kRgba16F

  // Index of texel k of (block, vertex); requires block < block_count, vertex < vertex_count.
  uint64_t texelIndex(uint32_t block, uint32_t vertex, uint32_t k) const {
    return (static_cast<uint64_t>(block) * vertex_count + vertex) * kVertexTexelsPerVertex + k;
  }
  uint64_t byteSize() const {
    return static_cast<uint64_t>(width) * height * 4 * (format == TexelFormat::kRgba32F ? 4 : 2);
  }
};

// A zeroed texture for `block_count` blocks of `vertex_count` vertices, at most `max_width`
// texels wide (the narrowest even width that holds the texels in as few rows; at least 2). The
// height is not limited here: callers compare it with kMaxAnimationTextureSize (above it, the
// texels are left empty). Requires max_width >= 2.
VertexTexture allocateVertexTexture(TexelFormat format, uint32_t vertex_count, uint32_t block_count,
                                    uint32_t max_width);
// Texel k of (block, vertex) as xyz (halves widened exactly), and its store (rounded to the
// nearest half for kRgba16F, w = 0). Same requirements as texelIndex.
glm::vec3 loadVertexTexel(const VertexTexture& texture, uint32_t block, uint32_t vertex,
                          uint32_t k);
void storeVertexTexel(VertexTexture& texture, uint32_t block, uint32_t vertex, uint32_t k,
                      const glm::vec3& value);

// A package's morph animation: empty with kNone.
struct MorphAnimation {
  MorphBakeKind kind = MorphBakeKind::kNone;
  // kTargetDeltas: the active targets (those with a non-zero weight in some baked frame), in
  // block order; their names as the mesh had them. Empty otherwise.
  std::vector<std::string> targets;
  // kTargetDeltas: frame-major weights, AnimationTexture::frame_count x targets.size(); frame f of
  // the animation texture weighs target t by frame_weights[f * targets.size() + t]. Empty
  // otherwise.
  std::vector<float> frame_weights;
  // One per Package::lods entry, in order (its vertices only); empty with kNone.
  std::vector<VertexTexture> lods;
  // Model units: the largest distance the texel format moves a morphed vertex (0 for RGBA32F).
  float max_error = 0.0f;
};

}  // namespace throng
