// RGBA8 images: the decoded textures of a character and the mip chains a package stores.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/status.h"

namespace throng {

// Largest image side (pixels) throng imports or stores. ES 3.0 guarantees only 2048
// (GL_MAX_TEXTURE_SIZE; 4096-16384 is usual) and a renderer drops mip levels to fit its device,
// so bigger sources only cost memory: an 8192^2 RGBA8 chain is already 341 MiB.
inline constexpr uint32_t kMaxImageSize = 8192;
// Decoded bytes of all images of one character: guards against files whose few kilobytes of
// PNG claim gigabytes of pixels (a 1 GiB budget holds three full 8192^2 chains).
inline constexpr uint64_t kMaxImageBytes = uint64_t{1} << 30;

// One level of an image: width x height RGBA8 pixels, 4 bytes each, rows in file order (the
// first row is the image's top, where glTF's v = 0 lies). Colour channels are sRGB-encoded,
// alpha is linear.
struct ImageLevel {
  uint32_t width = 0;
  uint32_t height = 0;
  std::vector<uint8_t> rgba;  // width * height * 4 bytes
};

// A decoded source image of a character (the importer's output).
struct SourceImage {
  std::string name;
  ImageLevel pixels;
};

// An image as a package stores it: its full mip chain, and a power-of-two copy for ES 2.0.
struct PackageImage {
  std::string name;
  // mips[0] is the source size; level i+1 is max(1, floor(w/2)) x max(1, floor(h/2)) of level
  // i, down to 1x1 (the OpenGL chain, so any level can be the base of a complete texture).
  std::vector<ImageLevel> mips;
  // Only when the source is not a power of two in both sides and some sampler that uses it needs
  // mipmaps or repeat wraps (needsPowerOfTwo): the image resized to the nearest power of two in
  // each side (at most kMaxImageSize) with its own full chain. Empty otherwise.
  std::vector<ImageLevel> pot_mips;
};

inline bool isPowerOfTwo(uint32_t n) {
  return n != 0 && (n & (n - 1)) == 0;
}
// The power of two nearest to n (ties round up; log scale: 1448 -> 1024, 1449 -> 2048), at
// most kMaxImageSize; 1 for n = 0.
uint32_t nearestPowerOfTwo(uint32_t n);
// Levels of a full chain from a width x height base: floor(log2(max(w, h))) + 1.
uint32_t mipLevelCount(uint32_t width, uint32_t height);

// The levels a renderer uploads: pot_mips when `power_of_two_only` (ES 2.0) and the image has
// them, else mips; the leading levels wider or taller than `max_size` (the device's
// GL_MAX_TEXTURE_SIZE; 0 = no limit) are skipped, so level 0 of the result fits the device.
// Empty when no level fits (never, for max_size >= 1).
std::span<const ImageLevel> levelsToUpload(const PackageImage& image, bool power_of_two_only,
                                           uint32_t max_size);

// Checks one level (sides in 1..kMaxImageSize, byte count) and, for a package image, that each
// chain is complete (sizes as above, down to 1x1) and that a pot chain starts at powers of two.
// Errors (kInvalidData, kLimitExceeded) name `source` and `what`.
Status validateImageLevel(const ImageLevel& level, std::string_view source, std::string_view what);
Status validatePackageImage(const PackageImage& image, std::string_view source, size_t index);

}  // namespace throng
