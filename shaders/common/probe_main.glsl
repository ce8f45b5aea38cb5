// A fragment stage that reads every varying and no uniform: linked with a crowd vertex shader, the
// program's active uniforms are the vertex stage's alone (the merged path's budget counts them).
void main() {
  THRONG_FRAG_COLOR = v_tangent + v_uv + v_color + v_tint +
                      vec4(v_world + v_normal + v_agent, 1.0);
}
