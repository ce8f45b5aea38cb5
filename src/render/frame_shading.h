// The frame's shading state every crowd program reads besides its material: the camera and the
// fog, FrameView's light, the front end's shadow map, and the user file's own uniforms.
#pragma once

#include <GLES3/gl3.h>
#include <glm/glm.hpp>

#include "render/program.h"
#include "render/user_uniforms.h"
#include "throng/render/frame_view.h"

namespace throng::render {

// Which pass a draw is: the colour pass, or the depth pass for a light (CrowdRenderer::drawDepth)
// with the depth programs (the same vertex shader, vertex hook included; the material's alpha
// cut; no colour).
enum class DrawPass : uint8_t { kColor, kDepth };

// A shadow map as the shaders sample it (shaders/common/shadow.glsl).
struct ShadowBinding {
  GLuint texture = 0;      // depth texture (depth in .r when sampled)
  glm::mat4 matrix{1.0f};  // world -> map: xy texture coordinates, z depth, all 0..1
  glm::vec4 params{0.0f};  // 1 / map size, depth bias, normal offset (world units), 1
};

// What a frame shades with besides the view: the shadow map (null: none, throngShadow is 1) and
// the user's uniforms (null: none).
struct FrameShading {
  const ShadowBinding* shadow = nullptr;
  const UserUniforms* user = nullptr;
};

// Locations of the frame's uniforms in a crowd program or the ground's (-1 where unused).
struct ShadingUniforms {
  GLuint program = 0;
  GLint view_projection = -1;  // u_view_projection
  GLint fog_eye = -1;          // u_fog_eye: eye, fog start
  GLint fog_scale = -1;        // u_fog_scale: 1 / (end - start), 0 without fog
  GLint fog_color = -1;        // throng_fog_color
  GLint light_direction = -1;  // throng_light_direction, unit
  GLint light_color = -1;      // throng_light_color: colour x intensity
  GLint sky_color = -1;        // throng_sky_color
  GLint ground_color = -1;     // throng_ground_color
  GLint shadow_matrix = -1;    // throng_shadow_matrix
  GLint shadow_params = -1;    // throng_shadow_params

  static ShadingUniforms of(const Program& program);
};

// Sets `view`'s and `shading`'s values on the program in use (`u.program`), binding the shadow
// map on kShadowTextureUnit.
void applyShading(const ShadingUniforms& u, const FrameView& view, const FrameShading& shading);

}  // namespace throng::render
