#version 100
// Shared ES2 fragment shader: the instanced path's shading (shaders/gles3/lit.frag), so ES2 and
// ES3 images compare: Lambert + ambient, base colour times the character's tint, then the fog.
precision mediump float;

uniform vec3 u_light_direction;  // world-space direction the light travels, normalised
uniform float u_ambient;         // 0..1 share of light that reaches every surface

varying vec3 v_normal;
varying vec4 v_tint;
varying vec4 v_fog;  // fog colour * amount, amount (computed per vertex)

const vec3 kBaseColor = vec3(0.8);

void main() {
  vec3 n = normalize(v_normal);
  float diffuse = max(dot(n, -u_light_direction), 0.0);
  vec3 lit = kBaseColor * v_tint.rgb * (u_ambient + (1.0 - u_ambient) * diffuse);
  gl_FragColor = vec4(lit * (1.0 - v_fog.a) + v_fog.rgb, v_tint.a);
}
