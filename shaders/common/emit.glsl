// The end of every crowd vertex shader: the user's vertex hook, then the varyings and the
// position for the camera (or, in the depth pass, the light). Its one uniform is the merged path's
// only cost besides the palettes (the view and the fog are the fragment stage's: material.glsl).

uniform mat4 u_view_projection;

void throngEmit(ThrongVertex v) {
#ifdef THRONG_VERTEX_HOOK
  throngVertex(v);
#endif
  v_world = v.position;
  v_normal = v.normal;
  v_tangent = v.tangent;
  v_uv = vec4(v.uv0, v.uv1);
  v_color = v.color;
  v_tint = v.tint;
  v_agent = vec3(v.agent, v.state, v.lod);
  gl_Position = u_view_projection * vec4(v.position, 1.0);
}
