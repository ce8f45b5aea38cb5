// Morph textures: each LOD's vertex blocks and the frames' target weights in one float texture.
#include "render/morph_texture.h"

#include <algorithm>

#include <fmt/core.h>

#include "render/gl_check.h"
#include "throng/core/half.h"
#include "throng/render/animation_texture_upload.h"

namespace throng::render {

Result<std::vector<MorphLodTexture>> uploadMorphTextures(const Device& device,
                                                         const MorphAnimation& morph,
                                                         uint32_t frame_count,
                                                         std::string_view who) {
  std::vector<MorphLodTexture> out;
  if (morph.kind == MorphBakeKind::kNone) return out;
  const Caps& caps = device.caps();
  const uint32_t max_size = static_cast<uint32_t>(std::max(caps.max_texture_size, 0));
  const bool deltas = morph.kind == MorphBakeKind::kTargetDeltas;
  const uint32_t targets = static_cast<uint32_t>(morph.targets.size());
  const uint32_t weight_texels = deltas ? (targets + 3) / 4 : 0;
  for (size_t l = 0; l < morph.lods.size(); ++l) {
    const VertexTexture& vt = morph.lods[l];
    // The vertex blocks, then (deltas) every frame's weights, 4 a texel, in the rows after them:
    // one texture, one unit, per LOD.
    const uint32_t weight_rows =
        deltas ? static_cast<uint32_t>((frame_count * uint64_t{weight_texels} + vt.width - 1) /
                                       vt.width)
               : 0;
    const uint64_t height = uint64_t{vt.height} + weight_rows;
    if (vt.width > max_size || height > max_size) {
      deleteMorphTextures(out);
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("{}: LOD {}'s morph texture ({}) needs {}x{} texels, over the "
                                "device's GL_MAX_TEXTURE_SIZE {}",
                                who, l, morphBakeKindName(morph.kind), vt.width, height, max_size));
    }
    const TexelFormat format = deviceTexelFormat(caps, vt.format);
    const size_t values = static_cast<size_t>(vt.width) * static_cast<size_t>(height) * 4;
    const size_t vertex_values = static_cast<size_t>(vt.width) * vt.height * 4;
    std::vector<float> floats(values, 0.0f);
    for (size_t i = 0; i < vertex_values; ++i)
      floats[i] = vt.format == TexelFormat::kRgba32F ? vt.texels32[i] : halfToFloat(vt.texels16[i]);
    for (uint64_t f = 0; deltas && f < frame_count; ++f) {
      for (uint32_t t = 0; t < targets; ++t)
        floats[vertex_values + f * weight_texels * 4 + t] = morph.frame_weights[f * targets + t];
    }
    std::vector<uint16_t> halves;
    if (format == TexelFormat::kRgba16F) {
      halves.resize(values);
      for (size_t i = 0; i < values; ++i) halves[i] = floatToHalf(floats[i]);
    }
    Result<GLuint> uploaded = uploadAnimationTexels(
        device, format, vt.width, static_cast<uint32_t>(height),
        format == TexelFormat::kRgba32F ? static_cast<const void*>(floats.data())
                                        : static_cast<const void*>(halves.data()),
        fmt::format("{}: LOD {}'s morph texture", who, l));
    if (!uploaded.ok()) {
      deleteMorphTextures(out);
      return uploaded.status();
    }
    out.push_back(MorphLodTexture{*uploaded, static_cast<int>(vt.width), static_cast<int>(height),
                                  static_cast<int>(vt.vertex_count), static_cast<int>(vt.height),
                                  static_cast<int>(targets), static_cast<int>(weight_texels)});
  }
  return out;
}

void deleteMorphTextures(std::vector<MorphLodTexture>& textures) {
  for (const MorphLodTexture& t : textures) {
    const GLuint name = t.texture;
    glDeleteTextures(1, &name);
  }
  textures.clear();
}

}  // namespace throng::render
