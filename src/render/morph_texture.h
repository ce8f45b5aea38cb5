// The morph animation's textures on the GPU (docs/morph.md "Texture layout"): one per LOD, shared
// by the instanced, gpu, merged and per-character paths.
#pragma once

#include <string_view>
#include <vector>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/render/device.h"

namespace throng::render {

// A LOD's morph texture: its vertex blocks, then (target deltas) the frames' weights from row
// weight_row, 4 a texel, weight_texels texels a frame.
struct MorphLodTexture {
  unsigned texture = 0;
  int width = 0;
  int height = 0;  // the vertex blocks' rows and the weights' rows
  int vertices = 0;
  int weight_row = 0;
  int targets = 0;
  int weight_texels = 0;
};

// Uploads every LOD's texture of `morph` (nothing for kNone) in the device's float format;
// `frame_count` is the animation texture's (the weights' frames). kLimitExceeded (naming `who`
// and the LOD) for a texture over GL_MAX_TEXTURE_SIZE; kGlError on GL failure. Textures already
// made are deleted on failure.
Result<std::vector<MorphLodTexture>> uploadMorphTextures(const Device& device,
                                                         const MorphAnimation& morph,
                                                         uint32_t frame_count,
                                                         std::string_view who);

// Deletes the textures (the device's context current).
void deleteMorphTextures(std::vector<MorphLodTexture>& textures);

}  // namespace throng::render
