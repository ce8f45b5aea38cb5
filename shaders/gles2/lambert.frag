#version 100
// Shared ES2 fragment shader: the instanced path's shading (shaders/gles3/lit.frag), so ES2 and
// ES3 images compare: Lambert + ambient of the material (factor x sRGB texture x vertex colour)
// times the character's tint, alpha as the material's mode says, written sRGB-encoded, then the
// fog.
precision mediump float;

uniform vec3 u_light_direction;  // world-space direction the light travels, normalised
uniform float u_ambient;         // 0..1 share of light that reaches every surface
uniform vec4 u_base_color;       // the material's linear RGBA factor
uniform sampler2D u_base_texture;  // sRGB-encoded RGBA8 (alpha linear)
uniform float u_textured;        // 1: multiply the texture in
uniform float u_alpha_cutoff;    // fragments whose alpha is below it are cut (MASK; else -1)
uniform float u_opaque;          // 1: write alpha 1 (OPAQUE, MASK); 0: the alpha (BLEND)

varying vec3 v_normal;
varying vec4 v_tint;
varying vec4 v_fog;  // fog colour * amount, amount (computed per vertex)
varying vec2 v_uv;
varying vec4 v_color;

vec3 srgbToLinear(vec3 c) {
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c));
}
vec3 linearToSrgb(vec3 c) {
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

void main() {
  vec4 color = u_base_color * v_color * v_tint;
  if (u_textured > 0.5) {
    vec4 texel = texture2D(u_base_texture, v_uv);
    color *= vec4(srgbToLinear(texel.rgb), texel.a);
  }
  if (color.a < u_alpha_cutoff) discard;
  // Back faces (double-sided materials) are lit from their own side.
  vec3 n = normalize(gl_FrontFacing ? v_normal : -v_normal);
  float diffuse = max(dot(n, -u_light_direction), 0.0);
  vec3 lit = linearToSrgb(clamp(color.rgb * (u_ambient + (1.0 - u_ambient) * diffuse), 0.0, 1.0));
  gl_FragColor = vec4(lit * (1.0 - v_fog.a) + v_fog.rgb, mix(color.a, 1.0, u_opaque));
}
