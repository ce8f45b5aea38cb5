// A PNG picture of an animation texture, for eyeballing a bake.
#pragma once

#include <string>

#include "throng/core/animation_texture.h"
#include "throng/core/status.h"

namespace throng {

// Writes `texture` as an 8-bit RGB PNG of width x (2 * height) pixels, through a temporary file
// renamed into place. Texture row y becomes two picture rows: row 2y shows each texel's x, y, z
// (the joint matrix row's linear part) as red, green, blue, each channel stretched over its own
// range among texels of the same matrix row r; row 2y+1 shows w (the translation) as a
// blue-to-yellow ramp over the translation range of that matrix row. Unused texels are black.
// Errors: kIoError (naming the path), kInvalidArgument for an empty texture.
Status writeTexturePreview(const AnimationTexture& texture, const std::string& path);

}  // namespace throng
