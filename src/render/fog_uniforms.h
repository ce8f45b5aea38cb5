// The fog uniforms every crowd and ground shader declares (u_fog_eye, u_fog_color), from a view.
#pragma once

#include <GLES2/gl2.h>

#include "throng/render/frame_view.h"

namespace throng::render::detail {

// Sets the two fog vectors of the program in use: (eye, start) and (colour, 1 / (end - start)),
// the latter's w 0 when the view has no fog. A location of -1 (uniform absent) is skipped by GL.
inline void setFogUniforms(GLint eye_location, GLint color_location, const FrameView& view) {
  const Fog& fog = view.fog;
  const float scale = fog.enabled() ? 1.0f / (fog.end - fog.start) : 0.0f;
  glUniform4f(eye_location, view.eye.x, view.eye.y, view.eye.z, fog.start);
  glUniform4f(color_location, fog.color.r, fog.color.g, fog.color.b, scale);
}

}  // namespace throng::render::detail
