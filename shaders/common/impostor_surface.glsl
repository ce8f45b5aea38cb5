// The impostor's surface (docs/lods.md, "Impostors at run time"): the ThrongSurface of a fragment
// of an impostor quad, blended from four view tiles x two frames of the atlases; fragment stage,
// in place of varyings.glsl and material.glsl. The colour atlas is uploaded premultiplied in
// linear light (sRGB-encoded), the normal atlas with empty texels as the zero vector, so linear
// filtering and the blend weigh each tile's colour and normal by its coverage.
#include "common/impostor_varyings.glsl"

// The names material.glsl gives them, so that shade_main.glsl and depth_main.glsl read them alike:
// [1] metallic, roughness; [2].w the alpha cut (above -1: the output opaque).
uniform vec4 u_material[3];
uniform vec4 u_fog_eye;     // the eye (world), the fog's start distance
uniform float u_fog_scale;  // 1 / (fog end - start); 0: no fog
uniform sampler2D u_impostor_color;    // sRGB RGBA8, premultiplied
uniform sampler2D u_impostor_normals;  // RGB8: 0.5 * model normal + 0.5
uniform vec4 u_impostor_atlas;         // frames (columns), views (rows), tile width, height (texels)

// `view` and `frame` are whole numbers (rounded: GLSL ES 1.00 interpolates them).
vec2 impostorUv(float view, float frame) {
  // Half a texel in from the tile's edges: filtering never reads the neighbouring tile.
  vec2 half_texel = 0.5 / u_impostor_atlas.zw;
  vec2 st = clamp(v_tile, half_texel, 1.0 - half_texel);
  return (floor(vec2(frame, view) + 0.5) + st) / u_impostor_atlas.xy;
}

// The colour atlas's premultiplied linear colour at `uv`. ES 2.0 has no sRGB textures: there the
// atlas holds the sRGB-encoded colour times alpha, so that filtering weighs texels by coverage;
// divided by alpha and decoded after filtering (neighbouring texels of other colours mix in sRGB,
// a small difference inside a tile only).
vec4 impostorColor(vec2 uv) {
  vec4 c = throngTexture(u_impostor_color, uv);
#if THRONG_GLES_VERSION < 300
  c.rgb = c.a > 0.0 ? throngSrgbToLinear(c.rgb / c.a) * c.a : vec3(0.0);
#endif
  return c;
}

// The blended premultiplied colour (linear) and model-space normal (not unit) of this fragment.
void impostorBlend(out vec4 color, out vec3 normal) {
  color = vec4(0.0);
  normal = vec3(0.0);
  for (int v = 0; v < 4; ++v) {
    for (int f = 0; f < 2; ++f) {
      float w = v_view_weights[v] * (f == 0 ? 1.0 - v_frame_weight : v_frame_weight);
      if (w <= 0.0) continue;
      vec2 uv = impostorUv(float(v_views[v]), float(f == 0 ? v_frames.x : v_frames.y));
      color += w * impostorColor(uv);
      normal += w * (throngTexture(u_impostor_normals, uv).rgb * 2.0 - 1.0);
    }
  }
}

float throngMaterialAlpha() {
  vec4 color;
  vec3 normal;
  impostorBlend(color, normal);
  return color.a * v_tint.a;
}

#include "common/surface_common.glsl"

ThrongSurface throngSurface() {
  vec4 color;
  vec3 normal;
  impostorBlend(color, normal);
  ThrongSurface s;
  s.position = v_world;
  s.uv0 = vec2(0.0);
  s.uv1 = vec2(0.0);
  s.color = vec4(1.0);
  vec3 straight = color.a > 0.0 ? color.rgb / color.a : vec3(0.0);
  s.base_color = vec4(straight, color.a) * v_tint;
  s.metallic = clamp(u_material[1].x, 0.0, 1.0);
  s.roughness = clamp(u_material[1].y, 0.0, 1.0);
  s.occlusion = 1.0;
  s.emissive = vec3(0.0);
  // Model -> world: the heading's turn (instanced.vert's turn()).
  float c = v_turn.x;
  float sn = v_turn.y;
  vec3 n = throngUnitOrZero(vec3(c * normal.x + sn * normal.z, normal.y, c * normal.z - sn * normal.x));
  s.normal = n;
  s.shading_normal = n;
  s.tangent = vec4(0.0, 0.0, 0.0, 1.0);
  throngSurfaceTail(s);
  return s;
}
