// Package images: the mip chains (and ES 2.0 power-of-two copies) of a character's textures.
#include "offline/package_images.h"

#include <fmt/core.h>
#include <stb_image_resize.h>

namespace throng {
namespace {

stbir_edge edgeOf(TextureWrap wrap) {
  switch (wrap) {
    case TextureWrap::kRepeat:
      return STBIR_EDGE_WRAP;
    case TextureWrap::kMirroredRepeat:
      return STBIR_EDGE_REFLECT;
    default:
      return STBIR_EDGE_CLAMP;
  }
}

}  // namespace

Result<ImageLevel> resizeImage(const ImageLevel& source, uint32_t width, uint32_t height,
                               bool filter_box, TextureWrap wrap_s, TextureWrap wrap_t,
                               ColorSpace space) {
  if (Status s = validateImageLevel(source, "resize", "source image"); !s.ok()) return s;
  if (width == 0 || height == 0 || width > kMaxImageSize || height > kMaxImageSize) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("resize: target {}x{} is not in 1..{} per side", width, height, kMaxImageSize));
  }
  ImageLevel out;
  out.width = width;
  out.height = height;
  out.rgba.resize(uint64_t{4} * width * height);
  const stbir_filter filter = filter_box ? STBIR_FILTER_BOX : STBIR_FILTER_DEFAULT;
  const bool colour = space == ColorSpace::kSrgb;
  const int ok = stbir_resize(
      source.rgba.data(), static_cast<int>(source.width), static_cast<int>(source.height), 0,
      out.rgba.data(), static_cast<int>(width), static_cast<int>(height), 0, STBIR_TYPE_UINT8, 4,
      colour ? 3 : STBIR_ALPHA_CHANNEL_NONE, /*flags=*/0, edgeOf(wrap_s), edgeOf(wrap_t), filter,
      filter, colour ? STBIR_COLORSPACE_SRGB : STBIR_COLORSPACE_LINEAR, nullptr);
  if (!ok) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("resize: stb_image_resize failed for {}x{} -> {}x{}", source.width,
                              source.height, width, height));
  }
  return out;
}

Result<std::vector<ImageLevel>> buildMipChain(ImageLevel base, TextureWrap wrap_s,
                                              TextureWrap wrap_t, ColorSpace space) {
  if (Status s = validateImageLevel(base, "mip chain", "base level"); !s.ok()) return s;
  std::vector<ImageLevel> chain;
  chain.reserve(mipLevelCount(base.width, base.height));
  chain.push_back(std::move(base));
  while (chain.back().width > 1 || chain.back().height > 1) {
    const ImageLevel& above = chain.back();
    Result<ImageLevel> next =
        resizeImage(above, std::max(1u, above.width / 2), std::max(1u, above.height / 2),
                    /*filter_box=*/true, wrap_s, wrap_t, space);
    if (!next.ok()) return next.status();
    chain.push_back(std::move(next).value());
  }
  return chain;
}

Result<std::vector<PackageImage>> buildPackageImages(const std::vector<SourceImage>& images,
                                                     const std::vector<Material>& materials) {
  if (Status s = validateImageColorSpaces(materials, "package images"); !s.ok()) return s;
  std::vector<PackageImage> out;
  out.reserve(images.size());
  for (size_t i = 0; i < images.size(); ++i) {
    const SourceImage& image = images[i];
    const std::string what = fmt::format("image {} ('{}')", i, image.name);
    if (Status s = validateImageLevel(image.pixels, "package images", what); !s.ok()) return s;
    const TextureSampler* first = nullptr;
    bool needs_pot = false;
    for (const Material& m : materials) {
      for (int slot = 0; slot < kTextureSlotCount; ++slot) {
        const TextureRef& t = m.texture(static_cast<TextureSlot>(slot));
        if (t.image != static_cast<int>(i)) continue;
        if (first == nullptr) first = &t.sampler;
        needs_pot = needs_pot || needsPowerOfTwo(t.sampler);
      }
    }
    const ColorSpace space = imageColorSpace(materials, static_cast<int>(i));
    const TextureSampler sampler = first != nullptr ? *first : TextureSampler{};
    PackageImage packaged;
    packaged.name = image.name;
    Result<std::vector<ImageLevel>> mips =
        buildMipChain(image.pixels, sampler.wrap_s, sampler.wrap_t, space);
    if (!mips.ok()) return mips.status();
    packaged.mips = std::move(mips).value();
    const uint32_t w = image.pixels.width;
    const uint32_t h = image.pixels.height;
    if (needs_pot && !(isPowerOfTwo(w) && isPowerOfTwo(h))) {
      Result<ImageLevel> pot =
          resizeImage(image.pixels, nearestPowerOfTwo(w), nearestPowerOfTwo(h),
                      /*filter_box=*/false, sampler.wrap_s, sampler.wrap_t, space);
      if (!pot.ok()) return pot.status();
      Result<std::vector<ImageLevel>> pot_mips =
          buildMipChain(std::move(pot).value(), sampler.wrap_s, sampler.wrap_t, space);
      if (!pot_mips.ok()) return pot_mips.status();
      packaged.pot_mips = std::move(pot_mips).value();
    }
    out.push_back(std::move(packaged));
  }
  return out;
}

}  // namespace throng
