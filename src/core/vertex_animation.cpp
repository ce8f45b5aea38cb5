// VertexTexture layout and texel access for baked morph animation.
#include "throng/core/vertex_animation.h"

#include <algorithm>
#include <cassert>

#include "throng/core/half.h"

namespace throng {

const char* morphBakeKindName(MorphBakeKind kind) {
  switch (kind) {
    case MorphBakeKind::kNone:
      return "none";
    case MorphBakeKind::kVertexFrames:
      return "vertex frames";
    case MorphBakeKind::kTargetDeltas:
      return "target deltas";
  }
  return "?";
}

VertexTexture allocateVertexTexture(TexelFormat format, uint32_t vertex_count, uint32_t block_count,
                                    uint32_t max_width) {
  assert(max_width >= 2);
  VertexTexture t;
  t.format = format;
  t.vertex_count = vertex_count;
  t.block_count = block_count;
  const uint64_t texels =
      static_cast<uint64_t>(vertex_count) * block_count * kVertexTexelsPerVertex;
  const uint64_t widest = max_width & ~1u;
  const uint64_t rows = std::max<uint64_t>(1, (texels + widest - 1) / widest);
  // The narrowest even width with that many rows: the last row is not mostly empty.
  uint64_t width = (texels + rows - 1) / rows;
  width = std::max<uint64_t>(2, (width + 1) & ~uint64_t{1});
  t.width = static_cast<uint32_t>(width);
  t.height = static_cast<uint32_t>(std::min<uint64_t>(rows, UINT32_MAX));
  if (rows > kMaxAnimationTextureSize) return t;  // the caller refuses it; no texels to hold
  const size_t channels = static_cast<size_t>(t.width) * t.height * 4;
  if (format == TexelFormat::kRgba32F) {
    t.texels32.assign(channels, 0.0f);
  } else {
    t.texels16.assign(channels, 0);
  }
  return t;
}

glm::vec3 loadVertexTexel(const VertexTexture& texture, uint32_t block, uint32_t vertex,
                          uint32_t k) {
  const size_t c = static_cast<size_t>(texture.texelIndex(block, vertex, k)) * 4;
  if (texture.format == TexelFormat::kRgba32F) {
    return glm::vec3(texture.texels32[c], texture.texels32[c + 1], texture.texels32[c + 2]);
  }
  return glm::vec3(halfToFloat(texture.texels16[c]), halfToFloat(texture.texels16[c + 1]),
                   halfToFloat(texture.texels16[c + 2]));
}

void storeVertexTexel(VertexTexture& texture, uint32_t block, uint32_t vertex, uint32_t k,
                      const glm::vec3& value) {
  const size_t c = static_cast<size_t>(texture.texelIndex(block, vertex, k)) * 4;
  for (int i = 0; i < 3; ++i) {
    if (texture.format == TexelFormat::kRgba32F) {
      texture.texels32[c + static_cast<size_t>(i)] = value[i];
    } else {
      texture.texels16[c + static_cast<size_t>(i)] = floatToHalf(value[i]);
    }
  }
}

}  // namespace throng
