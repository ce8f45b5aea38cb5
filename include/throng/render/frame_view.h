// FrameView: the camera and the light a frame is drawn with, the same for every render path.
#pragma once

#include <glm/glm.hpp>

#include "throng/crowd/lod_select.h"
#include "throng/crowd/picking.h"

namespace throng::render {

// Distance fog: past `start` world units from the eye, surfaces blend linearly into `color`,
// reaching it at `end`. Every render path and the ground apply the same term, per pixel.
// FrameView's default has none.
struct Fog {
  glm::vec3 color{0.62f, 0.66f, 0.72f};  // linear RGB 0..1
  float start = 0.0f;                    // world units from the eye
  float end = 0.0f;                      // world units; <= start means no fog
  bool enabled() const { return end > start; }
};

// The camera a frame is seen through and the light it is lit by (docs/shaders.md writes out how
// the built-in look uses the light). A depth pass (CrowdRenderer::drawDepth) takes a light's view
// in the same struct: its view_projection and eye, fov_y 0 for an orthographic one.
struct FrameView {
  glm::mat4 view_projection{1.0f};  // world -> clip space (GL conventions, depth -1..1)
  glm::vec3 eye{0.0f};              // camera position (world): LOD distances are measured from it
  float fov_y = 0.0f;               // vertical field of view, radians; 0 = not a perspective view
  float viewport_height = 0.0f;     // pixels the frame is drawn at; 0 = the device's frame height
  // The directional light: the direction it travels (world, any length; normalised when used),
  // its linear RGB colour and its intensity, scaled so that a white Lambert surface facing it
  // reflects colour x intensity.
  glm::vec3 light_direction = glm::normalize(glm::vec3(-0.4f, -1.0f, -0.6f));
  glm::vec3 light_color{1.0f, 0.97f, 0.92f};
  float light_intensity = 0.7f;
  // Hemisphere ambient light (linear RGB) reaching a surface facing straight up (sky) or down
  // (ground), blended by the normal's y between them.
  glm::vec3 sky_color{0.36f, 0.38f, 0.42f};
  glm::vec3 ground_color{0.22f, 0.21f, 0.20f};
  Fog fog;  // none by default
};

// How far fog covers a point `distance` world units from the eye: 0 (clear) .. 1 (fog colour).
// The shaders' formula, for CPU references and callers that fade their own drawings alike.
float fogAmount(const Fog& fog, float distance);

// The view of a camera given as a view matrix (world -> eye, rigid) and a perspective projection
// (eye -> clip): the eye is where the view matrix puts the origin, fov_y = 2 atan(1 / P[1][1]).
FrameView frameViewFromMatrices(const glm::mat4& view, const glm::mat4& projection);

// A perspective camera at `eye` looking at `target` with +Y up; `aspect` = width / height, the
// planes in world units (0 < near_plane < far_plane).
FrameView lookAtView(const glm::vec3& eye, const glm::vec3& target, float fov_y, float aspect,
                     float near_plane, float far_plane);

// The ray from the camera through the point `ndc` of the picture (normalised device coordinates,
// -1..1, +y up): from the near plane towards the far plane, direction spanning the two (a hit's
// t in 0..1 lies between them). For pickAgent.
Ray viewRay(const FrameView& view, const glm::vec2& ndc);

// What the LOD rule needs of `view`: its eye, its fov_y and its viewport height (view's, else
// `frame_height` pixels), with `threshold_pixels` of allowed screen-space error.
LodView lodViewOf(const FrameView& view, int frame_height,
                  float threshold_pixels = kDefaultLodThresholdPx);

}  // namespace throng::render
