// Impostor vertex shader for ES 2.0 / WebGL 1 (docs/lods.md, "Impostors at run time"): the merged
// path's K camera-facing quads per draw, each agent's values in uniforms as the merged meshes' are
// (render/impostor_renderer.h, drawAgents). The view pick and the quad are gles3/impostor.vert's
// (common/impostor_view.glsl); the frames come picked (impostorBlend on the CPU, which plays the
// agents back: the clips' table of the ES 3.0 shader would not fit ES 2.0's 128 vectors).
// GLSL ES 1.00 behind the assembler's prelude.

attribute vec3 a_corner;  // the quad's corner (x -0.5 .. 0.5 left to right, y bottom to top), copy

// Per copy IMPOSTOR_AGENT_VECTORS vectors: position, scale; cos and sin of the heading, the two
// atlas columns; tint; agent index, state, the second column's weight, v_fade (-1: no fade).
uniform vec4 u_impostor_agents[COPIES * IMPOSTOR_AGENT_VECTORS];
uniform mat4 u_view_projection;
uniform vec4 u_impostor_camera;  // the eye (w 1), or the direction towards a light (w 0)
uniform vec4 u_impostor_grid;    // azimuths, elevations, the LOD drawn, clips
uniform vec3 u_impostor_center;  // model units (Impostor::center)
uniform vec2 u_impostor_size;    // model units (Impostor::size)

#include "common/impostor_varyings.glsl"
#include "common/impostor_view.glsl"

void main() {
  int at = int(a_corner.z + 0.5) * IMPOSTOR_AGENT_VECTORS;
  vec4 position_scale = u_impostor_agents[at];
  vec4 turn_frames = u_impostor_agents[at + 1];
  vec4 agent = u_impostor_agents[at + 3];
  vec3 position = position_scale.xyz;
  float c = turn_frames.x;
  float s = turn_frames.y;
  // World -> model: the heading's turn undone.
  vec3 to_camera = throngImpostorToCamera(u_impostor_camera, position);
  vec3 m = vec3(c * to_camera.x - s * to_camera.z, to_camera.y, s * to_camera.x + c * to_camera.z);
  throngImpostorViews(m, u_impostor_grid.x, u_impostor_grid.y, v_views, v_view_weights);
  v_frames = turn_frames.zw;
  v_frame_weight = agent.z;
  v_fade = agent.w;
  vec3 local = throngImpostorCorner(m, a_corner.xy, u_impostor_center, u_impostor_size);
  v_world = position + position_scale.w *
                           vec3(c * local.x + s * local.z, local.y, c * local.z - s * local.x);
  v_tile = vec2(a_corner.x + 0.5, 0.5 - a_corner.y);
  v_turn = vec2(c, s);
  v_tint = u_impostor_agents[at + 2];
  v_agent = vec3(agent.x, agent.y, u_impostor_grid.z);
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
