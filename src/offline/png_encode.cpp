// PNG files encoded in memory (stb_image_write).
#include "offline/png_encode.h"

#include <stb_image_write.h>

namespace throng {
namespace {

// stb_image_write's callback: appends the bytes it hands over to the std::string in `context`.
void appendPngBytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<size_t>(size));
}

}  // namespace

bool encodePng(const uint8_t* pixels, uint32_t width, uint32_t height, int channels,
               std::string& png) {
  png.clear();
  return stbi_write_png_to_func(appendPngBytes, &png, static_cast<int>(width),
                                static_cast<int>(height), channels, pixels,
                                static_cast<int>(width) * channels) != 0;
}

}  // namespace throng
