// The front end's shadow map (CrowdRendererDesc::shadows = kMap), sampled with 3x3 PCF; fragment
// stage. Needs throngTexture (texture2D or texture) defined before it.

uniform sampler2D throng_shadow_map;  // depth 0..1 in .r
uniform mat4 throng_shadow_matrix;    // world -> map: xy texture coordinates, z depth (0..1)
uniform vec4 throng_shadow_params;    // 1 / map size, depth bias, normal offset (world), 1 = on

// 1 where `world` (offset along the unit `normal`) sees the light, 0 in shadow, between at
// shadow edges; 1 when no map is in use or the point lies outside it.
float throngShadowAt(vec3 world, vec3 normal) {
  if (throng_shadow_params.w < 0.5) return 1.0;
  vec4 at = throng_shadow_matrix * vec4(world + normal * throng_shadow_params.z, 1.0);
  vec3 c = at.xyz / at.w;
  if (c.x <= 0.0 || c.x >= 1.0 || c.y <= 0.0 || c.y >= 1.0 || c.z >= 1.0) return 1.0;
  float depth = c.z - throng_shadow_params.y;
  float lit = 0.0;
  for (int i = -1; i <= 1; ++i) {
    for (int j = -1; j <= 1; ++j) {
      vec2 uv = c.xy + vec2(float(i), float(j)) * throng_shadow_params.x;
      lit += step(depth, throngTexture(throng_shadow_map, uv).r);
    }
  }
  return lit / 9.0;
}
