// Material helpers: sampler rules, the KHR_texture_transform matrix and material validation.
#include "throng/core/material.h"

#include <cmath>

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

Status validateMaterial(const Material& material, size_t index, size_t image_count,
                        std::string_view source) {
  auto invalid = [&](const std::string& what) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: material {} ('{}'): {}", source, index, material.name, what));
  };
  for (int c = 0; c < 4; ++c) {
    const float v = material.base_color[c];
    if (!(v >= 0.0f && v <= 1.0f)) {
      return invalid(fmt::format("base colour component {} is {}, outside [0, 1]", c, v));
    }
  }
  if (material.alpha_mode != AlphaMode::kOpaque && material.alpha_mode != AlphaMode::kMask &&
      material.alpha_mode != AlphaMode::kBlend) {
    return invalid(fmt::format("unknown alpha mode {}", static_cast<int>(material.alpha_mode)));
  }
  if (!(material.alpha_cutoff >= 0.0f) || !std::isfinite(material.alpha_cutoff)) {
    return invalid(
        fmt::format("alpha cutoff {} is not a non-negative number", material.alpha_cutoff));
  }
  const TextureRef& t = material.base_color_texture;
  if (t.image < -1 || (t.image >= 0 && static_cast<size_t>(t.image) >= image_count)) {
    return invalid(
        fmt::format("texture image {} does not exist ({} images)", t.image, image_count));
  }
  if (t.uv_set != 0 && t.uv_set != 1) {
    return invalid(fmt::format("texture uv set {} is not 0 or 1", t.uv_set));
  }
  if (!isValidMagFilter(t.sampler.mag_filter) || !isValidMinFilter(t.sampler.min_filter)) {
    return invalid(fmt::format("texture filters {:#x}/{:#x} are not valid (mag/min)",
                               static_cast<int>(t.sampler.mag_filter),
                               static_cast<int>(t.sampler.min_filter)));
  }
  if (!isValidWrap(t.sampler.wrap_s) || !isValidWrap(t.sampler.wrap_t)) {
    return invalid(fmt::format("texture wraps {:#x}/{:#x} are not valid",
                               static_cast<int>(t.sampler.wrap_s),
                               static_cast<int>(t.sampler.wrap_t)));
  }
  if (!isFinite(glm::vec3(t.transform.offset, t.transform.rotation)) ||
      !std::isfinite(t.transform.scale.x) || !std::isfinite(t.transform.scale.y)) {
    return invalid("texture transform is not finite");
  }
  return {};
}

}  // namespace throng
