// The material of the draw (render/material_draws.h) and the ThrongSurface it makes of a fragment;
// fragment stage, after varyings.glsl. Absent textures are bound as 1x1 defaults (white; the
// normal texture's scale is then 0), so every material takes the same path.

// [0] base colour factor (linear RGBA); [1] metallic, roughness, normal scale, occlusion
// strength; [2] emissive factor x strength (linear RGB), alpha cutoff (-1: none); [3] x: 1 writes
// alpha 1 (OPAQUE, MASK), 0 the alpha (BLEND).
uniform vec4 u_material[4];
uniform vec4 u_fog_eye;     // the eye (world), the fog's start distance
uniform float u_fog_scale;  // 1 / (fog end - start); 0: no fog
// Per texture (base colour, metallic-roughness, normal, occlusion, emissive): the two rows of its
// KHR_texture_transform (uv' = (dot(row0.xyz, (uv, 1)), dot(row1.xyz, (uv, 1)))); row0.w is its
// uv set (0 or 1).
uniform vec4 u_uv_transforms[10];
uniform sampler2D u_base_texture;       // sRGB RGBA
uniform sampler2D u_mr_texture;         // linear: G roughness, B metallic
uniform sampler2D u_normal_texture;     // linear: tangent-space normal * 0.5 + 0.5
uniform sampler2D u_occlusion_texture;  // linear: R
uniform sampler2D u_emissive_texture;   // sRGB RGB

vec2 throngMaterialUv(vec4 row0, vec4 row1) {
  vec3 uv = vec3(mix(v_uv.xy, v_uv.zw, row0.w), 1.0);
  return vec2(dot(row0.xyz, uv), dot(row1.xyz, uv));
}

// The material's alpha at this fragment (base colour factor x texture x vertex colour x tint).
float throngMaterialAlpha() {
  return u_material[0].a * throngTexture(u_base_texture, throngMaterialUv(u_uv_transforms[0],
                                                                          u_uv_transforms[1])).a *
         v_color.a * v_tint.a;
}

vec3 throngUnitOrZero(vec3 v) {
  float length2 = dot(v, v);
  return length2 > 0.0 ? v * inversesqrt(length2) : vec3(0.0);
}

ThrongSurface throngSurface() {
  ThrongSurface s;
  s.position = v_world;
  s.uv0 = v_uv.xy;
  s.uv1 = v_uv.zw;
  s.color = v_color;
  vec4 base = throngTexture(u_base_texture, throngMaterialUv(u_uv_transforms[0], u_uv_transforms[1]));
  s.base_color = u_material[0] * vec4(throngSrgbToLinear(base.rgb), base.a) * v_color * v_tint;
  vec4 mr = throngTexture(u_mr_texture, throngMaterialUv(u_uv_transforms[2], u_uv_transforms[3]));
  s.metallic = clamp(u_material[1].x * mr.b, 0.0, 1.0);
  s.roughness = clamp(u_material[1].y * mr.g, 0.0, 1.0);
  float occlusion =
      throngTexture(u_occlusion_texture, throngMaterialUv(u_uv_transforms[6], u_uv_transforms[7])).r;
  s.occlusion = 1.0 + u_material[1].w * (occlusion - 1.0);
  vec3 emissive =
      throngTexture(u_emissive_texture, throngMaterialUv(u_uv_transforms[8], u_uv_transforms[9])).rgb;
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
      throngTexture(u_normal_texture, throngMaterialUv(u_uv_transforms[4], u_uv_transforms[5])).rgb;
  vec3 bent = (texel * 2.0 - 1.0) * vec3(u_material[1].z, u_material[1].z, 1.0);
  s.normal = n;
  s.shading_normal = throngUnitOrZero(t * bent.x + b * bent.y + n * bent.z);
  s.tangent = vec4(t, v_tangent.w);
  s.view = throngUnitOrZero(u_fog_eye.xyz - v_world);
  s.agent = floor(v_agent.x + 0.5);
  s.state = floor(v_agent.y + 0.5);
  s.lod = floor(v_agent.z + 0.5);
  return s;
}

// 1 where the surface sees the front end's light, 0 in its shadow (throngShadowAt).
float throngShadow(ThrongSurface s) {
  return throngShadowAt(s.position, s.normal);
}
