#version 100
// The ground's colour: a Lambert surface under the characters' light (FrameView: the sky's ambient
// light, as the normal points up, plus the directional light, shadowed by the front end's shadow
// map when there is one), grid lines about a pixel wide that fade out where cells get too small
// to show, then the fog per pixel. Its colours are taken as they are shown (as the fog's).
#ifdef GL_FRAGMENT_PRECISION_HIGH
precision highp float;
#else
precision mediump float;
#endif

uniform vec3 u_color;            // ground base colour
uniform vec4 u_line;             // line colour, strength of the lines (0: no grid)
uniform vec2 u_cell;             // world units between minor lines, between major lines
uniform float u_pixel_angle;     // 2 tan(fov_y / 2) / viewport height: a pixel's size at distance 1
uniform vec3 throng_light_direction;  // world-space direction the light travels, unit
uniform vec3 throng_light_color;      // colour x intensity
uniform vec3 throng_sky_color;        // the hemisphere's light from above
uniform vec4 u_fog_eye;          // eye (world), fog start distance
uniform vec4 u_fog_color;        // fog colour, 1 / (end - start); 0 there means no fog

varying vec3 v_world;

#define throngTexture texture2D
#include "common/shadow.glsl"

// Coverage (0..1) of lines every `cell` world units at `p` (world x, z), whose pixel spans
// `footprint` world units along x and z: a line one pixel wide, faded out where a cell is under
// four pixels (the lines would alias into a moire).
float gridLines(vec2 p, vec2 footprint, float cell) {
  vec2 pixels = footprint / cell;  // one pixel in cells, along x and z
  vec2 to_line = abs(fract(p / cell - 0.5) - 0.5) / max(pixels, vec2(1e-6));
  float line = 1.0 - min(min(to_line.x, to_line.y), 1.0);
  return line * (1.0 - smoothstep(0.125, 0.25, max(pixels.x, pixels.y)));
}

void main() {
  vec3 to_point = v_world - u_fog_eye.xyz;
  float distance_to_eye = length(to_point);
  vec3 d = to_point / max(distance_to_eye, 1e-6);
  // A pixel seen at this distance and angle covers L across the view and L / |d.y| along it.
  float size = distance_to_eye * u_pixel_angle;
  vec2 radial = length(d.xz) > 1e-6 ? normalize(d.xz) : vec2(0.0);
  float stretch = 1.0 / max(abs(d.y), 0.02);
  vec2 footprint = size * sqrt(radial * radial * stretch * stretch + (1.0 - radial * radial));
  float line = max(gridLines(v_world.xz, footprint, u_cell.x) * 0.5,
                   gridLines(v_world.xz, footprint, u_cell.y));
  vec3 base = mix(u_color, u_line.rgb, line * u_line.a);
  float diffuse = max(-throng_light_direction.y, 0.0) * throngShadowAt(v_world, vec3(0.0, 1.0, 0.0));
  vec3 lit = base * (throng_sky_color + throng_light_color * diffuse);
  float fog = clamp((distance_to_eye - u_fog_eye.w) * u_fog_color.w, 0.0, 1.0);
  gl_FragColor = vec4(lit * (1.0 - fog) + u_fog_color.rgb * fog, 1.0);
}
