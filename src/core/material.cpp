// Material helpers: sampler rules, the KHR_texture_transform matrix and material validation.
#include "throng/core/material.h"

#include <array>
#include <cmath>
#include <map>
#include <string>

#include <fmt/core.h>

namespace throng {

bool isValidMagFilter(TextureFilter filter) {
  return filter == TextureFilter::kNearest || filter == TextureFilter::kLinear;
}

bool isValidMinFilter(TextureFilter filter) {
  return isValidMagFilter(filter) || usesMipmaps(filter);
}

bool isValidWrap(TextureWrap wrap) {
  return wrap == TextureWrap::kRepeat || wrap == TextureWrap::kClampToEdge ||
         wrap == TextureWrap::kMirroredRepeat;
}

bool usesMipmaps(TextureFilter min_filter) {
  switch (min_filter) {
    case TextureFilter::kNearestMipmapNearest:
    case TextureFilter::kLinearMipmapNearest:
    case TextureFilter::kNearestMipmapLinear:
    case TextureFilter::kLinearMipmapLinear:
      return true;
    default:
      return false;
  }
}

bool needsPowerOfTwo(const TextureSampler& sampler) {
  return usesMipmaps(sampler.min_filter) || sampler.wrap_s != TextureWrap::kClampToEdge ||
         sampler.wrap_t != TextureWrap::kClampToEdge;
}

bool TextureTransform::isIdentity() const {
  return offset == glm::vec2(0.0f) && rotation == 0.0f && scale == glm::vec2(1.0f);
}

glm::mat3 TextureTransform::matrix() const {
  // The extension's GLSL: translation * rotation * scale, column-major.
  const float c = std::cos(rotation);
  const float s = std::sin(rotation);
  const glm::mat3 translation(1.0f, 0.0f, 0.0f, 0.0f, 1.0f, 0.0f, offset.x, offset.y, 1.0f);
  const glm::mat3 rotate(c, s, 0.0f, -s, c, 0.0f, 0.0f, 0.0f, 1.0f);
  const glm::mat3 scaling(scale.x, 0.0f, 0.0f, 0.0f, scale.y, 0.0f, 0.0f, 0.0f, 1.0f);
  return translation * rotate * scaling;
}

glm::vec2 TextureTransform::apply(glm::vec2 uv) const {
  return glm::vec2(matrix() * glm::vec3(uv, 1.0f));
}

const char* alphaModeName(AlphaMode mode) {
  switch (mode) {
    case AlphaMode::kOpaque:
      return "OPAQUE";
    case AlphaMode::kMask:
      return "MASK";
    case AlphaMode::kBlend:
      return "BLEND";
  }
  return "unknown";
}

const char* textureSlotName(TextureSlot slot) {
  switch (slot) {
    case TextureSlot::kBaseColor:
      return "base colour";
    case TextureSlot::kMetallicRoughness:
      return "metallic-roughness";
    case TextureSlot::kNormal:
      return "normal";
    case TextureSlot::kOcclusion:
      return "occlusion";
    case TextureSlot::kEmissive:
      return "emissive";
  }
  return "unknown";
}

ColorSpace slotColorSpace(TextureSlot slot) {
  return slot == TextureSlot::kBaseColor || slot == TextureSlot::kEmissive ? ColorSpace::kSrgb
                                                                           : ColorSpace::kLinear;
}

const TextureRef& Material::texture(TextureSlot slot) const {
  switch (slot) {
    case TextureSlot::kMetallicRoughness:
      return metallic_roughness_texture;
    case TextureSlot::kNormal:
      return normal_texture;
    case TextureSlot::kOcclusion:
      return occlusion_texture;
    case TextureSlot::kEmissive:
      return emissive_texture;
    default:
      return base_color_texture;
  }
}

TextureRef& Material::texture(TextureSlot slot) {
  return const_cast<TextureRef&>(static_cast<const Material&>(*this).texture(slot));
}

namespace {

// The problem with `t` (used in `slot`), or empty.
std::string textureProblem(const TextureRef& t, TextureSlot slot, size_t image_count) {
  const char* name = textureSlotName(slot);
  if (t.image < -1 || (t.image >= 0 && static_cast<size_t>(t.image) >= image_count)) {
    return fmt::format("{} texture image {} does not exist ({} images)", name, t.image,
                       image_count);
  }
  if (t.uv_set != 0 && t.uv_set != 1) {
    return fmt::format("{} texture uv set {} is not 0 or 1", name, t.uv_set);
  }
  if (!isValidMagFilter(t.sampler.mag_filter) || !isValidMinFilter(t.sampler.min_filter)) {
    return fmt::format("{} texture filters {:#x}/{:#x} are not valid (mag/min)", name,
                       static_cast<int>(t.sampler.mag_filter),
                       static_cast<int>(t.sampler.min_filter));
  }
  if (!isValidWrap(t.sampler.wrap_s) || !isValidWrap(t.sampler.wrap_t)) {
    return fmt::format("{} texture wraps {:#x}/{:#x} are not valid", name,
                       static_cast<int>(t.sampler.wrap_s), static_cast<int>(t.sampler.wrap_t));
  }
  if (!isFinite(glm::vec3(t.transform.offset, t.transform.rotation)) ||
      !std::isfinite(t.transform.scale.x) || !std::isfinite(t.transform.scale.y)) {
    return fmt::format("{} texture transform is not finite", name);
  }
  return {};
}

bool inUnitRange(float v) {
  return v >= 0.0f && v <= 1.0f;  // false for NaN
}

// The problem with the factors of `m`, or empty.
std::string factorProblem(const Material& m) {
  for (int c = 0; c < 4; ++c) {
    if (!inUnitRange(m.base_color[c])) {
      return fmt::format("base colour component {} is {}, outside [0, 1]", c, m.base_color[c]);
    }
  }
  const std::pair<const char*, float> unit[] = {{"metallic factor", m.metallic_factor},
                                                {"roughness factor", m.roughness_factor},
                                                {"occlusion strength", m.occlusion_strength}};
  for (const auto& [name, v] : unit) {
    if (!inUnitRange(v)) return fmt::format("{} is {}, outside [0, 1]", name, v);
  }
  for (int c = 0; c < 3; ++c) {
    if (!inUnitRange(m.emissive_factor[c])) {
      return fmt::format("emissive factor component {} is {}, outside [0, 1]", c,
                         m.emissive_factor[c]);
    }
  }
  if (!(m.emissive_strength >= 0.0f) || !std::isfinite(m.emissive_strength)) {
    return fmt::format("emissive strength {} is not a finite number >= 0", m.emissive_strength);
  }
  if (!std::isfinite(m.normal_scale)) {
    return fmt::format("normal scale {} is not finite", m.normal_scale);
  }
  return {};
}

}  // namespace

Status validateMaterial(const Material& material, size_t index, size_t image_count,
                        std::string_view source) {
  auto invalid = [&](const std::string& what) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: material {} ('{}'): {}", source, index, material.name, what));
  };
  if (std::string problem = factorProblem(material); !problem.empty()) return invalid(problem);
  if (material.alpha_mode != AlphaMode::kOpaque && material.alpha_mode != AlphaMode::kMask &&
      material.alpha_mode != AlphaMode::kBlend) {
    return invalid(fmt::format("unknown alpha mode {}", static_cast<int>(material.alpha_mode)));
  }
  if (!(material.alpha_cutoff >= 0.0f) || !std::isfinite(material.alpha_cutoff)) {
    return invalid(
        fmt::format("alpha cutoff {} is not a non-negative number", material.alpha_cutoff));
  }
  for (int s = 0; s < kTextureSlotCount; ++s) {
    const auto slot = static_cast<TextureSlot>(s);
    if (std::string problem = textureProblem(material.texture(slot), slot, image_count);
        !problem.empty()) {
      return invalid(problem);
    }
  }
  return {};
}

ColorSpace imageColorSpace(std::span<const Material> materials, int image) {
  bool data = false;
  for (const Material& m : materials) {
    for (int s = 0; s < kTextureSlotCount; ++s) {
      const auto slot = static_cast<TextureSlot>(s);
      if (m.texture(slot).image != image) continue;
      if (slotColorSpace(slot) == ColorSpace::kSrgb) return ColorSpace::kSrgb;
      data = true;
    }
  }
  return data ? ColorSpace::kLinear : ColorSpace::kSrgb;
}

Status validateImageColorSpaces(std::span<const Material> materials, std::string_view source) {
  // The first use of each image by a colour slot and by a data slot: (material, slot).
  struct Use {
    size_t material = 0;
    TextureSlot slot = TextureSlot::kBaseColor;
    bool seen = false;
  };
  std::map<int, std::array<Use, 2>> uses;  // image -> [colour use, data use]
  for (size_t m = 0; m < materials.size(); ++m) {
    for (int s = 0; s < kTextureSlotCount; ++s) {
      const auto slot = static_cast<TextureSlot>(s);
      const int image = materials[m].texture(slot).image;
      if (image < 0) continue;
      Use& use = uses[image][slotColorSpace(slot) == ColorSpace::kSrgb ? 0 : 1];
      if (!use.seen) use = {m, slot, true};
    }
  }
  for (const auto& [image, pair] : uses) {
    if (!pair[0].seen || !pair[1].seen) continue;
    auto describe = [&](const Use& u) {
      return fmt::format("material {} ('{}') {} texture", u.material, materials[u.material].name,
                         textureSlotName(u.slot));
    };
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: image {} is read as sRGB colour ({}) and as linear data ({}); "
                              "an image has one colour space: give each use its own image",
                              source, image, describe(pair[0]), describe(pair[1])));
  }
  return {};
}

}  // namespace throng
