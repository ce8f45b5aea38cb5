// CPU reference images for render tests: skin on the CPU, shade by the documented formula.
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
  // factors (times the vertex colours) and double-sidedness are drawn: no textures, alpha modes.
  std::span<const Material> materials;
};

// Skins every character with SkinJob (the oracle) and draws the skinned triangles into a fresh
// frame of `device` with shaders of the test's own written from docs/formats.md ("Shading"):
// untinted, FrameView's default light, no fog, each corner coloured by its material's factor
// and vertex colour, back faces culled unless the material is double-sided. None of the
// library's shaders or material code takes part. Reads the frame back.
Result<render::Image> drawCpuReference(render::Device& device,
                                       std::span<const ReferenceCharacter> characters,
                                       const glm::mat4& view_projection,
                                       const glm::vec4& clear_color);

// The palette the reference draws a character with, from the core's reference pose jobs alone
// (evaluatePalette: sample, local to model, times inverse bind), placed where the documented
// Placement says (position, then `heading` radians about +Y, then uniform `scale`): slot s holds
// joint palette_joints[s] (every joint when empty). `clip_time` is on the clip's file timeline.
std::vector<JointRows> referencePalette(const Skeleton& skeleton, const Clip* clip, float clip_time,
                                        const glm::vec3& position, float heading, float scale,
                                        std::span<const uint16_t> palette_joints = {});

// Bakes every clip of `character` at `fps` into an RGBA32F texture of one frame per row slot
// (width = 3 * joints * frames_per_row, at most 4096), the layout of core/animation_texture.h.
// Looping clips store round(duration * fps) frames. `clips` receives the clip table.
AnimationTexture bakeForTest(const Character& character, float fps, std::vector<BakedClip>& clips);

}  // namespace throng::test
