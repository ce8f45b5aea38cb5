#version 100
// How much a blob shadow darkens what is under it (common/blob_shadow.glsl's blobAlpha).
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform float u_opacity;   // 0..1 at the centre
uniform vec4 u_fog_eye;    // eye (world), fog start distance
uniform vec4 u_fog_color;  // fog colour, 1 / (end - start); 0 there means no fog

varying vec2 v_offset;
varying vec3 v_world;

#include "common/blob_shadow.glsl"

void main() {
  gl_FragColor = vec4(0.0, 0.0, 0.0, blobAlpha(v_offset, v_world, u_opacity, u_fog_eye, u_fog_color));
}
