#version 310 es
// The GPU-driven crowd frame, one invocation per agent: apply the agent's commands and advance
// its state machine (Crowd::update), turn its clips into texture frames (sampleFrames,
// PlaybackJob), cull it (CullJob), pick its LOD (agentLod) and append it to its LOD's draw list.
// Every step is the CPU job's arithmetic in float; see docs/gpu_driven.md for where the two may
// differ (transcendentals, fused multiply-adds, float instead of double clip positions).
// Event crossings compare times exactly as the CPU does (forEachCrossedEvent): a multiply-add the
// compiler fused would round once where the CPU rounds twice and could move a crossing across a
// span's end. `precise` (gpu_shader5 on ES 3.1, where the device has it) forbids the fusion;
// without it the arithmetic is left to the compiler.
#if defined(GL_EXT_gpu_shader5)
#extension GL_EXT_gpu_shader5 : enable
#define THRONG_PRECISE precise
#elif defined(GL_OES_gpu_shader5)
#extension GL_OES_gpu_shader5 : enable
#define THRONG_PRECISE precise
#else
#define THRONG_PRECISE
#endif
precision highp float;
precision highp int;

// Agents per work group (ES 3.1 guarantees 128 invocations; 64 suits every vendor's wave size).
layout(local_size_x = 64) in;

// One agent (64 bytes; render/gpu_crowd.cpp packs and unpacks the same layout).
struct Agent {
  vec4 position_heading;    // world x, y, z; heading (radians)
  vec4 target_scale_speed;  // walk/run target x, z; scale; playback speed
  vec4 times;               // clip time, previous clip time, fade, unused
  uvec4 codes;  // clip | previous clip << 16; state | resume << 8 | loop << 16; agent id; 0
};
layout(std430, binding = 0) buffer Agents { Agent agents[]; };

// The frame's tables as 16-byte words: draw commands (5 words of 4 bytes each per LOD, read
// and incremented here), LOD limits, commands, clips. Offsets in words are uniforms.
layout(std430, binding = 1) buffer Frame { uint frame_words[]; };

// Per LOD, a region of u_list_capacity agent indices: the instanced attribute of the draws.
layout(std430, binding = 2) writeonly buffer Lists { uint lists[]; };

// The animation events the agents cross in a simulating pass (u_gather_events): word 0 counts
// the events asked for (atomically; past u_event_capacity they are lost and the CPU reports how
// many), then 3 words per event: agent, clip | event << 16, weight's bits. Each agent reserves
// one run for all its events, written in Crowd's order (playing clip, then the faded one; pass,
// then event): the CPU sorts the runs by agent.
layout(std430, binding = 3) buffer Events { uint event_words[]; };

// Instance records the vertex shader reads (4 texels per agent, at the agent's index).
layout(rgba32ui, binding = 0) writeonly uniform highp uimage2D u_instances;
// Per-agent tints (RGBA8), when the caller gave any.
uniform highp usampler2D u_tints;

uniform uint u_agent_count;
uniform bool u_simulate;  // apply commands and advance by u_seconds
uniform bool u_draw;      // play back, cull, pick LODs and append to the lists
uniform float u_seconds;
uniform float u_fade_step;  // u_seconds / cross-fade seconds (1 without a cross-fade)
uniform float u_turn_rate;  // radians per second
uniform float u_walk_speed;
uniform float u_run_speed;
uniform uint u_state_clip[5];  // ClipSet::state_clip: idle, walk, run, attack, dead
uniform uint u_command_first;  // word offsets into Frame (4 words per command, 12 per clip)
uniform uint u_command_count;
uniform uint u_clip_first;
uniform uint u_event_times_first;  // word offset of the events' times (clip word 6 indexes them)
uniform bool u_gather_events;
uniform uint u_event_capacity;  // events the Events buffer holds
uniform uint u_lod_first;
uniform int u_lod_count;
uniform int u_fixed_lod;  // >= 0: every agent gets it
uniform vec4 u_planes[6];  // the frustum (crowd/culling.h)
uniform vec3 u_eye;
// The impostor's cross-fade: agents of LOD x (the last mesh LOD; -1: none) at least y model units
// from the eye (at scale 1) are listed in the next LOD's (the impostor's) list too.
uniform vec2 u_fade;
// agentLod's screen-space rule when x > 0: threshold pixels, viewport height (pixels),
// tan(fov_y / 2), reach (model units); the LOD table then holds max_error, else max_distance.
uniform vec4 u_lod_screen;
uniform uint u_last_frame;  // the animation texture's last frame (frame indices are clamped)
uniform uint u_list_capacity;
uniform int u_instances_per_row;
uniform bool u_has_tints;
uniform bool u_has_ids;  // the agent's index a shader sees is its record's codes.z (else its own)
uniform bool u_has_state_tints;
uniform vec4 u_state_tints[6];
uniform bool u_lod_tint;  // debug: colour by LOD (u_lod_colors[lod % 8]) instead
uniform vec4 u_lod_colors[8];

const uint kIdle = 0u;
const uint kWalk = 1u;
const uint kRun = 2u;
const uint kAttack = 3u;
const uint kDead = 4u;
const uint kPlay = 5u;
const uint kCommandIdle = 0u;
const uint kCommandWalkTo = 1u;
const uint kCommandRunTo = 2u;
const uint kCommandAttack = 3u;
const uint kCommandDie = 4u;
const uint kCommandPlay = 5u;
const float kPi = 3.14159265358979;
// wrapAngle's loops end after this many turns: more only happens for headings past any
// sensible value (the CPU would loop for long), and a GPU must never hang on one.
const int kMaxWraps = 64;
const uint kDrawWords = 5u;  // DrawElementsIndirectCommand: count, instances, first, base, 0
// The impostor's command is a DrawArraysIndirectCommand (4 words): its fifth word, read by no
// draw, counts the cross-fade's agents also listed there (so the counters say each agent once).
const uint kFadeCountWord = 4u;
// A tick spanning more passes of a looping clip reports no further ones (kMaxEventPassesPerUpdate).
const float kMaxEventPasses = 64.0;
const uint kEventWords = 3u;

// The agent being worked on, unpacked.
vec3 g_position;
float g_heading;
vec2 g_target;
float g_scale;
float g_speed;
float g_time;
float g_previous_time;
float g_fade;
uint g_clip;
uint g_previous_clip;
uint g_state;
uint g_resume;
bool g_loop;

float clipDuration(uint clip) { return uintBitsToFloat(frame_words[u_clip_first + 12u * clip + 3u]); }

float wrapAngle(float a) {
  for (int i = 0; i < kMaxWraps && a > kPi; ++i) a -= 2.0 * kPi;
  for (int i = 0; i < kMaxWraps && a < -kPi; ++i) a += 2.0 * kPi;
  return a;
}

// Crowd::enterState.
void enterState(uint state, uint clip) {
  bool restart = state == kAttack || state == kDead || state == kPlay;
  if (clip != g_clip || restart) {
    g_previous_clip = g_clip;
    g_previous_time = g_time;
    g_fade = 1.0;
    g_clip = clip;
    g_time = 0.0;
  }
  g_state = state;
}

// Crowd::apply.
void applyCommand(uint at) {
  uint state = g_state;
  if (state == kDead) return;
  uint code = frame_words[at + 1u];
  uint type = code & 0xffu;
  switch (type) {
    case kCommandIdle:
      enterState(kIdle, u_state_clip[kIdle]);
      break;
    case kCommandWalkTo:
    case kCommandRunTo: {
      g_target = vec2(uintBitsToFloat(frame_words[at + 2u]), uintBitsToFloat(frame_words[at + 3u]));
      uint next = type == kCommandWalkTo ? kWalk : kRun;
      if (state == kAttack || (state == kPlay && !g_loop)) {
        g_resume = next;
      } else if (state != next) {
        enterState(next, u_state_clip[next]);
      }
      break;
    }
    case kCommandAttack:
      if (state != kAttack && state != kPlay) g_resume = state;
      enterState(kAttack, u_state_clip[kAttack]);
      break;
    case kCommandDie:
      enterState(kDead, u_state_clip[kDead]);
      break;
    case kCommandPlay:
      if (state != kAttack && state != kPlay) g_resume = state;
      g_loop = ((code >> 8) & 0xffu) != 0u;
      enterState(kPlay, code >> 16);
      break;
    default:
      break;
  }
}

// The agent's commands: the list is sorted by agent (stable), so they are one run, found by a
// binary search.
void applyCommands(uint agent) {
  uint low = 0u;
  uint high = u_command_count;
  while (low < high) {
    uint middle = (low + high) / 2u;
    if (frame_words[u_command_first + 4u * middle] < agent) {
      low = middle + 1u;
    } else {
      high = middle;
    }
  }
  for (uint c = low; c < u_command_count; ++c) {
    uint at = u_command_first + 4u * c;
    if (frame_words[at] != agent) break;
    applyCommand(at);
  }
}

// forEachCrossedEvent: the events of `clip` at a playback time in [from, to), counted, or
// written from event slot `at` on (while below the capacity) as (agent, clip, event, weight).
uint crossEvents(uint clip, float from, float to, bool loop, bool write, uint agent, uint at,
                 float weight) {
  uint words = u_clip_first + 12u * clip;
  uint first_event = frame_words[words + 6u];
  uint event_count = frame_words[words + 7u];
  if (!(to > from) || event_count == 0u) return 0u;
  float duration = uintBitsToFloat(frame_words[words + 3u]);
  uint crossed = 0u;
  if (!loop || !(duration > 0.0)) {
    for (uint e = 0u; e < event_count; ++e) {
      float t = uintBitsToFloat(frame_words[u_event_times_first + first_event + e]);
      if (t >= from && t < to) {
        if (write && at + crossed < u_event_capacity) {
          uint w = 1u + kEventWords * (at + crossed);
          event_words[w] = agent;
          event_words[w + 1u] = clip | (e << 16);
          event_words[w + 2u] = floatBitsToUint(weight);
        }
        ++crossed;
      }
    }
    return crossed;
  }
  float first = floor(from / duration) - 1.0;
  float last = min(floor(to / duration) + 1.0, first + 2.0 + kMaxEventPasses);
  for (float pass = first; pass <= last; pass += 1.0) {
    for (uint e = 0u; e < event_count; ++e) {
      THRONG_PRECISE float at_time =
          pass * duration + uintBitsToFloat(frame_words[u_event_times_first + first_event + e]);
      if (at_time >= from && at_time < to) {
        if (write && at + crossed < u_event_capacity) {
          uint w = 1u + kEventWords * (at + crossed);
          event_words[w] = agent;
          event_words[w + 1u] = clip | (e << 16);
          event_words[w + 2u] = floatBitsToUint(weight);
        }
        ++crossed;
      }
    }
  }
  return crossed;
}

// Crowd::advance's events of one step: the playing clip's over [time_before, g_time) (looping as
// it plays: a looped kPlay loops even a clamped clip), then the faded clip's while it showed.
void gatherEvents(uint agent, float time_before, float previous_before, float fade_before) {
  bool playing_loops = frame_words[u_clip_first + 12u * g_clip + 8u] != 0u ||
                       (g_state == kPlay && g_loop);
  bool faded_loops = frame_words[u_clip_first + 12u * g_previous_clip + 8u] != 0u;
  bool fading = fade_before > 0.0;
  uint n = crossEvents(g_clip, time_before, g_time, playing_loops, false, agent, 0u, 0.0);
  if (fading) {
    n += crossEvents(g_previous_clip, previous_before, g_previous_time, faded_loops, false, agent,
                     0u, 0.0);
  }
  if (n == 0u) return;
  uint at = atomicAdd(event_words[0], n);
  uint written = crossEvents(g_clip, time_before, g_time, playing_loops, true, agent, at,
                             1.0 - g_fade);
  if (fading) {
    crossEvents(g_previous_clip, previous_before, g_previous_time, faded_loops, true, agent,
                at + written, g_fade);
  }
}

// Crowd::update for one agent (after its commands).
void advance(uint agent) {
  float seconds = u_seconds;
  float time_before = g_time;
  float previous_before = g_previous_time;
  float fade_before = g_fade;
  THRONG_PRECISE float time_step = seconds * g_speed;
  THRONG_PRECISE float time = time_before + time_step;
  THRONG_PRECISE float previous_time = previous_before + time_step;
  g_time = time;
  g_previous_time = previous_time;
  g_fade = max(0.0, g_fade - u_fade_step);
  if (u_gather_events) gatherEvents(agent, time_before, previous_before, fade_before);
  uint state = g_state;
  float duration = clipDuration(g_clip);
  bool clip_loops = frame_words[u_clip_first + 12u * g_clip + 8u] != 0u;
  if (state == kPlay && g_loop && g_time >= duration) {
    if (!clip_loops) {
      // std::fmod, exact: one subtraction covers a time within two durations (every tick
      // shorter than the clip), where x - d * floor(x / d) could round.
      float t = g_time;
      if (!(duration > 0.0)) {
        t = 0.0;
      } else if (t < 2.0 * duration) {
        t -= duration;
      } else {
        t = t - duration * floor(t / duration);
        if (t >= duration) t -= duration;
        if (t < 0.0) t = 0.0;
      }
      g_time = t;
    }
  } else if ((state == kAttack || state == kPlay) && g_time >= duration) {
    enterState(g_resume, u_state_clip[g_resume]);
  } else if (state == kWalk || state == kRun) {
    vec2 here = g_position.xz;
    vec2 to = g_target - here;
    float distance = length(to);
    float step = (state == kWalk ? u_walk_speed : u_run_speed) * seconds * g_scale * g_speed;
    if (distance <= step) {
      g_position.x = g_target.x;
      g_position.z = g_target.y;
      enterState(kIdle, u_state_clip[kIdle]);
    } else {
      float wanted = atan(to.x, to.y);
      float turn = wrapAngle(wanted - g_heading);
      float max_turn = u_turn_rate * seconds;
      g_heading = wrapAngle(g_heading + clamp(turn, -max_turn, max_turn));
      vec2 dir = to / distance;
      g_position.x += dir.x * step;
      g_position.z += dir.y * step;
    }
  }
}

// sampleFrames in float: frame a, frame b, blend.
struct Sample {
  uint a;
  uint b;
  float blend;
};

Sample sampleFrames(uint clip, float seconds) {
  uint at = u_clip_first + 12u * clip;
  uint first = frame_words[at];
  uint frame_count = frame_words[at + 1u];
  float fps = uintBitsToFloat(frame_words[at + 2u]);
  float duration = uintBitsToFloat(frame_words[at + 3u]);
  float period = uintBitsToFloat(frame_words[at + 9u]);  // duration * fps, rounded from double
  bool loops = frame_words[at + 8u] != 0u;
  Sample s = Sample(first, first, 0.0);
  if (frame_count <= 1u || !(duration > 0.0) || !(fps > 0.0)) return s;
  float time = (isinf(seconds) || isnan(seconds)) ? 0.0 : seconds;
  uint last = frame_count - 1u;
  uint a;
  uint b;
  float blend;
  if (loops) {
    float position = time * fps;
    position = position - period * floor(position / period);
    if (position >= period) position -= period;
    if (position < 0.0) position += period;
    a = min(uint(position), last);
    b = a == last ? 0u : a + 1u;
    float step = a == last ? period - float(last) : 1.0;
    blend = step > 0.0 ? (position - float(a)) / step : 0.0;
  } else {
    float position = clamp(time * fps, 0.0, float(last));
    a = min(uint(position), last);
    b = min(a + 1u, last);
    blend = position - float(a);
  }
  s.a = first + a;
  s.b = first + b;
  s.blend = clamp(blend, 0.0, 1.0);
  return s;
}

// CullJob's axis sphere of a clip (centre height, radius: crowd/culling.h), and the axis sphere
// around two of them (mergeAxisSpheres).
vec2 clipSphere(uint clip) {
  uint at = u_clip_first + 12u * clip + 4u;
  return vec2(uintBitsToFloat(frame_words[at]), uintBitsToFloat(frame_words[at + 1u]));
}

vec2 mergeSpheres(vec2 a, vec2 b) {
  float d = abs(b.x - a.x);
  if (d + b.y <= a.y) return a;
  if (d + a.y <= b.y) return b;
  float radius = 0.5 * (d + a.y + b.y);
  return vec2(a.x + (b.x > a.x ? 1.0 : -1.0) * (radius - a.y), radius);
}

// agentLod: pickLodScreenSpace at the nearest point (u_lod_screen.x > 0), else pickLod, at
// modelDistance(distance(eye, position), scale); the CPU's float steps in the CPU's order.
int pickLod() {
  if (u_fixed_lod >= 0) return u_fixed_lod;
  float distance = length(u_eye - g_position);
  if (g_scale > 0.0) distance /= g_scale;
  if (u_lod_screen.x > 0.0) {
    float nearest = max(0.0, distance - u_lod_screen.w);
    // pixelsPerUnit: infinite at distance 0, where only LOD 0 (or an error of 0) passes.
    float budget = nearest > 0.0
                       ? u_lod_screen.x / (u_lod_screen.y / (2.0 * nearest * u_lod_screen.z))
                       : 0.0;
    for (int i = u_lod_count - 1; i > 0; --i) {
      if (uintBitsToFloat(frame_words[u_lod_first + uint(i)]) <= budget) return i;
    }
    return 0;
  }
  for (int i = 0; i < u_lod_count; ++i) {
    float limit = uintBitsToFloat(frame_words[u_lod_first + uint(i)]);
    if (limit == 0.0 || distance <= limit) return i;
  }
  return u_lod_count - 1;
}

void main() {
  uint agent = (gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x) * 64u +
               gl_LocalInvocationID.x;
  if (agent >= u_agent_count) return;
  Agent record = agents[agent];
  g_position = record.position_heading.xyz;
  g_heading = record.position_heading.w;
  g_target = record.target_scale_speed.xy;
  g_scale = record.target_scale_speed.z;
  g_speed = record.target_scale_speed.w;
  g_time = record.times.x;
  g_previous_time = record.times.y;
  g_fade = record.times.z;
  g_clip = record.codes.x & 0xffffu;
  g_previous_clip = record.codes.x >> 16;
  g_state = record.codes.y & 0xffu;
  g_resume = (record.codes.y >> 8) & 0xffu;
  g_loop = ((record.codes.y >> 16) & 0xffu) != 0u;

  if (u_simulate) {
    applyCommands(agent);
    advance(agent);
    record.position_heading = vec4(g_position, g_heading);
    record.target_scale_speed.xy = g_target;
    record.times.xyz = vec3(g_time, g_previous_time, g_fade);
    record.codes.x = g_clip | (g_previous_clip << 16);
    record.codes.y = g_state | (g_resume << 8) | ((g_loop ? 1u : 0u) << 16);
    agents[agent] = record;
  }
  if (!u_draw) return;

  // PlaybackJob: NaN fails both comparisons and ends up at 0.
  float fade = g_fade > 0.0 ? min(g_fade, 1.0) : 0.0;
  Sample primary = sampleFrames(g_clip, g_time);
  Sample secondary = fade > 0.0 ? sampleFrames(g_previous_clip, g_previous_time) : primary;

  // CullJob.
  vec2 local = clipSphere(g_clip);
  if (g_fade > 0.0) local = mergeSpheres(local, clipSphere(g_previous_clip));
  vec3 center = g_position + vec3(0.0, g_scale * local.x, 0.0);
  float radius = abs(g_scale) * local.y;
  for (int p = 0; p < 6; ++p) {
    if (dot(u_planes[p].xyz, center) + u_planes[p].w < -radius) return;
  }

  int lod = pickLod();
  uint slot = atomicAdd(frame_words[uint(lod) * kDrawWords + 1u], 1u);
  lists[uint(lod) * u_list_capacity + slot] = agent;
  if (float(lod) == u_fade.x) {
    float distance = length(u_eye - g_position);
    if (g_scale > 0.0) distance /= g_scale;
    if (distance >= u_fade.y) {
      uint next = uint(lod + 1);
      uint fade_slot = atomicAdd(frame_words[next * kDrawWords + 1u], 1u);
      lists[next * u_list_capacity + fade_slot] = agent;
      atomicAdd(frame_words[next * kDrawWords + kFadeCountWord], 1u);
    }
  }

  vec4 tint = vec4(1.0);
  if (u_has_tints) {
    ivec2 size = textureSize(u_tints, 0);
    int a = int(agent);
    tint = vec4(texelFetch(u_tints, ivec2(a % size.x, a / size.x), 0)) / 255.0;
  }
  if (u_has_state_tints) tint *= u_state_tints[g_state];
  if (u_lod_tint) tint = u_lod_colors[lod % 8];
  // instanced.vert's i_* fields (GPU_INSTANCES' loadInstance()).
  float c = cos(g_heading);
  float s = sin(g_heading);
  ivec2 at = ivec2(4 * (int(agent) % u_instances_per_row), int(agent) / u_instances_per_row);
  imageStore(u_instances, at, floatBitsToUint(vec4(g_position, g_scale)));
  imageStore(u_instances, at + ivec2(1, 0),
             floatBitsToUint(vec4(c, s, primary.blend, secondary.blend)));
  imageStore(u_instances, at + ivec2(2, 0),
             uvec4(min(primary.a, u_last_frame), min(primary.b, u_last_frame),
                   min(secondary.a, u_last_frame), min(secondary.b, u_last_frame)));
  imageStore(u_instances, at + ivec2(3, 0),
             uvec4(floatBitsToUint(fade), packUnorm4x8(tint), g_state,
                   u_has_ids ? record.codes.z : agent));
}
