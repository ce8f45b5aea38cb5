// The cameras an impostor's tiles are drawn with: one orthographic view per atlas row, seeing a
// row of agents (one per frame column) side by side (docs/lods.md, "Impostors").
#pragma once

#include <cstdint>

#include <glm/glm.hpp>

#include "throng/core/impostor.h"
#include "throng/render/frame_view.h"

namespace throng::impostor {

// The world -> clip matrix of atlas row `view` (< impostor.viewCount()): an orthographic camera
// looking at `impostor.center` from impostorViewDirection, +Y of the model up on screen, the whole
// row (frameCount() tiles of size.x, size.y tall) filling the frame.
glm::mat4 impostorRowViewProjection(const Impostor& impostor, uint32_t view);
// The same as a FrameView (fov_y 0: orthographic; viewport_height the tile height).
render::FrameView impostorRowView(const Impostor& impostor, uint32_t view);
// Where the agent of frame column `column` stands in the world for row `view` so that its
// `center` falls on the middle of its tile (heading 0: world = model axes).
glm::vec3 impostorAgentPosition(const Impostor& impostor, uint32_t view, uint32_t column);

// The same for any direction `toward` (unit, from the model towards the camera, not straight up or
// down): the bake's rows use the views' directions, the error measure (impostor_error.h) the
// directions between them. The tile is framed the same way: `center` in its middle, +Y of the
// model projected up.
glm::mat4 impostorRowViewProjection(const Impostor& impostor, glm::vec3 toward);
render::FrameView impostorRowView(const Impostor& impostor, glm::vec3 toward);
glm::vec3 impostorAgentPosition(const Impostor& impostor, glm::vec3 toward, uint32_t column);

}  // namespace throng::impostor
