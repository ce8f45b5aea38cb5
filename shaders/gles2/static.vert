#version 100
// Trivial ES2 vertex shader for meshes already skinned and placed on the CPU (the reference),
// drawn untinted.

uniform mat4 u_view_projection;
// Distance fog (FrameView::fog; the same term in every shader): blended in by the fragment shader.
uniform vec4 u_fog_eye;    // eye (world), fog start distance
uniform vec4 u_fog_color;  // fog colour, 1 / (end - start); 0 there means no fog
uniform float u_uv_set;       // the material's texture coordinates: 0 = a_uv0, 1 = a_uv1
uniform mat3 u_uv_transform;  // KHR_texture_transform of the material's texture

attribute vec3 a_position;
attribute vec3 a_normal;
attribute vec2 a_uv0;
attribute vec2 a_uv1;
attribute vec4 a_color;  // linear RGBA vertex colour (COLOR_0; white when absent)

varying vec3 v_normal;
varying vec4 v_tint;
varying vec4 v_fog;  // fogTerm
varying vec2 v_uv;
varying vec4 v_color;

// Fog colour times its amount, and the amount (0 clear .. 1 fog colour) at `world`.
vec4 fogTerm(vec3 world) {
  float amount = clamp((distance(world, u_fog_eye.xyz) - u_fog_eye.w) * u_fog_color.w, 0.0, 1.0);
  return vec4(u_fog_color.rgb * amount, amount);
}

void main() {
  v_normal = a_normal;
  v_tint = vec4(1.0);
  v_fog = fogTerm(a_position);
  v_uv = (u_uv_transform * vec3(mix(a_uv0, a_uv1, u_uv_set), 1.0)).xy;
  v_color = a_color;
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
