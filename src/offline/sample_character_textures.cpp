// The PBR sample: the sample character with procedural metallic-roughness, normal, occlusion and
// emissive textures (height fields turned into tangent-space normals), and generated tangents.
#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <functional>
#include <numbers>
#include <string>

#include "throng/offline/sample_character.h"
#include "throng/offline/tangents.h"

namespace throng {
namespace {

constexpr float kTwoPi = 2.0f * std::numbers::pi_v<float>;

// Clothes: padded channels across v (about 6 cm on the torso, 8 on a leg: visible from the street
// view), the metal band and the glowing piping as v ranges (see makeSamplePbrCharacter).
constexpr float kQuiltChannels = 12.0f;
constexpr float kBandStart = 0.14f, kBandEnd = 0.20f;
constexpr float kPipingStart = 0.895f, kPipingEnd = 0.915f;
// Skin: value-noise cells across the image (a few millimetres on the head).
constexpr int kSkinCells = 32;
// Shoes: tread grooves across v, a stitched welt ring at kWeltV with kStitches dashes around.
constexpr float kTreads = 14.0f;
constexpr float kTreadFlat = 0.75f;  // share of a tread period that is flat; the rest a groove
constexpr float kWeltV = 0.32f, kWeltHalfWidth = 0.012f;
constexpr float kStitches = 48.0f;

// Normal strength: height units per texel of slope become this much tangent-space x or y, so the
// steepest flanks of each pattern lean about 40-50 degrees (bold enough to read when small).
constexpr float kClothesRelief = 5.0f;
constexpr float kSkinRelief = 3.0f;
constexpr float kShoesRelief = 4.0f;

using Field = std::function<float(float u, float v)>;  // uv in [0, 1), v down the image

float texelU(uint32_t x, uint32_t width) {
  return (static_cast<float>(x) + 0.5f) / static_cast<float>(width);
}

uint8_t unorm8(float x) {
  return static_cast<uint8_t>(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f));
}

// sRGB encoding of a linear value (IEC 61966-2-1), for the colour images.
float srgbEncode(float linear) {
  return linear <= 0.0031308f ? linear * 12.92f : 1.055f * std::pow(linear, 1.0f / 2.4f) - 0.055f;
}

// An image of `width` x `height` texels, each `texel(u, v)` as RGBA in [0, 1].
SourceImage makeImage(std::string name, uint32_t width, uint32_t height,
                      const std::function<glm::vec4(float, float)>& texel) {
  SourceImage image;
  image.name = std::move(name);
  image.pixels.width = width;
  image.pixels.height = height;
  image.pixels.rgba.reserve(size_t{width} * height * 4);
  for (uint32_t y = 0; y < height; ++y) {
    for (uint32_t x = 0; x < width; ++x) {
      const glm::vec4 c = texel(texelU(x, width), texelU(y, height));
      for (int i = 0; i < 4; ++i) image.pixels.rgba.push_back(unorm8(c[i]));
    }
  }
  return image;
}

// Tangent-space normals of the height field `height` (glTF: x along +u, y up the image, which is
// -v; z out), from central differences one texel apart, the images wrapping as the samplers do.
SourceImage normalImage(std::string name, const Field& height, float relief) {
  const float step = 1.0f / static_cast<float>(kSamplePbrTextureSize);
  auto wrapped = [&](float u, float v) { return height(u - std::floor(u), v - std::floor(v)); };
  return makeImage(std::move(name), kSamplePbrTextureSize, kSamplePbrTextureSize,
                   [&](float u, float v) {
                     const float du = (wrapped(u + step, v) - wrapped(u - step, v)) * 0.5f;
                     const float dv = (wrapped(u, v + step) - wrapped(u, v - step)) * 0.5f;
                     const glm::vec3 n = glm::normalize(glm::vec3(-relief * du, relief * dv, 1.0f));
                     return glm::vec4(n * 0.5f + 0.5f, 1.0f);
                   });
}

// glTF packs metalness in B and roughness in G (R and A unused: 0 and 1 here).
SourceImage metallicRoughnessImage(std::string name, const Field& metallic,
                                   const Field& roughness) {
  return makeImage(
      std::move(name), kSamplePbrTextureSize, kSamplePbrTextureSize,
      [&](float u, float v) { return glm::vec4(0.0f, roughness(u, v), metallic(u, v), 1.0f); });
}

// Occlusion in R; G and B repeat it so that the image previews as grey.
SourceImage occlusionImage(std::string name, const Field& occlusion) {
  return makeImage(std::move(name), kSamplePbrTextureSize, kSamplePbrTextureSize,
                   [&](float u, float v) { return glm::vec4(glm::vec3(occlusion(u, v)), 1.0f); });
}

bool inRange(float v, float start, float end) {
  return v >= start && v < end;
}

// A smooth bump 1 at the middle of a period and 0 at its ends (x in periods).
float padded(float x) {
  const float c = 2.0f * (x - std::floor(x)) - 1.0f;
  return 1.0f - c * c;
}

// Tileable value noise in [0, 1] over `cells` x `cells` cells (a hash per lattice point,
// smoothly interpolated).
float valueNoise(float u, float v, int cells) {
  auto lattice = [cells](int x, int y) {
    uint32_t h = static_cast<uint32_t>((x % cells + cells) % cells) * 73856093u ^
                 static_cast<uint32_t>((y % cells + cells) % cells) * 19349663u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    return static_cast<float>(h & 0xffffu) / 65535.0f;
  };
  const float x = u * static_cast<float>(cells), y = v * static_cast<float>(cells);
  const int x0 = static_cast<int>(std::floor(x)), y0 = static_cast<int>(std::floor(y));
  auto ease = [](float t) { return t * t * (3.0f - 2.0f * t); };
  const float tx = ease(x - static_cast<float>(x0)), ty = ease(y - static_cast<float>(y0));
  const float top = lattice(x0, y0) + (lattice(x0 + 1, y0) - lattice(x0, y0)) * tx;
  const float bottom = lattice(x0, y0 + 1) + (lattice(x0 + 1, y0 + 1) - lattice(x0, y0 + 1)) * tx;
  return top + (bottom - top) * ty;
}

int addImage(Character& character, SourceImage image) {
  character.images.push_back(std::move(image));
  return static_cast<int>(character.images.size()) - 1;
}

// The clothes' height: the padded channels, flat (raised) under the band and the piping.
float clothesHeight(float, float v) {
  if (inRange(v, kBandStart, kBandEnd)) return 0.8f;
  if (inRange(v, kPipingStart, kPipingEnd)) return 0.6f;
  return padded(v * kQuiltChannels);
}

void dressClothes(Character& c, Material& m) {
  m.base_color = glm::vec4(1.0f);
  m.base_color_texture.image =
      addImage(c, makeImage("clothes_base_color", kSamplePbrTextureSize, kSamplePbrTextureSize,
                            [](float, float v) {
                              glm::vec3 linear{0.10f, 0.22f, 0.50f};  // the sample's blue
                              if (inRange(v, kBandStart, kBandEnd))
                                linear = {0.75f, 0.55f, 0.22f};  // brass
                              if (inRange(v, kPipingStart, kPipingEnd))
                                linear = {0.6f, 0.9f, 0.95f};
                              return glm::vec4(srgbEncode(linear.r), srgbEncode(linear.g),
                                               srgbEncode(linear.b), 1.0f);
                            }));
  m.normal_texture.image =
      addImage(c, normalImage("clothes_normal", clothesHeight, kClothesRelief));
  m.metallic_factor = 1.0f;
  m.roughness_factor = 1.0f;
  m.metallic_roughness_texture.image =
      addImage(c, metallicRoughnessImage(
                      "clothes_metallic_roughness",
                      [](float, float v) { return inRange(v, kBandStart, kBandEnd) ? 1.0f : 0.0f; },
                      [](float u, float v) {
                        if (inRange(v, kBandStart, kBandEnd)) return 0.3f;
                        return 0.85f + 0.1f * valueNoise(u, v, kSkinCells);  // cloth
                      }));
  m.occlusion_texture.image = addImage(c, occlusionImage("clothes_occlusion", [](float u, float v) {
                                         if (inRange(v, kBandStart, kBandEnd)) return 1.0f;
                                         if (inRange(v, kPipingStart, kPipingEnd)) return 1.0f;
                                         return 0.55f + 0.45f * std::sqrt(clothesHeight(u, v));
                                       }));
  m.occlusion_strength = 0.8f;
  m.emissive_factor = {0.8f, 1.0f, 1.0f};
  m.emissive_texture.image =
      addImage(c, makeImage("clothes_emissive", kSamplePbrEmissiveWidth, kSamplePbrTextureSize,
                            [](float, float v) {
                              if (!inRange(v, kPipingStart, kPipingEnd))
                                return glm::vec4(0, 0, 0, 1);
                              return glm::vec4(srgbEncode(0.05f), srgbEncode(0.9f), 1.0f, 1.0f);
                            }));
}

float skinHeight(float u, float v) {
  return valueNoise(u, v, kSkinCells);
}

void dressSkin(Character& c, Material& m) {
  m.normal_texture.image = addImage(c, normalImage("skin_normal", skinHeight, kSkinRelief));
  m.normal_scale = 0.5f;
  m.metallic_factor = 0.0f;
  m.roughness_factor = 1.0f;
  m.metallic_roughness_texture.image =
      addImage(c, metallicRoughnessImage(
                      "skin_metallic_roughness", [](float, float) { return 0.0f; },
                      [](float u, float v) { return 0.5f + 0.1f * skinHeight(u, v); }));
  m.occlusion_texture.image = addImage(c, occlusionImage("skin_occlusion", [](float u, float v) {
                                         return 0.85f + 0.15f * skinHeight(u, v);
                                       }));
}

// The shoes' height: tread ridges with narrow grooves, the welt a groove ring of stitches.
float shoesHeight(float u, float v) {
  if (std::abs(v - kWeltV) < kWeltHalfWidth) {
    const float stitch = u * kStitches - std::floor(u * kStitches);
    return stitch < 0.6f ? 0.55f : 0.2f;  // raised thread dashes in the groove
  }
  const float t = v * kTreads - std::floor(v * kTreads);
  if (t < kTreadFlat) return 1.0f;
  return 1.0f - 0.8f * std::sin(std::numbers::pi_v<float> * (t - kTreadFlat) / (1.0f - kTreadFlat));
}

void dressShoes(Character& c, Material& m) {
  m.normal_texture.image = addImage(c, normalImage("shoes_normal", shoesHeight, kShoesRelief));
  m.metallic_factor = 0.0f;
  m.roughness_factor = 1.0f;
  m.metallic_roughness_texture.image =
      addImage(c, metallicRoughnessImage(
                      "shoes_metallic_roughness", [](float, float) { return 0.0f; },
                      [](float u, float v) { return shoesHeight(u, v) >= 1.0f ? 0.35f : 0.65f; }));
  m.occlusion_texture.image = addImage(c, occlusionImage("shoes_occlusion", [](float u, float v) {
                                         return 0.6f + 0.4f * shoesHeight(u, v);
                                       }));
}

}  // namespace

Character makeSamplePbrCharacter() {
  Character character = makeSampleCharacter();
  for (Material& m : character.materials) {
    if (m.name == "clothes") dressClothes(character, m);
    if (m.name == "skin") dressSkin(character, m);
    if (m.name == "shoes") dressShoes(character, m);
  }
  Result<TangentReport> tangents = generateTangents(character.mesh, character.materials);
  assert(tangents.ok());  // the sample's mesh is valid and its materials in range
  (void)tangents;
  return character;
}

}  // namespace throng
