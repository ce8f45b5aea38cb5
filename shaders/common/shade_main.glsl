// The fragment stage's main: the surface, the material's alpha cut, the shading (the user's or the
// built-in throngShade), then throng's output encoding (sRGB) and the fog, mixed in the encoded
// colours as the ground and the clear colour are.

uniform vec3 throng_fog_color;  // in the encoded colours

#include "common/fade.glsl"

void main() {
#ifdef IMPOSTOR_FADE
  if (throngFadeDrops(v_fade)) discard;
#endif
  ThrongSurface s = throngSurface();
  if (s.base_color.a < u_material[2].w) discard;
  vec4 shaded = throngShade(s);
  vec3 encoded = throngLinearToSrgb(clamp(shaded.rgb, 0.0, 1.0));
  float fog = clamp((length(u_fog_eye.xyz - v_world) - u_fog_eye.w) * u_fog_scale, 0.0, 1.0);
  // BLEND (cutoff -2, material.glsl) writes the alpha, OPAQUE and MASK 1.
  THRONG_FRAG_COLOR = vec4(encoded * (1.0 - fog) + throng_fog_color * fog,
                           u_material[2].w < -1.5 ? shaded.a : 1.0);
}
