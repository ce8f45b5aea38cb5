// PNG files encoded in memory (stb_image_write), for the glTF writer and the texture previews.
#pragma once

#include <cstdint>
#include <string>

namespace throng {

// Sets `png` to the PNG file of `width` x `height` pixels of `channels` 8-bit channels each
// (rows packed, top row first). False when stb_image_write cannot encode them.
bool encodePng(const uint8_t* pixels, uint32_t width, uint32_t height, int channels,
               std::string& png);

}  // namespace throng
