// Drawing rows of impostor tiles headless through the public CrowdRenderer: one orthographic row
// camera (impostor_views.h), one agent per tile column. The bake's atlases and the error measure's
// references are drawn by it (docs/lods.md, "Impostors").
#pragma once

#include <memory>
#include <span>

#include <glm/glm.hpp>

#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/render/capture.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::impostor {

// The colour atlas's shading: what the material gives, before light, tint and fog (sRGB-encoded by
// throng on the way out, as the atlas stores it); alpha the coverage.
extern const char* const kImpostorColorShader;
// The normal atlas's: 0.5 n + 0.5 in model space (the agents stand at heading 0).
extern const char* const kImpostorNormalShader;

// A headless device of one row (atlasWidth() x tile_height): OpenGL ES 3.0, or ES 2.0 where the
// process asked Mesa for ES 2.0 only. kGlError when neither can be made.
Result<std::unique_ptr<render::Device>> makeImpostorDevice(const Impostor& layout);

// A renderer of `package` on `device` drawing mesh LOD `lod` untinted, every pixel shaded by
// `shader_text` (instanced path on ES 3.0, merged on ES 2.0).
Result<std::unique_ptr<render::CrowdRenderer>> makeImpostorRenderer(render::Device& device,
                                                                    const Package& package, int lod,
                                                                    const char* shader_name,
                                                                    const char* shader_text);

// Draws one agent per entry of `columns` (at most layout.frameCount(); the tiles past them stay
// empty), column c in tile c, seen from `toward` (unit, from the model towards the camera): the
// row's pixels, atlasWidth() x tile_height, top row first. Cleared to transparent black.
Result<render::Image> drawImpostorRow(render::Device& device, render::CrowdRenderer& renderer,
                                      const Impostor& layout, glm::vec3 toward,
                                      std::span<const AgentPlayback> columns);

}  // namespace throng::impostor
