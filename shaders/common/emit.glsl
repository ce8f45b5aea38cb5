// The end of every crowd vertex shader: the user's vertex hook, then the varyings, the fog and
// the position for the camera (or, in the depth pass, the light).

uniform mat4 u_view_projection;
uniform vec4 u_fog_eye;     // eye (world), fog start distance
uniform float u_fog_scale;  // 1 / (fog end - start); 0: no fog

void throngEmit(ThrongVertex v) {
#ifdef THRONG_VERTEX_HOOK
  throngVertex(v);
#endif
  vec3 to_eye = u_fog_eye.xyz - v.position;
  float distance_to_eye = length(to_eye);
  float fog = clamp((distance_to_eye - u_fog_eye.w) * u_fog_scale, 0.0, 1.0);
  v_view = vec4(to_eye / max(distance_to_eye, 1e-6), fog);
  v_world = v.position;
  v_normal = v.normal;
  v_tangent = v.tangent;
  v_uv = vec4(v.uv0, v.uv1);
  v_color = v.color;
  v_tint = v.tint;
  v_agent = vec3(v.agent, v.state, v.lod);
  gl_Position = u_view_projection * vec4(v.position, 1.0);
}
