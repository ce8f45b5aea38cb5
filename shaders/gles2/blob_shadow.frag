#version 100
// How much a blob shadow darkens what is under it (alpha, blended as dst * (1 - alpha)): the
// opacity at the centre falling smoothly to 0 at the radius, faded by the fog like the ground.
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

void main() {
  float r2 = dot(v_offset, v_offset);
  float falloff = r2 < 1.0 ? (1.0 - r2) * (1.0 - r2) : 0.0;
  float fog = clamp((distance(v_world, u_fog_eye.xyz) - u_fog_eye.w) * u_fog_color.w, 0.0, 1.0);
  gl_FragColor = vec4(0.0, 0.0, 0.0, u_opacity * falloff * (1.0 - fog));
}
