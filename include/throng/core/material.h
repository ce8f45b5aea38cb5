// Material: what a sub-mesh looks like (glTF's base colour subset: factor, texture, vertex
// colours, alpha mode, sidedness) and the texture sampling it needs.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

// Texture filters and wraps carry the GL enum values (glTF samplers use the same numbers), so a
// renderer passes them to glTexParameteri as they are.
enum class TextureFilter : uint16_t {
  kNearest = 0x2600,
  kLinear = 0x2601,
  kNearestMipmapNearest = 0x2700,
  kLinearMipmapNearest = 0x2701,
  kNearestMipmapLinear = 0x2702,
  kLinearMipmapLinear = 0x2703,
};
enum class TextureWrap : uint16_t {
  kRepeat = 0x2901,
  kClampToEdge = 0x812F,
  kMirroredRepeat = 0x8370,
};

// glTF leaves filters to the implementation when a sampler omits them: linear magnification and
// trilinear minification. Wraps default to repeat, as glTF says.
struct TextureSampler {
  TextureFilter mag_filter = TextureFilter::kLinear;  // kNearest or kLinear only
  TextureFilter min_filter = TextureFilter::kLinearMipmapLinear;
  TextureWrap wrap_s = TextureWrap::kRepeat;
  TextureWrap wrap_t = TextureWrap::kRepeat;
};

bool isValidMagFilter(TextureFilter filter);
bool isValidMinFilter(TextureFilter filter);
bool isValidWrap(TextureWrap wrap);
// True for the four *_MIPMAP_* minification filters.
bool usesMipmaps(TextureFilter min_filter);
// OpenGL ES 2.0 samples a non-power-of-two texture only with CLAMP_TO_EDGE wraps and a filter
// without mipmaps; true when `sampler` asks for more (the image then needs a power-of-two copy).
bool needsPowerOfTwo(const TextureSampler& sampler);

// KHR_texture_transform: uv' = translate(offset) * rotate(rotation) * scale(scale) * uv, with the
// rotation in radians, counter-clockwise in UV space (glTF's matrix; v points down the image).
struct TextureTransform {
  glm::vec2 offset{0.0f};
  float rotation = 0.0f;
  glm::vec2 scale{1.0f};

  bool isIdentity() const;
  // The 3x3 matrix (column-major; uv' = (m * vec3(uv, 1)).xy).
  glm::mat3 matrix() const;
  glm::vec2 apply(glm::vec2 uv) const;
};

// A material's use of an image (glTF textureInfo with its texture's sampler).
struct TextureRef {
  int image = -1;  // index into the character's / package's images; -1: no texture
  int uv_set = 0;  // 0 reads SkinnedMesh::uvs, 1 reads SkinnedMesh::uvs1
  TextureSampler sampler;
  TextureTransform transform;  // applied to the uv set before sampling

  bool present() const { return image >= 0; }
};

enum class AlphaMode : uint8_t {
  kOpaque = 0,  // alpha ignored (treated as 1)
  kMask = 1,    // fragments with alpha < alpha_cutoff are discarded, the rest are opaque
  kBlend = 2,   // alpha blended over what is behind; drawn after the opaque pass
};
const char* alphaModeName(AlphaMode mode);  // "OPAQUE", "MASK", "BLEND"

// The colour of a fragment is base_color * texture(uv) * vertex colour (each factor present or
// 1), in linear space (the texture is sRGB-encoded RGBA8 and is decoded before multiplying);
// its alpha is the product's alpha, used as alpha_mode says.
struct Material {
  std::string name;
  glm::vec4 base_color{1.0f};  // linear RGBA, each in [0, 1]
  TextureRef base_color_texture;
  AlphaMode alpha_mode = AlphaMode::kOpaque;
  float alpha_cutoff = 0.5f;  // kMask only; >= 0
  bool double_sided = false;  // false: back faces are culled
};

// The material a sub-mesh uses when the material list is empty (glTF's default material: white,
// opaque, single-sided).
inline Material defaultMaterial() {
  Material m;
  m.name = "default";
  return m;
}

// Checks material `index`: factors finite and in [0, 1], a finite non-negative cutoff, valid
// alpha mode, filters and wraps, uv set 0 or 1, a finite transform and an image index below
// `image_count`. Errors (kInvalidData) name `source` and the material.
Status validateMaterial(const Material& material, size_t index, size_t image_count,
                        std::string_view source);

}  // namespace throng
