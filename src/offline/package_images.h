// Package images: the mip chains (and ES 2.0 power-of-two copies) of a character's textures.
#pragma once

#include <cstdint>
#include <vector>

#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/status.h"

namespace throng {

// Resamples `source` to width x height with stb_image_resize in linear light. kSrgb (colour):
// colour channels are decoded from sRGB, weighted by alpha (so transparent texels do not darken
// their neighbours), filtered, and encoded back; alpha is filtered linearly. kLinear (data:
// normals, metallic-roughness, occlusion): all four channels filtered as they are, each on its own
// (a data texture's alpha may be 0 where its other channels hold values). `filter_box`: a box
// filter (each output texel averages the source area it covers: exact 2x2 means for even halvings),
// else stb's defaults (Catmull-Rom up, Mitchell down). Edges follow the wraps (repeat wraps around,
// clamp repeats the border, mirrored repeat reflects). Errors: kInvalidArgument for an empty size
// or one above kMaxImageSize, kInvalidData for a malformed source.
Result<ImageLevel> resizeImage(const ImageLevel& source, uint32_t width, uint32_t height,
                               bool filter_box, TextureWrap wrap_s = TextureWrap::kClampToEdge,
                               TextureWrap wrap_t = TextureWrap::kClampToEdge,
                               ColorSpace space = ColorSpace::kSrgb);

// `base` and every level below it: each max(1, floor(w/2)) x max(1, floor(h/2)) of the one
// before, box-filtered from it (resizeImage in `space`), down to 1x1. Errors as resizeImage.
Result<std::vector<ImageLevel>> buildMipChain(ImageLevel base,
                                              TextureWrap wrap_s = TextureWrap::kClampToEdge,
                                              TextureWrap wrap_t = TextureWrap::kClampToEdge,
                                              ColorSpace space = ColorSpace::kSrgb);

// One PackageImage per image: its full chain, and, when a sampler of a material that uses it
// (in any texture slot) needs power-of-two sizes on ES 2.0 (needsPowerOfTwo) and the image is not
// a power of two in both sides, a copy resized to nearestPowerOfTwo of each side (stb's default
// filters) with its own chain. The first sampler using an image decides the edge handling, its
// uses the colour space (imageColorSpace). Errors: kInvalidData for a malformed image
// (validateImageLevel) or one read both as colour and as data (validateImageColorSpaces), as
// resizeImage otherwise.
Result<std::vector<PackageImage>> buildPackageImages(const std::vector<SourceImage>& images,
                                                     const std::vector<Material>& materials);

}  // namespace throng
