#version 300 es
// blob_shadow_listed.vert's fragment stage: gles2/blob_shadow.frag's darkening in GLSL ES 3.00
// (a program's stages share one version).
precision highp float;

uniform float u_opacity;   // 0..1 at the centre
uniform vec4 u_fog_eye;    // eye (world), fog start distance
uniform vec4 u_fog_color;  // fog colour, 1 / (end - start); 0 there means no fog

in vec2 v_offset;
in vec3 v_world;

out vec4 frag_color;

#include "common/blob_shadow.glsl"

void main() {
  frag_color = vec4(0.0, 0.0, 0.0, blobAlpha(v_offset, v_world, u_opacity, u_fog_eye, u_fog_color));
}
