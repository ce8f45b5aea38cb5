// The frame's shading uniforms: camera, fog, light, shadow map, the user's values.
#include "render/frame_shading.h"

#include <glm/gtc/type_ptr.hpp>

#include "render/material_draws.h"

namespace throng::render {

ShadingUniforms ShadingUniforms::of(const Program& program) {
  ShadingUniforms u;
  u.program = program.id();
  u.view_projection = program.uniform("u_view_projection");
  u.fog_eye = program.uniform("u_fog_eye");
  u.fog_scale = program.uniform("u_fog_scale");
  u.fog_color = program.uniform("throng_fog_color");
  u.light_direction = program.uniform("throng_light_direction");
  u.light_color = program.uniform("throng_light_color");
  u.sky_color = program.uniform("throng_sky_color");
  u.ground_color = program.uniform("throng_ground_color");
  u.shadow_matrix = program.uniform("throng_shadow_matrix");
  u.shadow_params = program.uniform("throng_shadow_params");
  return u;
}

void applyShading(const ShadingUniforms& u, const FrameView& view, const FrameShading& shading) {
  glUniformMatrix4fv(u.view_projection, 1, GL_FALSE, glm::value_ptr(view.view_projection));
  const Fog& fog = view.fog;
  glUniform4f(u.fog_eye, view.eye.x, view.eye.y, view.eye.z, fog.start);
  glUniform1f(u.fog_scale, fog.enabled() ? 1.0f / (fog.end - fog.start) : 0.0f);
  glUniform3fv(u.fog_color, 1, glm::value_ptr(fog.color));
  const glm::vec3 direction = glm::normalize(view.light_direction);
  glUniform3fv(u.light_direction, 1, glm::value_ptr(direction));
  const glm::vec3 light = view.light_color * view.light_intensity;
  glUniform3fv(u.light_color, 1, glm::value_ptr(light));
  glUniform3fv(u.sky_color, 1, glm::value_ptr(view.sky_color));
  glUniform3fv(u.ground_color, 1, glm::value_ptr(view.ground_color));
  const ShadowBinding none;
  const ShadowBinding& shadow = shading.shadow ? *shading.shadow : none;
  glUniformMatrix4fv(u.shadow_matrix, 1, GL_FALSE, glm::value_ptr(shadow.matrix));
  glUniform4fv(u.shadow_params, 1, glm::value_ptr(shadow.params));
  if (shading.shadow) {
    glActiveTexture(GL_TEXTURE0 + kShadowTextureUnit);
    glBindTexture(GL_TEXTURE_2D, shadow.texture);
    glActiveTexture(GL_TEXTURE0);
  }
  if (shading.user) shading.user->apply(u.program);
}

}  // namespace throng::render
