// The built-in look: glTF 2.0 metallic-roughness (the specification's Appendix B: Lambert diffuse,
// GGX distribution, separable Smith-GGX visibility, Schlick Fresnel) under FrameView's one
// directional light, shadowed by the front end's map, plus hemisphere ambient light and emission.
// docs/shaders.md writes the formula out; it is kept mediump-safe (see there).

// Perceptual roughness is clamped to at least this: below it the GGX peak 1 / (pi alpha^2) and
// its intermediate products leave mediump's range (2^14).
const float kThrongMinRoughness = 0.089;

// The lit colour of `s` (linear RGB, not clamped), without alpha.
vec3 throngPbr(ThrongSurface s) {
  vec3 n = s.shading_normal;
  vec3 v = s.view;
  vec3 l = -throng_light_direction;
  vec3 c = s.base_color.rgb;
  vec3 f0 = mix(vec3(0.04), c, s.metallic);
  vec3 c_diff = mix(c, vec3(0.0), s.metallic);
  float nl = clamp(dot(n, l), 0.0, 1.0);
  float nv = clamp(abs(dot(n, v)), 1e-4, 1.0);
  vec3 half_vector = throngUnitOrZero(l + v);
  float nh = clamp(dot(n, half_vector), 0.0, 1.0);
  float vh = clamp(dot(v, half_vector), 0.0, 1.0);
  float roughness = max(s.roughness, kThrongMinRoughness);
  float alpha = roughness * roughness;
  float alpha2 = alpha * alpha;
  vec3 fresnel = f0 + (1.0 - f0) * pow(1.0 - vh, 5.0);
  // pi * D = k^2 with k = alpha / (1 - (n.h)^2 + (n.h alpha)^2); 1 - (n.h)^2 = |n x h|^2, which
  // keeps its precision where n.h is near 1.
  vec3 nxh = cross(n, half_vector);
  float k = alpha / (dot(nxh, nxh) + nh * nh * alpha2);
  // V = G / (4 n.l n.v), Smith's separable form.
  float visibility = 1.0 / ((nl + sqrt(alpha2 + (1.0 - alpha2) * nl * nl)) *
                            (nv + sqrt(alpha2 + (1.0 - alpha2) * nv * nv)));
  // pi * f * n.l: the light's colour is what a white Lambert surface facing it reflects.
  vec3 direct = ((1.0 - fresnel) * c_diff + fresnel * (k * k * visibility)) * nl;
  vec3 hemisphere = mix(throng_ground_color, throng_sky_color, 0.5 + 0.5 * n.y);
  vec3 ambient = hemisphere * s.occlusion * (c_diff * (1.0 - f0) + f0);
  return ambient + direct * throng_light_color * throngShadow(s) + s.emissive;
}
