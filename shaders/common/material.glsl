// The material of the draw (render/material_draws.h) and the ThrongSurface it makes of a fragment;
// fragment stage, after varyings.glsl. Absent textures are bound as 1x1 defaults (white; the
// normal texture's scale is then 0), so every material takes the same path.

// [0] base colour factor (linear RGBA); [1] metallic, roughness, normal scale, occlusion
// strength; [2] emissive factor x strength (linear RGB), and in w the alpha mode with its cutoff:
// MASK's cutoff (0..1), -1 for OPAQUE (no cut), -2 for BLEND (no cut, the alpha written: below
// -1.5, shade_main.glsl): no vector of its own.
uniform vec4 u_material[3];
uniform vec4 u_fog_eye;     // the eye (world), the fog's start distance
uniform float u_fog_scale;  // 1 / (fog end - start); 0: no fog
// KHR_texture_transform: uv' = (dot(row0.xyz, (uv, 1)), dot(row1.xyz, (uv, 1))) of the texture's
// uv set (0 or 1). GLSL ES 1.00 guarantees 16 fragment uniform vectors (docs/shaders.md, "Limits
// on ES 2.0 hardware"): a transform per texture takes 10 of them, so a package whose materials
// each transform all their textures alike (every package without KHR_texture_transform) gets one
// per material, THRONG_UV_TRANSFORM_PER_TEXTURE (render/material_draws.h) the others.
#ifdef THRONG_UV_TRANSFORM_PER_TEXTURE
// Per texture (base colour, metallic-roughness, normal, occlusion, emissive) its two rows; row0.w
// its uv set.
uniform vec4 u_uv_transforms[10];
#define THRONG_MATERIAL_UV(slot) \
  throngUvOf(u_uv_transforms[2 * slot], u_uv_transforms[2 * slot + 1], u_uv_transforms[2 * slot].w)
#else
// The material's one transform: its two rows; row0.w the uv set of each texture as the bits
// 1 << slot (base colour 0, metallic-roughness 1, normal 2, occlusion 3, emissive 4).
uniform vec4 u_uv_transform[2];
#define THRONG_MATERIAL_UV(slot) \
  throngUvOf(u_uv_transform[0], u_uv_transform[1], throngUvSetBit(float(slot)))
// Bit `slot` of row0.w (whole numbers below 32: exact in mediump; the 1/64 guards an inexact
// exp2).
float throngUvSetBit(float slot) {
  return mod(floor(u_uv_transform[0].w / exp2(slot) + 1.0 / 64.0), 2.0);
}
#endif
uniform sampler2D u_base_texture;       // sRGB RGBA
uniform sampler2D u_mr_texture;         // linear: G roughness, B metallic
uniform sampler2D u_normal_texture;     // linear: tangent-space normal * 0.5 + 0.5
uniform sampler2D u_occlusion_texture;  // linear: R
uniform sampler2D u_emissive_texture;   // sRGB RGB

vec2 throngUvOf(vec4 row0, vec4 row1, float uv_set) {
  vec3 uv = vec3(mix(v_uv.xy, v_uv.zw, uv_set), 1.0);
  return vec2(dot(row0.xyz, uv), dot(row1.xyz, uv));
}

// The material's alpha at this fragment (base colour factor x texture x vertex colour x tint).
float throngMaterialAlpha() {
  return u_material[0].a * throngTexture(u_base_texture, THRONG_MATERIAL_UV(0)).a * v_color.a *
         v_tint.a;
}

#include "common/surface_common.glsl"

ThrongSurface throngSurface() {
  ThrongSurface s;
  s.position = v_world;
  s.uv0 = v_uv.xy;
  s.uv1 = v_uv.zw;
  s.color = v_color;
  vec4 base = throngTexture(u_base_texture, THRONG_MATERIAL_UV(0));
  s.base_color = u_material[0] * vec4(throngSrgbToLinear(base.rgb), base.a) * v_color * v_tint;
  vec4 mr = throngTexture(u_mr_texture, THRONG_MATERIAL_UV(1));
  s.metallic = clamp(u_material[1].x * mr.b, 0.0, 1.0);
  s.roughness = clamp(u_material[1].y * mr.g, 0.0, 1.0);
  float occlusion = throngTexture(u_occlusion_texture, THRONG_MATERIAL_UV(3)).r;
  s.occlusion = 1.0 + u_material[1].w * (occlusion - 1.0);
  vec3 emissive = throngTexture(u_emissive_texture, THRONG_MATERIAL_UV(4)).rgb;
  s.emissive = u_material[2].rgb * throngSrgbToLinear(emissive);
  // The tangent frame of the interpolated vertex; on back faces (double-sided materials) all
  // three are reversed, as glTF's reference viewer does.
  vec3 n = throngUnitOrZero(v_normal);
  vec3 t = throngUnitOrZero(v_tangent.xyz);
  vec3 b = cross(n, t) * v_tangent.w;
  float side = gl_FrontFacing ? 1.0 : -1.0;
  n *= side;
  t *= side;
  b *= side;
  vec3 texel =
      throngTexture(u_normal_texture, THRONG_MATERIAL_UV(2)).rgb;
  vec3 bent = (texel * 2.0 - 1.0) * vec3(u_material[1].z, u_material[1].z, 1.0);
  s.normal = n;
  s.shading_normal = throngUnitOrZero(t * bent.x + b * bent.y + n * bent.z);
  s.tangent = vec4(t, v_tangent.w);
  throngSurfaceTail(s);
  return s;
}
