// Animation textures on the GPU: device layout, upload, and several characters in one texture.
#include "throng/render/animation_texture_upload.h"

#include <algorithm>
#include <cstring>

#include <fmt/core.h>

#include "render/gl_check.h"
#include "throng/core/half.h"

namespace throng::render {

TexelFormat deviceTexelFormat(const Caps& caps, TexelFormat wanted) {
  if (wanted == TexelFormat::kRgba32F && !caps.float_textures) return TexelFormat::kRgba16F;
  if (wanted == TexelFormat::kRgba16F && !caps.half_float_textures) return TexelFormat::kRgba32F;
  return wanted;
}

Result<AnimationTextureSlot> layoutAnimationTexture(const AnimationTexture& texture,
                                                    uint32_t max_size, TexelFormat format,
                                                    std::vector<float>& floats,
                                                    std::vector<uint16_t>& halves) {
  // The GPU copy's layout: the package's, or laid out again to fit the device.
  AnimationTexture layout;
  layout.joint_count = texture.joint_count;
  layout.frame_count = texture.frame_count;
  layout.frames_per_row = texture.frames_per_row;
  layout.width = texture.width;
  layout.height = texture.height;
  if (texture.width > max_size || texture.height > max_size) {
    if (max_size < 3)
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("animation texture: the device's GL_MAX_TEXTURE_SIZE {} cannot "
                                "hold one joint (3 texels)",
                                max_size));
    const AnimationTextureLayout fit =
        chooseAnimationTextureLayout(texture.joint_count, texture.frame_count, max_size);
    layout.frames_per_row = fit.frames_per_row;
    layout.width = fit.width;
    if (fit.height > max_size)
      return Status(ErrorCode::kLimitExceeded,
                    fmt::format("animation texture: {} frames of {} joints need {}x{} texels even "
                                "at {} frames per row, over the device's GL_MAX_TEXTURE_SIZE {}",
                                texture.frame_count, texture.joint_count, fit.width, fit.height,
                                fit.frames_per_row, max_size));
    layout.height = static_cast<uint32_t>(fit.height);
  }
  AnimationTextureSlot slot;
  slot.width = layout.width;
  slot.height = layout.height;
  slot.frame_count = texture.frame_count;
  slot.joint_count = texture.joint_count;
  slot.frames_per_row = layout.frames_per_row;
  slot.texels_per_frame = texture.texelsPerFrame();
  slot.rows_per_frame = layout.rowsPerFrame();
  slot.joints_per_row = layout.jointsPerRow();

  const size_t values = static_cast<size_t>(layout.width) * layout.height * 4;
  floats.clear();
  halves.clear();
  if (format == TexelFormat::kRgba32F)
    floats.assign(values, 0.0f);
  else
    halves.assign(values, 0);
  for (uint32_t f = 0; f < texture.frame_count; ++f) {
    for (uint32_t j = 0; j < texture.joint_count; ++j) {
      const size_t from = texture.channelIndex(f, j, 0);
      const size_t to = layout.channelIndex(f, j, 0);
      for (size_t v = 0; v < kVec4PerJoint * 4; ++v) {  // a joint's 3 texels are consecutive
        if (format == TexelFormat::kRgba32F) {
          floats[to + v] = texture.format == TexelFormat::kRgba32F
                               ? texture.texels32[from + v]
                               : halfToFloat(texture.texels16[from + v]);
        } else {
          halves[to + v] = texture.format == TexelFormat::kRgba16F
                               ? texture.texels16[from + v]
                               : floatToHalf(texture.texels32[from + v]);
        }
      }
    }
  }
  return slot;
}

Result<GLuint> uploadAnimationTexels(const Device& device, TexelFormat format, uint32_t width,
                                     uint32_t height, const void* texels, const std::string& what) {
  GLuint texture = 0;
  glGenTextures(1, &texture);
  glActiveTexture(GL_TEXTURE0);
  glBindTexture(GL_TEXTURE_2D, texture);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MIN_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_MAG_FILTER, GL_NEAREST);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_S, GL_CLAMP_TO_EDGE);
  glTexParameteri(GL_TEXTURE_2D, GL_TEXTURE_WRAP_T, GL_CLAMP_TO_EDGE);
  glPixelStorei(GL_UNPACK_ALIGNMENT, 4);
  if (device.caps().gles_major < 3) {
    // ES 2.0 / WebGL 1 (OES_texture_float, OES_texture_half_float): unsized RGBA, the type says
    // the texels' size; the half type is the extension's own enum.
    constexpr GLenum kHalfFloatOes = 0x8D61;  // GL_HALF_FLOAT_OES
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA, static_cast<GLsizei>(width),
                 static_cast<GLsizei>(height), 0, GL_RGBA,
                 format == TexelFormat::kRgba32F ? GL_FLOAT : kHalfFloatOes, texels);
  } else if (format == TexelFormat::kRgba32F) {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA32F, static_cast<GLsizei>(width),
                 static_cast<GLsizei>(height), 0, GL_RGBA, GL_FLOAT, texels);
  } else {
    glTexImage2D(GL_TEXTURE_2D, 0, GL_RGBA16F, static_cast<GLsizei>(width),
                 static_cast<GLsizei>(height), 0, GL_RGBA, GL_HALF_FLOAT, texels);
  }
  if (Status s = checkGlUpload(
          fmt::format("{}: uploading the {}x{} animation texture", what, width, height),
          deviceFaults(device));
      !s.ok()) {
    glDeleteTextures(1, &texture);
    return s;
  }
  return texture;
}

Result<std::shared_ptr<SharedAnimationTexture>> SharedAnimationTexture::create(
    Device& device, std::span<const AnimationTexture* const> textures,
    const SharedTextureDesc& desc) {
  if (textures.empty())
    return Status(ErrorCode::kInvalidArgument, "shared animation texture: no textures");
  if (Status s = device.makeCurrent(); !s.ok()) return s;
  const Caps& caps = device.caps();
  const uint32_t max_size = static_cast<uint32_t>(
      std::max(desc.max_texture_size > 0 ? desc.max_texture_size : caps.max_texture_size, 0));
  std::shared_ptr<SharedAnimationTexture> shared(new SharedAnimationTexture());
  shared->format_ = deviceTexelFormat(caps, textures[0]->format);
  // Each character laid out as it would be alone, then stacked.
  std::vector<std::vector<float>> floats(textures.size());
  std::vector<std::vector<uint16_t>> halves(textures.size());
  uint64_t rows = 0;
  for (size_t i = 0; i < textures.size(); ++i) {
    Result<AnimationTextureSlot> slot =
        layoutAnimationTexture(*textures[i], max_size, shared->format_, floats[i], halves[i]);
    if (!slot.ok()) {
      return Status(slot.status().code(), fmt::format("shared animation texture: character {}: {}",
                                                      i, slot.status().message()));
    }
    slot->base_row = static_cast<uint32_t>(std::min<uint64_t>(rows, UINT32_MAX));
    rows += slot->height;
    shared->width_ = std::max(shared->width_, slot->width);
    shared->slots_.push_back(*slot);
  }
  if (rows > max_size) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("shared animation texture: {} characters' textures stacked need "
                              "{}x{} texels, over GL_MAX_TEXTURE_SIZE {}",
                              textures.size(), shared->width_, rows, max_size));
  }
  shared->height_ = static_cast<uint32_t>(rows);
  const size_t row_values = static_cast<size_t>(shared->width_) * 4;
  const bool full = shared->format_ == TexelFormat::kRgba32F;
  std::vector<float> all_floats(full ? row_values * rows : 0, 0.0f);
  std::vector<uint16_t> all_halves(full ? 0 : row_values * rows, 0);
  for (size_t i = 0; i < textures.size(); ++i) {
    const AnimationTextureSlot& slot = shared->slots_[i];
    const size_t slot_row_values = static_cast<size_t>(slot.width) * 4;
    for (uint32_t r = 0; r < slot.height; ++r) {
      const size_t to = (static_cast<size_t>(slot.base_row) + r) * row_values;
      const size_t from = static_cast<size_t>(r) * slot_row_values;
      if (full) {
        std::memcpy(&all_floats[to], &floats[i][from], slot_row_values * sizeof(float));
      } else {
        std::memcpy(&all_halves[to], &halves[i][from], slot_row_values * sizeof(uint16_t));
      }
    }
  }
  Result<GLuint> texture = uploadAnimationTexels(
      device, shared->format_, shared->width_, shared->height_,
      full ? static_cast<const void*>(all_floats.data())
           : static_cast<const void*>(all_halves.data()),
      fmt::format("shared animation texture ({} characters)", textures.size()));
  if (!texture.ok()) return texture.status();
  shared->texture_ = *texture;
  return shared;
}

SharedAnimationTexture::~SharedAnimationTexture() {
  if (texture_) glDeleteTextures(1, &texture_);
}

}  // namespace throng::render
