// Captured frames: an RGBA8 image, PNG write/read (stb) and a tolerant comparison for image tests.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/status.h"

namespace throng::render {

// 8-bit RGBA pixels, rows top to bottom (as a PNG stores them): rgba.size() == width*height*4.
struct Image {
  int width = 0;
  int height = 0;
  std::vector<uint8_t> rgba;
};

// Writes `image` as a PNG through a temporary file in the same folder renamed into place, so
// `path` is never left half-written. kIoError names the path.
Status writePng(const Image& image, const std::string& path);
// Reads a PNG (any channel count, expanded to RGBA8). kIoError / kParseError name the path.
Result<Image> readPng(const std::string& path);

struct ImageDifference {
  int max_channel_difference = 0;  // largest |a - b| over every channel of every pixel
  int64_t bad_pixels = 0;          // pixels with some channel differing by more than tolerance
};
// Compares two images of the same size (caller bug otherwise, asserted).
ImageDifference compareImages(const Image& a, const Image& b, int tolerance);

}  // namespace throng::render
