// GroundDesc: the scenery a CrowdRenderer draws under its crowd (a ground plane with grid lines,
// the blob shadows' look), settable frame by frame. Which shadows are drawn is
// CrowdRendererDesc::shadows.
#pragma once

#include <glm/glm.hpp>

namespace throng::render {

// What is drawn under a crowd. Zero means default, and GroundDesc{} draws nothing (a crowd in a
// program's own world needs no ground); sizes of 0 are filled in from the character by
// CrowdRenderer, and from 1 world unit by GroundRenderer alone.
struct GroundDesc {
  bool grid = false;                          // the ground plane with its grid lines
  float height = 0.0f;                        // world y of the ground plane (shadows lie on it too)
  glm::vec3 color{0.36f, 0.38f, 0.35f};       // RGB 0..1, lit like the characters
  glm::vec3 line_color{0.55f, 0.57f, 0.52f};  // RGB 0..1 of the grid lines
  float line_strength = 1.0f;                 // 0..1; 0 = a plain plane
  float cell = 0.0f;    // world units between grid lines (every 10th is stronger)
  float extent = 0.0f;  // half side of the ground square centred under the eye, world
                        // units; 0 = the fog's end, or 200 cells without fog
  // Blob shadows (ShadowMode::kBlob): how much one darkens the ground at its centre (0..1) and
  // its radius (world units at scale 1, times Placement::scale).
  float shadow_opacity = 0.55f;
  float shadow_radius = 0.0f;
};

}  // namespace throng::render
