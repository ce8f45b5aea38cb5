// Animation texture -> PNG, each matrix row's channels stretched over their own value range.
#include "throng/offline/texture_preview.h"

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/core.h>

#include "offline/png_encode.h"
#include "throng/core/file_io.h"

namespace throng {
namespace {

uint8_t toByte(float v, float lo, float hi) {
  if (!(hi > lo)) return 128;
  const float u = std::clamp((v - lo) / (hi - lo), 0.0f, 1.0f);
  return static_cast<uint8_t>(u * 255.0f + 0.5f);
}

}  // namespace

Result<ImageLevel> texturePreviewImage(const AnimationTexture& texture, std::string_view source) {
  if (texture.width == 0 || texture.height == 0 || texture.frame_count == 0 ||
      texture.joint_count == 0) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: the animation texture is empty", source));
  }
  // Ranges per matrix row r and channel c, over every stored texel.
  float lo[3][4], hi[3][4];
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 4; ++c) {
      lo[r][c] = std::numeric_limits<float>::max();
      hi[r][c] = -std::numeric_limits<float>::max();
    }
  }
  for (uint32_t f = 0; f < texture.frame_count; ++f) {
    for (uint32_t j = 0; j < texture.joint_count; ++j) {
      const JointRows rows = loadJointRows(texture, f, j);
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) {
          lo[r][c] = std::min(lo[r][c], rows.rows[r][c]);
          hi[r][c] = std::max(hi[r][c], rows.rows[r][c]);
        }
      }
    }
  }
  ImageLevel image;
  image.width = texture.width;
  image.height = 2 * texture.height;
  const size_t width = image.width;
  image.rgba.assign(width * image.height * 4, 0);
  for (size_t p = 3; p < image.rgba.size(); p += 4) image.rgba[p] = 255;
  for (uint32_t f = 0; f < texture.frame_count; ++f) {
    for (uint32_t j = 0; j < texture.joint_count; ++j) {
      const JointRows rows = loadJointRows(texture, f, j);
      for (uint32_t r = 0; r < 3; ++r) {
        const size_t x = texture.texelX(f, j, r);
        const size_t y = 2 * static_cast<size_t>(texture.texelY(f, j));
        uint8_t* linear = &image.rgba[(y * width + x) * 4];
        for (int c = 0; c < 3; ++c) linear[c] = toByte(rows.rows[r][c], lo[r][c], hi[r][c]);
        // Translation: dark blue (lowest) to yellow (highest).
        const uint8_t t = toByte(rows.rows[r][3], lo[r][3], hi[r][3]);
        uint8_t* translation = &image.rgba[((y + 1) * width + x) * 4];
        translation[0] = t;
        translation[1] = t;
        translation[2] = static_cast<uint8_t>(255 - t / 2);
      }
    }
  }
  return image;
}

Status writeTexturePreview(const AnimationTexture& texture, const std::string& path) {
  Result<ImageLevel> image = texturePreviewImage(texture, path);
  if (!image.ok()) return image.status();
  // RGB: the picture is opaque.
  std::vector<uint8_t> rgb(image->rgba.size() / 4 * 3);
  for (size_t p = 0, q = 0; p < image->rgba.size(); p += 4, q += 3) {
    std::copy_n(&image->rgba[p], 3, &rgb[q]);
  }
  std::string png;
  if (!encodePng(rgb.data(), image->width, image->height, 3, png)) {
    return Status(ErrorCode::kIoError, fmt::format("{}: PNG encoding failed", path));
  }
  return writeFileAtomically(path, png);
}

}  // namespace throng
