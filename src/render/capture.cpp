// PNG write (encoded in memory, then written atomically) and read through stb, and the tolerant
// image comparison.
#include "throng/render/capture.h"

#include <cassert>
#include <cstdio>
#include <cstdlib>

#include <fmt/core.h>
#include <stb_image.h>
#include <stb_image_write.h>

#include "throng/core/file_io.h"

namespace throng::render {
namespace {

void appendBytes(void* context, void* data, int size) {
  static_cast<std::string*>(context)->append(static_cast<const char*>(data),
                                             static_cast<size_t>(size));
}

}  // namespace

Status writePng(const Image& image, const std::string& path) {
  assert(image.width > 0 && image.height > 0 &&
         image.rgba.size() == static_cast<size_t>(image.width) * image.height * 4);
  std::string png;
  if (stbi_write_png_to_func(appendBytes, &png, image.width, image.height, 4, image.rgba.data(),
                             image.width * 4) == 0)
    return Status(ErrorCode::kIoError, fmt::format("{}: encoding the PNG failed", path));
  return writeFileAtomically(path, png);
}

Result<Image> readPng(const std::string& path) {
  std::FILE* file = std::fopen(path.c_str(), "rb");
  if (!file) return Status(ErrorCode::kIoError, fmt::format("{}: cannot open", path));
  int width = 0, height = 0, channels = 0;
  stbi_uc* pixels = stbi_load_from_file(file, &width, &height, &channels, 4);
  std::fclose(file);
  if (!pixels)
    return Status(ErrorCode::kParseError,
                  fmt::format("{}: not a readable image: {}", path, stbi_failure_reason()));
  Image image;
  image.width = width;
  image.height = height;
  image.rgba.assign(pixels, pixels + static_cast<size_t>(width) * height * 4);
  stbi_image_free(pixels);
  return image;
}

ImageDifference compareImages(const Image& a, const Image& b, int tolerance) {
  assert(a.width == b.width && a.height == b.height && a.rgba.size() == b.rgba.size());
  ImageDifference difference;
  for (size_t pixel = 0; pixel + 3 < a.rgba.size(); pixel += 4) {
    int worst = 0;
    for (size_t c = 0; c < 4; ++c)
      worst = std::max(worst, std::abs(a.rgba[pixel + c] - b.rgba[pixel + c]));
    difference.max_channel_difference = std::max(difference.max_channel_difference, worst);
    if (worst > tolerance) ++difference.bad_pixels;
  }
  return difference;
}

}  // namespace throng::render
