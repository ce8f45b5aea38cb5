#version 300 es
// Lambert + ambient shading of skinned crowds, tinted per instance, then the fog.
precision mediump float;

uniform vec3 u_light_direction;  // world-space direction the light travels, normalised
uniform float u_ambient;         // 0..1 share of light that reaches every surface

in vec3 v_world_normal;
in vec4 v_tint;
in vec4 v_fog;  // fog colour * amount, amount (computed per vertex)

out vec4 o_color;

const vec3 kBaseColor = vec3(0.8);

void main() {
  vec3 n = normalize(v_world_normal);
  float diffuse = max(dot(n, -u_light_direction), 0.0);
  vec3 lit = kBaseColor * v_tint.rgb * (u_ambient + (1.0 - u_ambient) * diffuse);
  o_color = vec4(lit * (1.0 - v_fog.a) + v_fog.rgb, v_tint.a);
}
