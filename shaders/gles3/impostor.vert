// Impostor vertex shader (docs/lods.md, "Impostors at run time"): one camera-facing quad per
// instance record (the instanced path's records, render/instance_record.h). It picks the agent's
// four view tiles and two frames exactly as impostorBlend (include/throng/core/impostor.h) does
// from the direction to the camera in the agent's model space and its playback, and places the
// quad in the plane through the agent's origin facing the camera, showing the rectangle the
// tiles show (Impostor::center, size). GLSL ES 3.00 behind the assembler's prelude.
#include "common/instance_record.glsl"

in vec2 a_corner;  // the quad's corner: x -0.5 (left) .. 0.5, y -0.5 (bottom) .. 0.5

// The agent, as instanced.vert's loadInstance() reads it: position, scale, cos and sin of the
// heading, frames, blends, fade (the secondary's weight), tint, index and state.
vec3 g_position;
float g_scale;
vec2 g_turn;
uvec4 g_frames;
vec2 g_blends;
float g_fade;
vec4 g_tint;
float g_agent;
float g_state;
#ifdef GPU_INSTANCES
// The GPU-driven path: the instance is an agent index, its record 4 texels of the compute pass's
// (render/instanced_renderer.h's IndirectInstances).
in uint i_agent;
uniform highp usampler2D u_instances;
uniform int u_instances_per_row;
void loadAgent() {
  int a = int(i_agent);
  ivec2 at = ivec2(4 * (a % u_instances_per_row), a / u_instances_per_row);
  vec4 position_scale = uintBitsToFloat(texelFetch(u_instances, at, 0));
  vec4 rotation_blend = uintBitsToFloat(texelFetch(u_instances, at + ivec2(1, 0), 0));
  g_frames = texelFetch(u_instances, at + ivec2(2, 0), 0);
  uvec4 last = texelFetch(u_instances, at + ivec2(3, 0), 0);
  g_position = position_scale.xyz;
  g_scale = position_scale.w;
  g_turn = rotation_blend.xy;
  g_blends = rotation_blend.zw;
  g_fade = uintBitsToFloat(last.x);
  g_tint = vec4((uvec4(last.y) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu) / 255.0;
  g_state = float(last.z & 0xffu);
  g_agent = float(last.w);
}
#else
in uvec4 i_record0;
in uvec4 i_record1;
in uvec4 i_record2;
void loadAgent() {
  g_position = uintBitsToFloat(i_record0.xyz);
  g_scale = unpackHalf2x16(i_record0.w >> 16).x;
  float heading = float(i_record0.w & 0xffffu) * (6.283185307179586 / 65536.0);
  g_turn = vec2(cos(heading), sin(heading));
  g_frames = recordFrames(i_record1);
  vec4 bytes = recordBytes(i_record1.z);
  g_blends = bytes.xy / 255.0;
  g_fade = bytes.z / 255.0;
  g_tint = recordBytes(i_record1.w) / 255.0;
  g_agent = float(i_record2.x);
  g_state = float(i_record2.y & 0xffu);
}
#endif

uniform mat4 u_view_projection;
// xyz: the eye (w 1), or for an orthographic view (a light's) the unit direction towards it (w 0).
uniform vec4 u_impostor_camera;
uniform vec4 u_impostor_grid;    // azimuths, elevations, the LOD drawn, clips
uniform vec3 u_impostor_center;  // model units (Impostor::center)
uniform vec2 u_impostor_size;    // model units (Impostor::size)
// Per clip two vectors: its texture frames (first, last), baked fps, duration; its atlas columns
// (first, count), 1 looping (else 0), frame steps of a cycle (duration * fps).
uniform vec4 u_impostor_clips[2 * IMPOSTOR_CLIPS];
// The cross-fade (common/fade.glsl): the first u_fade_instances records are the last mesh LOD's,
// drawn as impostors only within the band (instanced.vert's u_fade_eye and u_fade_band).
uniform int u_fade_instances;
uniform vec3 u_fade_eye;
uniform vec2 u_fade_band;

#include "common/impostor_varyings.glsl"
#include "common/impostor_view.glsl"

// The clip time the record's frame pair and blend show (sampleFrames inverted): the clip is the
// one whose texture frames hold frame a; a looping clip's last step spans what is left of its
// cycle. Out: the clip.
float recordTime(uint a, float blend, out int clip) {
  clip = 0;
  for (int k = 0; k < IMPOSTOR_CLIPS; ++k) {
    vec4 c = u_impostor_clips[2 * k];
    if (float(a) >= c.x && float(a) <= c.x + c.y) clip = k;
  }
  vec4 frames = u_impostor_clips[2 * clip];
  vec4 atlas = u_impostor_clips[2 * clip + 1];
  if (frames.z <= 0.0) return 0.0;
  float local = float(a) - frames.x;
  float step = atlas.z > 0.5 && local >= frames.y ? atlas.w - frames.y : 1.0;
  return (local + blend * step) / frames.z;
}

void main() {
  loadAgent();
  vec3 position = g_position;
  float scale = g_scale;
  v_fade = -1.0;
#ifdef GPU_INSTANCES
  // The GPU-driven path lists the band's agents here and in the last mesh LOD's list: each
  // agent's weight from its distance (1 past the band: never dropped).
  if (u_fade_band.y > 0.0) {
    v_fade = -clamp((length(position - u_fade_eye) / scale - u_fade_band.x) * u_fade_band.y, 0.0,
                    1.0);
  }
#else
  if (gl_InstanceID < u_fade_instances) {
    float w = u_fade_band.y > 0.0
                  ? clamp((length(position - u_fade_eye) / scale - u_fade_band.x) * u_fade_band.y,
                          0.0, 1.0)
                  : 0.0;
    if (w <= 0.0) {
      // Before the band: the mesh alone. Past the far plane, no fragment.
      gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
      return;
    }
    v_fade = -w;
  }
#endif
  float c = g_turn.x;
  float s = g_turn.y;
  // World -> model: the heading's turn (instanced.vert's turn()) undone.
  vec3 to_camera = throngImpostorToCamera(u_impostor_camera, position);
  vec3 m = vec3(c * to_camera.x - s * to_camera.z, to_camera.y, s * to_camera.x + c * to_camera.z);
  vec4 views;
  throngImpostorViews(m, u_impostor_grid.x, u_impostor_grid.y, views, v_view_weights);
  v_views = uvec4(views + 0.5);

  // Frames: the dominant clip of a cross-fade (the fade is the secondary's weight).
  bool secondary = g_fade > 0.5;
  int clip = 0;
  float time = secondary ? recordTime(g_frames.z, g_blends.y, clip)
                         : recordTime(g_frames.x, g_blends.x, clip);
  vec4 clip_frames = u_impostor_clips[2 * clip];
  vec4 atlas = u_impostor_clips[2 * clip + 1];
  float n = atlas.y;
  float phase = clip_frames.w > 0.0 ? time / clip_frames.w : 0.0;
  float k0;
  float k1;
  float wf;
  if (clip_frames.w <= 0.0 || n < 1.5) {
    k0 = 0.0;
    k1 = 0.0;
    wf = 0.0;
  } else if (atlas.z > 0.5) {
    float f = (phase - floor(phase)) * n;
    float f0 = floor(f);
    k0 = min(f0, n - 1.0);
    k1 = k0 + 1.0 >= n ? 0.0 : k0 + 1.0;
    wf = clamp(f - f0, 0.0, 1.0);
  } else {
    float f = clamp(phase, 0.0, 1.0) * (n - 1.0);
    k0 = floor(f);
    wf = f - k0;
    k1 = min(k0 + 1.0, n - 1.0);
  }
  v_frames = uvec2(uint(atlas.x + k0), uint(atlas.x + k1));
  v_frame_weight = wf;

  vec3 local = throngImpostorCorner(m, a_corner, u_impostor_center, u_impostor_size);
  v_world = position + scale * vec3(c * local.x + s * local.z, local.y, c * local.z - s * local.x);
  v_tile = vec2(a_corner.x + 0.5, 0.5 - a_corner.y);
  v_turn = vec2(c, s);
  v_tint = g_tint;
  v_agent = vec3(g_agent, g_state, u_impostor_grid.z);
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
