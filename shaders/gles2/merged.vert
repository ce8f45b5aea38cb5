// Merged batch (method A): K characters in one draw; each vertex's joints index the batch palette
// (copy k: k*x .. k*x+x-1), whose entries already include the character's placement.
// COPIES (= K), JOINTS_PER_COPY (= x) and JOINT_VECTORS (the joint encoding's vec4 per joint: 3,
// the rows of a 3x4 matrix, or 2, quaternion + translation and uniform scale) are #defined by the
// renderer; the shader assembler (render/shader_assembly.h) puts the version, the precision and
// common/prelude.glsl (with the user's file) before it. Seven attributes (eight with morph
// animation): ES 2.0 guarantees 8.

// Each placed skinning matrix: its 3 rows, or (JOINT_VECTORS 2) its rotation quaternion (x, y, z,
// w) and its translation with its uniform scale in w (core/joint_encoding.h, QuatJoint).
uniform vec4 u_palette[COPIES * JOINTS_PER_COPY * JOINT_VECTORS];
// Per character, one vector (render/merged_batch.h, packMergedAgent): its agent index; its tint's
// RGB bytes as r + 256 g + 65536 b; its tint's alpha byte + 256 state + 2048 appearance (material
// variant); its LOD + 256 * its hidden props (bit i: prop i; render/merged_batch.h). Whole
// numbers below 2^24: exact in the vertex stage's highp floats.
uniform vec4 u_agent[COPIES];
#ifdef IMPOSTOR_FADE
// The impostor's cross-fade (common/fade.glsl): each copy's weight, four copies a vector (0: not
// in the band). Only the last mesh LOD's programs have it (MergedBatchDesc::fade_lod).
uniform vec4 u_fade[(COPIES + 3) / 4];
#endif

// xyz bind position; w the vertex's look row (material variants) + 256 * its prop group (0 the
// character's own, i + 1 prop i)
attribute vec4 a_position;
attribute vec3 a_normal;
attribute vec4 a_tangent;  // xyz tangent, w handedness (0 when the mesh has none)
attribute vec4 a_uv;       // uv0, uv1
attribute vec4 a_color;    // linear RGBA vertex colour (COLOR_0; white when absent)
attribute vec4 a_joints;   // floats: GLSL ES 1.00 has no integer attributes
attribute vec4 a_weights;

#if defined(MORPH_VAT) || defined(MORPH_DELTAS)
// Baked morph animation (docs/morph.md "Texture layout"), as instanced.vert fetches it, in
// GLSL ES 1.00: no integers, no texelFetch, so texel i is read at its centre, computed in highp
// float (exact: indices stay far below 2^24). Block b's vertex v has texels
// (b * vertices + v) * 2 + k (k = 0 position, 1 normal); blocks are the animation texture's
// frames (VAT) or the active targets (deltas, whose per-frame weights follow from row
// u_morph_layout.w, 4 a texel). The arithmetic is FrameMorphJob's (crowd/frame_morph.h), in its
// mix order; the result is skinned like a mesh vertex.
attribute float a_vertex;  // the mesh vertex this buffer vertex copies: its texels
uniform highp sampler2D u_morph;
uniform highp vec4 u_morph_layout;  // width, height, vertices per block, first weight row
// Per character two vectors: its frames (primary pair, fading clip's pair), then (primary blend,
// fading clip's blend, fade, 0).
uniform highp vec4 u_morph_frames[COPIES * 2];

highp vec4 morphFetch(highp float i) {
  highp float y = floor((i + 0.5) / u_morph_layout.x);
  highp float x = i - y * u_morph_layout.x;
  return texture2DLod(u_morph, vec2((x + 0.5) / u_morph_layout.x, (y + 0.5) / u_morph_layout.y),
                      0.0);
}

highp float morphTexel(highp float block) {
  return (block * u_morph_layout.z + a_vertex) * 2.0;
}

#ifdef MORPH_VAT
// Texel k of this vertex at frame pair (a, b) blended by `blend`.
vec3 framePair(highp float a, highp float b, float blend, float k) {
  return mix(morphFetch(morphTexel(a) + k).xyz, morphFetch(morphTexel(b) + k).xyz, blend);
}

vec3 morphFrames(highp vec4 frames, vec4 blends, float k) {
  vec3 primary = framePair(frames.x, frames.y, blends.x, k);
  if (blends.z > 0.0)
    return mix(primary, framePair(frames.z, frames.w, blends.y, k), blends.z);
  return primary;
}

void morphVertex(int character, inout vec3 p, inout vec3 n) {
  highp vec4 frames = u_morph_frames[character * 2];
  vec4 blends = u_morph_frames[character * 2 + 1];
  p = morphFrames(frames, blends, 0.0);
  n = morphFrames(frames, blends, 1.0);
}
#else
// MORPH_TARGETS (the active targets) is #defined by the renderer: loops need constant bounds.
float frameWeight(highp float frame, float target) {
  float q = floor(target * 0.25 + 0.01);
  vec4 w = morphFetch(u_morph_layout.w * u_morph_layout.x +
                      frame * float((MORPH_TARGETS + 3) / 4) + q);
  return dot(w, vec4(equal(vec4(target - 4.0 * q), vec4(0.0, 1.0, 2.0, 3.0))));
}

void morphVertex(int character, inout vec3 p, inout vec3 n) {
  highp vec4 frames = u_morph_frames[character * 2];
  vec4 blends = u_morph_frames[character * 2 + 1];
  for (int i = 0; i < MORPH_TARGETS; ++i) {
    float t = float(i);
    float w = mix(frameWeight(frames.x, t), frameWeight(frames.y, t), blends.x);
    if (blends.z > 0.0) {
      w = mix(w, mix(frameWeight(frames.z, t), frameWeight(frames.w, t), blends.y), blends.z);
    }
    // A target at rest this frame costs no fetch (docs/morph.md: the per-vertex cost).
    if (w == 0.0) continue;
    highp float at = morphTexel(t);
    p += w * morphFetch(at).xyz;
    n += w * morphFetch(at + 1.0).xyz;
  }
}
#endif
#endif

#include "common/varyings.glsl"
#include "common/emit.glsl"

// Material variants (render/material_draws.h): this draw's material, and material(row,
// appearance) for every look row, 4 entries per vector. Only when LOOKS is #defined (a package
// with variants): the table's 16 vectors would cost every other character palette room.
#ifdef LOOKS
uniform float u_look_appearances;  // appearances (variants + 1); 0: no variants, draw everything
uniform float u_look_material;
uniform vec4 u_looks[16];  // kLookVectors

// True when the vertex's sub-mesh (look row `row`) is not in this draw's material for an agent
// of `appearance` (0: own materials; past the last variant: own materials too).
bool lookHidden(float row, float appearance) {
  if (u_look_appearances < 0.5) return false;
  float a = appearance < u_look_appearances - 0.5 ? appearance : 0.0;
  float i = row * u_look_appearances + a;
  float q = floor(i * 0.25 + 0.01);
  float m = dot(u_looks[int(q)], vec4(equal(vec4(i - 4.0 * q), vec4(0.0, 1.0, 2.0, 3.0))));
  return abs(m - u_look_material) > 0.5;
}
#else
bool lookHidden(float row, float appearance) { return false; }
#endif

// Joint `joint`'s matrix times p (w = 1: a point, w = 0: a direction). Both encodings give the
// same value for a similarity transform, and the influences are blended after it either way.
vec3 skinPoint(float joint, vec4 p) {
  int r = int(joint + 0.5) * JOINT_VECTORS;
#if JOINT_VECTORS == 2
  vec4 q = u_palette[r];
  vec4 ts = u_palette[r + 1];
  vec3 rotated = p.xyz + 2.0 * cross(q.xyz, cross(q.xyz, p.xyz) + q.w * p.xyz);
  return ts.w * rotated + ts.xyz * p.w;
#else
  return vec3(dot(u_palette[r], p), dot(u_palette[r + 1], p), dot(u_palette[r + 2], p));
#endif
}

vec3 skin(vec4 p) {
  return a_weights.x * skinPoint(a_joints.x, p) + a_weights.y * skinPoint(a_joints.y, p) +
         a_weights.z * skinPoint(a_joints.z, p) + a_weights.w * skinPoint(a_joints.w, p);
}

// Whether bit `group` - 1 of `hidden` is set (group 0, the character's own: never). Halving and
// floor are exact on these whole numbers; GLSL ES 1.00 has no integer bit operations.
bool propHidden(float group, float hidden) {
  if (group < 0.5) return false;
  for (int i = 1; i < 16; ++i) {  // kMaxAttachments
    if (float(i) > group - 0.5) break;
    hidden = floor(hidden * 0.5);
  }
  return hidden - 2.0 * floor(hidden * 0.5) > 0.5;
}

void main() {
  // Every joint of a vertex lies in its own copy's palette range.
  int character = int(a_joints.x + 0.5) / JOINTS_PER_COPY;
  vec4 agent = u_agent[character];
  // Divisions by powers of two: exact.
  float appearance = floor(agent.z / 2048.0);
  float alpha_state = agent.z - appearance * 2048.0;
  float state = floor(alpha_state / 256.0);
  float hidden = floor(agent.w / 256.0);
  float group = floor(a_position.w / 256.0);
  if (lookHidden(a_position.w - 256.0 * group, appearance) || propHidden(group, hidden)) {
    // Every such vertex goes to one point past the far plane: its triangles are clipped.
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
    return;
  }
  vec3 position = a_position.xyz;
  vec3 normal = a_normal;
#if defined(MORPH_VAT) || defined(MORPH_DELTAS)
  morphVertex(character, position, normal);
#endif
  ThrongVertex v;
  v.position = skin(vec4(position, 1.0));
  v.normal = skin(vec4(normal, 0.0));
  v.tangent = vec4(skin(vec4(a_tangent.xyz, 0.0)), a_tangent.w);
  v.uv0 = a_uv.xy;
  v.uv1 = a_uv.zw;
  v.color = a_color;
  float blue = floor(agent.y / 65536.0);
  float green = floor((agent.y - blue * 65536.0) / 256.0);
  float red = agent.y - blue * 65536.0 - green * 256.0;
  v.tint = vec4(red, green, blue, alpha_state - state * 256.0) / 255.0;
  v.agent = agent.x;
  v.state = state;
  v.lod = agent.w - 256.0 * hidden;
#ifdef IMPOSTOR_FADE
  float quad = floor(float(character) * 0.25 + 0.01);
  v_fade = dot(u_fade[int(quad)], vec4(equal(vec4(float(character) - 4.0 * quad),
                                             vec4(0.0, 1.0, 2.0, 3.0))));
#endif
  throngEmit(v);
}
