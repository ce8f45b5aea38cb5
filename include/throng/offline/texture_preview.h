// A PNG picture of an animation texture, for eyeballing a bake.
#pragma once

#include <string>
#include <string_view>

#include "throng/core/animation_texture.h"
#include "throng/core/image.h"
#include "throng/core/status.h"

namespace throng {

// The picture of `texture`: width x (2 * height) opaque RGBA8 pixels. Texture row y becomes two
// picture rows: row 2y shows each texel's x, y, z (the joint matrix row's linear part) as red,
// green, blue, each channel stretched over its own range among texels of the same matrix row r;
// row 2y+1 shows w (the translation) as a blue-to-yellow ramp over the translation range of that
// matrix row. Unused texels are black. Errors: kInvalidArgument for an empty texture, naming
// `source`.
Result<ImageLevel> texturePreviewImage(const AnimationTexture& texture, std::string_view source);

// Writes texturePreviewImage as an 8-bit RGB PNG through a temporary file renamed into place.
// Errors: as texturePreviewImage (naming the path), kIoError naming the path.
Status writeTexturePreview(const AnimationTexture& texture, const std::string& path);

}  // namespace throng
