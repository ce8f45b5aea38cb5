// RGBA8 image helpers: power-of-two rounding, mip chain sizes, upload choice and validation.
#include "throng/core/image.h"

#include <algorithm>
#include <bit>

#include <fmt/core.h>

namespace throng {

uint32_t nearestPowerOfTwo(uint32_t n) {
  if (n <= 1) return 1;
  if (n >= kMaxImageSize) return kMaxImageSize;
  const uint32_t below = std::bit_floor(n);
  const uint32_t above = below << 1;
  // Nearest on a log scale: round up from sqrt(2) * below (n^2 >= 2 below^2).
  const uint64_t squared = static_cast<uint64_t>(n) * n;
  return squared >= 2ull * below * below ? above : below;
}

uint32_t mipLevelCount(uint32_t width, uint32_t height) {
  const uint32_t largest = std::max({width, height, 1u});
  return static_cast<uint32_t>(std::bit_width(largest));
}

std::span<const ImageLevel> levelsToUpload(const PackageImage& image, bool power_of_two_only,
                                           uint32_t max_size) {
  const std::vector<ImageLevel>& chain =
      power_of_two_only && !image.pot_mips.empty() ? image.pot_mips : image.mips;
  size_t first = 0;
  if (max_size != 0) {
    while (first < chain.size() &&
           (chain[first].width > max_size || chain[first].height > max_size)) {
      ++first;
    }
  }
  return std::span<const ImageLevel>(chain).subspan(first);
}

Status validateImageLevel(const ImageLevel& level, std::string_view source, std::string_view what) {
  if (level.width == 0 || level.height == 0) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: {} is {}x{}; images need at least one pixel", source, what,
                              level.width, level.height));
  }
  if (level.width > kMaxImageSize || level.height > kMaxImageSize) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} is {}x{}, more than the limit of {} per side", source, what,
                              level.width, level.height, kMaxImageSize));
  }
  const uint64_t bytes = uint64_t{4} * level.width * level.height;
  if (level.rgba.size() != bytes) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: {} is {}x{} but holds {} bytes, not {}", source, what,
                              level.width, level.height, level.rgba.size(), bytes));
  }
  return {};
}

namespace {

Status validateChain(const std::vector<ImageLevel>& chain, std::string_view source,
                     const std::string& what) {
  for (size_t l = 0; l < chain.size(); ++l) {
    const std::string level_name = fmt::format("{} level {}", what, l);
    if (Status s = validateImageLevel(chain[l], source, level_name); !s.ok()) return s;
    if (l > 0) {
      const uint32_t w = std::max(1u, chain[l - 1].width / 2);
      const uint32_t h = std::max(1u, chain[l - 1].height / 2);
      if (chain[l].width != w || chain[l].height != h) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("{}: {} is {}x{}, the chain needs {}x{}", source, level_name,
                                  chain[l].width, chain[l].height, w, h));
      }
    }
  }
  const ImageLevel& last = chain.back();
  if (last.width != 1 || last.height != 1) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: {} mip chain ends at {}x{}, not 1x1",
                                                       source, what, last.width, last.height));
  }
  return {};
}

}  // namespace

Status validatePackageImage(const PackageImage& image, std::string_view source, size_t index) {
  const std::string what = fmt::format("image {} ('{}')", index, image.name);
  if (image.mips.empty()) {
    return Status(ErrorCode::kInvalidData, fmt::format("{}: {} has no pixels", source, what));
  }
  if (Status s = validateChain(image.mips, source, what); !s.ok()) return s;
  if (!image.pot_mips.empty()) {
    const ImageLevel& base = image.pot_mips.front();
    if (!isPowerOfTwo(base.width) || !isPowerOfTwo(base.height)) {
      return Status(ErrorCode::kInvalidData, fmt::format("{}: {} power-of-two copy is {}x{}",
                                                         source, what, base.width, base.height));
    }
    if (Status s = validateChain(image.pot_mips, source, what + " power-of-two copy"); !s.ok()) {
      return s;
    }
  }
  return {};
}

}  // namespace throng
