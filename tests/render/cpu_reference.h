// CPU reference images for ES2 render tests: skin on the CPU, draw the static result trivially.
#pragma once

#include <span>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/character.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/render/capture.h"
#include "throng/render/device.h"

namespace throng::test {

// One character for the reference: its LOD mesh (palette-slot joints) and placed palette.
struct ReferenceCharacter {
  const SkinnedMesh* mesh = nullptr;
  std::vector<JointRows> palette;  // world-space: skinning matrix times placement
  // The materials the mesh's sub-meshes index (empty: the default, white). Only their base colour
  // factors are drawn (times the vertex colours): no textures or alpha modes.
  std::span<const Material> materials;
};

// Skins every character with SkinJob (the oracle), draws the skinned triangles with
// shaders/gles2/static.vert + lambert.frag (untinted, FrameView's default light, each corner
// coloured by its material's factor and vertex colour) into a fresh
// frame of `device`, and reads it back.
Result<render::Image> drawCpuReference(render::Device& device,
                                       std::span<const ReferenceCharacter> characters,
                                       const glm::mat4& view_projection,
                                       const glm::vec4& clear_color);

// Bakes every clip of `character` at `fps` into an RGBA32F texture of one frame per row slot
// (width = 3 * joints * frames_per_row, at most 4096), the layout of core/animation_texture.h.
// Looping clips store round(duration * fps) frames. `clips` receives the clip table.
AnimationTexture bakeForTest(const Character& character, float fps, std::vector<BakedClip>& clips);

}  // namespace throng::test
