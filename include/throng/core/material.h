// Material: what a sub-mesh looks like (glTF 2.0 metallic-roughness: base colour, metallic and
// roughness, normal, occlusion and emissive textures and factors, alpha mode, sidedness) and the
// texture sampling it needs.
#pragma once

#include <cstdint>
#include <span>
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

// How an image's RGB channels are encoded (its alpha is always linear). glTF 2.0 fixes it by use:
// colour textures (base colour, emissive) are sRGB, data textures (metallic-roughness, normal,
// occlusion) linear. Images are stored once, as RGBA8, in the colour space of their uses
// (imageColorSpace); a renderer samples kSrgb images through an sRGB format or decodes them in the
// shader, and kLinear images as they are.
enum class ColorSpace : uint8_t {
  kSrgb = 0,
  kLinear = 1,
};

// The textures of a material, in the order the package stores them.
enum class TextureSlot : uint8_t {
  kBaseColor = 0,          // RGBA: colour and alpha (sRGB)
  kMetallicRoughness = 1,  // B: metalness, G: roughness (linear; R and A unused)
  kNormal = 2,             // RGB: tangent-space normal * 0.5 + 0.5 (linear)
  kOcclusion = 3,          // R: ambient occlusion (linear; G, B and A unused)
  kEmissive = 4,           // RGB: emitted colour (sRGB; A unused)
};
inline constexpr int kTextureSlotCount = 5;
const char* textureSlotName(TextureSlot slot);  // "base colour", "metallic-roughness", ...
ColorSpace slotColorSpace(TextureSlot slot);    // kSrgb for base colour and emissive

// glTF 2.0 metallic-roughness (section 3.9), every factor at the specification's default. In
// linear light, with each texture's value 1 where it is absent:
//   base = base_color * base colour texture (decoded from sRGB) * vertex colour;
//   metallic = metallic_factor * metallic-roughness texture.b;
//   roughness = roughness_factor * metallic-roughness texture.g;
//   normal = normalize(TBN * ((normal texture.rgb * 2 - 1) * vec3(normal_scale, normal_scale, 1)))
//     with T = tangent.xyz, B = cross(N, T) * tangent.w (SkinnedMesh::tangents), N the normal;
//   ambient occlusion = 1 + occlusion_strength * (occlusion texture.r - 1);
//   emitted = emissive_factor * emissive_strength * emissive texture.rgb (decoded from sRGB).
// Alpha is base's alpha, used as alpha_mode says.
struct Material {
  std::string name;
  glm::vec4 base_color{1.0f};  // linear RGBA, each in [0, 1]
  TextureRef base_color_texture;
  float metallic_factor = 1.0f;   // [0, 1]
  float roughness_factor = 1.0f;  // [0, 1], perceptual roughness
  TextureRef metallic_roughness_texture;
  TextureRef normal_texture;
  float normal_scale =
      1.0f;  // finite; scales the sampled normal's x and y (glTF normalTexture.scale)
  TextureRef occlusion_texture;
  float occlusion_strength = 1.0f;  // [0, 1]
  glm::vec3 emissive_factor{0.0f};  // linear RGB, each in [0, 1]
  float emissive_strength = 1.0f;   // KHR_materials_emissive_strength: finite, >= 0
  TextureRef emissive_texture;
  AlphaMode alpha_mode = AlphaMode::kOpaque;
  float alpha_cutoff = 0.5f;  // kMask only; >= 0
  bool double_sided = false;  // false: back faces are culled

  const TextureRef& texture(TextureSlot slot) const;
  TextureRef& texture(TextureSlot slot);
};

// The material a sub-mesh uses when the material list is empty (glTF's default material: every
// property at its default, so white, metallic 1, roughness 1, opaque, single-sided).
inline Material defaultMaterial() {
  Material m;
  m.name = "default";
  return m;
}

// Checks material `index`: factors finite and in their ranges above, a finite non-negative
// cutoff, valid alpha mode, and for every texture valid filters and wraps, uv set 0 or 1, a finite
// transform and an image index below `image_count`. Errors (kInvalidData) name `source`, the
// material and the texture slot.
Status validateMaterial(const Material& material, size_t index, size_t image_count,
                        std::string_view source);

// The colour space image `image` is stored in: kLinear when only data slots of `materials` read
// it, else kSrgb (also for an image no material reads).
ColorSpace imageColorSpace(std::span<const Material> materials, int image);

// Fails when an image is read both by a colour slot and by a data slot (one stored image has one
// colour space: such uses need an image each; the glTF importer makes the copy). Errors
// (kInvalidData) name `source`, the image and both uses.
Status validateImageColorSpaces(std::span<const Material> materials, std::string_view source);

}  // namespace throng
