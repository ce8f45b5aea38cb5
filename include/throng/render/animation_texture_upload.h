// Animation textures on the GPU: a baked texture laid out for a device, uploaded alone or with
// other characters' stacked in one texture (a mixed crowd then binds one animation texture).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include <GLES3/gl3.h>

#include "throng/core/animation_texture.h"
#include "throng/core/status.h"
#include "throng/render/device.h"

namespace throng::render {

// Where one character's frames lie in a GL animation texture, as the instanced vertex shader
// addresses them (core/animation_texture.h's layout, shifted down by base_row rows).
struct AnimationTextureSlot {
  uint32_t base_row = 0;  // the character's first texture row
  uint32_t width = 0;     // texels of the character's own layout (<= the texture's width)
  uint32_t height = 0;    // its rows
  uint32_t frame_count = 0;
  uint32_t joint_count = 0;
  uint32_t frames_per_row = 0;
  uint32_t texels_per_frame = 0;  // 3 * joint count
  uint32_t rows_per_frame = 1;    // > 1 when a frame is wider than the texture
  uint32_t joints_per_row = 0;
};

// `texture` laid out for a device whose textures are at most `max_size` texels a side (fewer
// frames per row, or one frame over several rows: chooseAnimationTextureLayout) in `format`,
// its texels converted to `format`; the values (width * height * 4, f32 or f16 bits) are
// written to `floats` or `halves`. kLimitExceeded when it cannot fit `max_size`.
Result<AnimationTextureSlot> layoutAnimationTexture(const AnimationTexture& texture,
                                                    uint32_t max_size, TexelFormat format,
                                                    std::vector<float>& floats,
                                                    std::vector<uint16_t>& halves);

// The format a device stores `wanted` in: full floats when it has them (a half-float bake stays
// half), else the other one.
TexelFormat deviceTexelFormat(const Caps& caps, TexelFormat wanted);

// Zero means default.
struct SharedTextureDesc {
  int max_texture_size = 0;  // 0: the device's GL_MAX_TEXTURE_SIZE (tests set less)
};

// One GL texture holding several characters' animation textures, their rows one after the other
// (slot i from slot(i).base_row), as wide as the widest. Shared by the renderers of a mixed crowd
// (InstancedRendererOptions::shared_texture, CrowdRendererDesc::animation_texture), so drawing
// another character binds no other animation texture. Lives and dies with its device's context
// current (shared_ptr: every renderer using it keeps it alive); move-only.
class SharedAnimationTexture {
 public:
  // Lays out and uploads `textures` (each as InstancedRenderer would alone) in one texture of the
  // device's format for the first one. kLimitExceeded when the stacked rows or the widest texture
  // exceed the size limit (the message gives the size needed and the limit: the caller then
  // draws with separate textures); kInvalidArgument for no textures; kGlError on GL failure.
  static Result<std::shared_ptr<SharedAnimationTexture>> create(
      Device& device, std::span<const AnimationTexture* const> textures,
      const SharedTextureDesc& desc = {});
  ~SharedAnimationTexture();
  SharedAnimationTexture(const SharedAnimationTexture&) = delete;
  SharedAnimationTexture& operator=(const SharedAnimationTexture&) = delete;

  GLuint id() const { return texture_; }
  TexelFormat format() const { return format_; }
  uint32_t width() const { return width_; }
  uint32_t height() const { return height_; }
  size_t slotCount() const { return slots_.size(); }
  const AnimationTextureSlot& slot(size_t index) const { return slots_[index]; }

 private:
  SharedAnimationTexture() = default;
  GLuint texture_ = 0;
  TexelFormat format_ = TexelFormat::kRgba32F;
  uint32_t width_ = 0;
  uint32_t height_ = 0;
  std::vector<AnimationTextureSlot> slots_;
};

// Creates a texture and uploads width x height RGBA texels of `format` (floats or halves) as the
// instanced path samples them (nearest, clamped). The new texture name, or kGlError.
Result<GLuint> uploadAnimationTexels(const Device& device, TexelFormat format, uint32_t width,
                                     uint32_t height, const void* texels, const std::string& what);

}  // namespace throng::render
