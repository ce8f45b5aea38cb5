// Method B vertex shader: skins one vertex of one instance from the baked animation texture
// (or, with PALETTE_TEXTURE, from the palette the palette pass blended for it this frame).
// The palette blend is exactly FramePaletteJob's (include/throng/crowd/frame_palette.h):
//   palette = (1 - fade) * mix(P[a], P[b], blend) + fade * mix(S[a], S[b], blend2)
// and skinning is SkinJob's: p' = sum_i w_i * (M_i * p), n' = sum_i w_i * (M_i3x3 * n), tangents
// like normals. GLSL ES 3.00: the shader assembler (render/shader_assembly.h) puts the version,
// the precision and common/prelude.glsl (with the user's file) before it.
precision highp sampler2D;

uniform sampler2D u_animation;  // RGBA32F or RGBA16F, 3 texels (matrix rows) per joint
uniform int u_base_row;  // the character's first row (several characters share a texture)
uniform int u_frames_per_row;
uniform int u_texels_per_frame;  // 3 * joint count
uniform int u_rows_per_frame;    // 1, or more when a frame is wider than the texture
uniform int u_joints_per_row;    // joint count, or width / 3 when a frame spans rows
uniform float u_lod;  // the LOD this draw draws

in vec3 a_position;  // model space, bind pose
in vec3 a_normal;
in vec4 a_tangent;   // xyz tangent, w handedness (0 when the mesh has none)
in uvec4 a_joints;   // skeleton joints (texture columns)
in vec4 a_weights;
in vec2 a_uv0;
in vec2 a_uv1;
in vec4 a_color;  // linear RGBA vertex colour (COLOR_0; white when absent)
in float a_look;  // the vertex's look row (material variants)

#ifdef GPU_INSTANCES
// The GPU-driven path (render/gpu_crowd.h): the instance is an agent index, its record 4 texels
// the crowd's compute pass wrote (the same fields as the attributes below).
in uint i_agent;
uniform highp usampler2D u_instances;
uniform int u_instances_per_row;
vec4 i_position_scale;
vec4 i_rotation_blend;
uvec4 i_frames;
float i_fade;
vec4 i_tint;
float i_variant;     // appearance: 0 own materials, v material variant v - 1
float i_agent_index;
float i_state;
uint i_attachments;  // visible props: bit i shows prop i
uvec3 i_layer;       // the layer's words (render/instance_record.h's encodeLayerWords)
// Per agent, its appearance | its visible props << 8, and its layer's words: a texel of the
// CPU's (u_has_agent_extras).
uniform highp usampler2D u_agent_extras;
uniform bool u_has_agent_extras;
uniform int u_agent_extras_per_row;
void loadInstance() {
  int a = int(i_agent);
  i_attachments = 0xffffu;
  i_layer = uvec3(0u);
  i_variant = 0.0;
  if (u_has_agent_extras) {
    uvec4 extras = texelFetch(u_agent_extras,
                              ivec2(a % u_agent_extras_per_row, a / u_agent_extras_per_row), 0);
    i_variant = float(extras.x & 0xffu);
    i_attachments = extras.x >> 8;
    i_layer = extras.yzw;
  }
  ivec2 at = ivec2(4 * (a % u_instances_per_row), a / u_instances_per_row);
  i_position_scale = uintBitsToFloat(texelFetch(u_instances, at, 0));
  i_rotation_blend = uintBitsToFloat(texelFetch(u_instances, at + ivec2(1, 0), 0));
  i_frames = texelFetch(u_instances, at + ivec2(2, 0), 0);
  uvec4 last = texelFetch(u_instances, at + ivec2(3, 0), 0);
  i_fade = uintBitsToFloat(last.x);
  i_tint = vec4((uvec4(last.y) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu) / 255.0;
  i_state = float(last.z & 0xffu);
  i_agent_index = float(last.w);
}
#else
#include "common/instance_record.glsl"
in uvec4 i_record0;
in uvec4 i_record1;
in uvec4 i_record2;
in uint i_record3;
// The record's fields, as the GPU-driven path's loadInstance() fills them too.
vec4 i_position_scale;  // world position, uniform scale
vec4 i_rotation_blend;  // cos(heading), sin(heading), primary blend, secondary blend
uvec4 i_frames;         // primary frame a, b; secondary frame a, b (texture frame indices)
float i_fade;           // weight of the secondary (fading-out) clip
vec4 i_tint;
float i_variant;  // appearance: 0 own materials, v material variant v - 1
float i_agent_index;  // the agent's index in its crowd
float i_state;        // its AgentState
uint i_attachments;   // its visible props: bit i shows prop i
uvec3 i_layer;        // its layer's words (render/instance_record.h's encodeLayerWords)
void loadInstance() {
  float heading = float(i_record0.w & 0xffffu) * (6.283185307179586 / 65536.0);
  i_position_scale = vec4(uintBitsToFloat(i_record0.xyz), unpackHalf2x16(i_record0.w >> 16).x);
  vec4 bytes = recordBytes(i_record1.z);
  i_rotation_blend = vec4(cos(heading), sin(heading), bytes.xy / 255.0);
  i_frames = recordFrames(i_record1);
  i_fade = bytes.z / 255.0;
  i_variant = bytes.w;
  i_tint = recordBytes(i_record1.w) / 255.0;
  i_agent_index = float(i_record2.x);
  i_state = float(i_record2.y & 0xffu);
  i_attachments = (i_record2.y >> 8) & 0xffffu;
  i_layer = uvec3(i_record2.zw, i_record3);
}
#endif

#include "common/varyings.glsl"
#include "common/emit.glsl"

// The texel addressing of core/animation_texture.h, split in two so each part is computed
// once: frameTexel(f) + jointTexel(j) + ivec2(row, 0) is row `row` of joint j at frame f.
ivec2 frameTexel(uint frame) {
  int f = int(frame);
  return ivec2((f % u_frames_per_row) * u_texels_per_frame,
               u_base_row + (f / u_frames_per_row) * u_rows_per_frame);
}

ivec2 jointTexel(uint joint) {
  int j = int(joint);
  return ivec2(3 * (j % u_joints_per_row), j / u_joints_per_row);
}

#ifdef PALETTE_TEXTURE
// The palette pass (render/palette_pass.h) blended each instance's palette once this frame: 3
// texels per joint, instance i's first at x = (i % per row) * u_palette_texels, y = i / per row.
#ifdef PALETTE_BITS
uniform highp usampler2D u_palette;  // RGBA32UI holding the floats' bits
vec4 paletteTexel(ivec2 at) {
  return uintBitsToFloat(texelFetch(u_palette, at, 0));
}
#else
uniform highp sampler2D u_palette;  // RGBA32F
vec4 paletteTexel(ivec2 at) {
  return texelFetch(u_palette, at, 0);
}
#endif
uniform int u_palette_texels;             // 3 * joint count
uniform int u_palette_instances_per_row;
uniform int u_palette_first;              // the draw's first instance in the palette texture

ivec2 g_palette;  // the instance's first palette texel

void jointRows(uint joint, out vec4 r0, out vec4 r1, out vec4 r2) {
  ivec2 at = g_palette + ivec2(3 * int(joint), 0);
  r0 = paletteTexel(at);
  r1 = paletteTexel(at + ivec2(1, 0));
  r2 = paletteTexel(at + ivec2(2, 0));
}
#else
ivec2 g_frames[4];  // frameTexel of i_frames.x, .y, .z, .w

vec4 paletteRow(ivec2 joint, int row) {
  ivec2 at = joint + ivec2(row, 0);
  vec4 primary = mix(texelFetch(u_animation, g_frames[0] + at, 0),
                     texelFetch(u_animation, g_frames[1] + at, 0), i_rotation_blend.z);
  // With no fade the formula gives primary exactly; skip the two fetches.
  if (i_fade > 0.0) {
    vec4 secondary = mix(texelFetch(u_animation, g_frames[2] + at, 0),
                         texelFetch(u_animation, g_frames[3] + at, 0), i_rotation_blend.w);
    return (1.0 - i_fade) * primary + i_fade * secondary;
  }
  return primary;
}

void baseJointRows(uint joint, out vec4 r0, out vec4 r1, out vec4 r2) {
  ivec2 at = jointTexel(joint);
  r0 = paletteRow(at, 0);
  r1 = paletteRow(at, 1);
  r2 = paletteRow(at, 2);
}

#ifdef LAYERS
// Layers (docs/props_and_layers.md): crowd/layer_palette.h's layeredJointRows per influence, when
// skinning by direct fetching (the palette pass does the same per joint: palette.frag).
#include "common/layer.glsl"
uniform vec3 u_pivots[LAYER_JOINTS];  // jointPivots: each joint's bind position
float g_layer_weight;  // 0: no layer
float g_layer_blend;
uint g_layer_first;
uint g_layer_end;
ivec2 g_layer_frames[2];  // frameTexel of the layer clip's frames a, b
mat4 g_reroot;  // M_base(parent) * M_layer(parent)^-1 (identity for a mask at the root)

// The layer clip's entry of `joint` (its frame pair, no fade), as rows.
void layerJointRows(uint joint, out vec4 r0, out vec4 r1, out vec4 r2) {
  ivec2 at = jointTexel(joint);
  r0 = mix(texelFetch(u_animation, g_layer_frames[0] + at, 0),
           texelFetch(u_animation, g_layer_frames[1] + at, 0), g_layer_blend);
  r1 = mix(texelFetch(u_animation, g_layer_frames[0] + at + ivec2(1, 0), 0),
           texelFetch(u_animation, g_layer_frames[1] + at + ivec2(1, 0), 0), g_layer_blend);
  r2 = mix(texelFetch(u_animation, g_layer_frames[0] + at + ivec2(2, 0), 0),
           texelFetch(u_animation, g_layer_frames[1] + at + ivec2(2, 0), 0), g_layer_blend);
}

// The instance's layer, once per vertex: its weight, frames, joints and the parent's re-rooting.
void loadLayer() {
  g_layer_weight = float((i_layer.y >> 8) & 0xffu) / 255.0;
  if (g_layer_weight == 0.0) return;
  g_layer_frames[0] = frameTexel(i_layer.x & 0xffffu);
  g_layer_frames[1] = frameTexel(i_layer.x >> 16);
  g_layer_blend = float(i_layer.y & 0xffu) / 255.0;
  g_layer_first = i_layer.y >> 16;
  g_layer_end = i_layer.z & 0xffffu;
  uint parent = i_layer.z >> 16;
  g_reroot = mat4(1.0);
  if (parent != 0xffffu) {  // kRecordNoParent
    vec4 b0, b1, b2, l0, l1, l2;
    baseJointRows(parent, b0, b1, b2);
    layerJointRows(parent, l0, l1, l2);
    g_reroot = rowsMatrix(b0, b1, b2) * inverse(rowsMatrix(l0, l1, l2));
  }
}

void jointRows(uint joint, out vec4 r0, out vec4 r1, out vec4 r2) {
  baseJointRows(joint, r0, r1, r2);
  if (g_layer_weight == 0.0 || joint < g_layer_first || joint >= g_layer_end) return;
  vec4 l0, l1, l2;
  layerJointRows(joint, l0, l1, l2);
  mat4 m = transpose(g_reroot * rowsMatrix(l0, l1, l2));  // rerootRows
  if (g_layer_weight >= 1.0) {
    r0 = m[0];
    r1 = m[1];
    r2 = m[2];
  } else {
    blendLayerRows(r0, r1, r2, m[0], m[1], m[2], g_layer_weight, u_pivots[joint]);
  }
}
#else
void jointRows(uint joint, out vec4 r0, out vec4 r1, out vec4 r2) {
  baseJointRows(joint, r0, r1, r2);
}
#endif
#endif

void skinInfluence(uint joint, float w, vec4 p, vec4 n, vec4 t, inout vec3 position,
                   inout vec3 normal, inout vec3 tangent) {
  vec4 r0, r1, r2;
  jointRows(joint, r0, r1, r2);
  position += w * vec3(dot(r0, p), dot(r1, p), dot(r2, p));
  normal += w * vec3(dot(r0, n), dot(r1, n), dot(r2, n));
  tangent += w * vec3(dot(r0, t), dot(r1, t), dot(r2, t));
}

// The mesh vertex this one copies (low 24 bits) and its prop group (high 8: 0 the character's
// own, i + 1 prop i; SkinnedMesh::attachments).
in uint a_vertex;

#if defined(MORPH_VAT) || defined(MORPH_DELTAS)
// Baked morph animation (package section VATX, docs/morph.md "Texture layout"): block b's vertex
// v has texel i = (b * u_morph_vertices + v) * 2 + k (k = 0 position, 1 normal) at
// (i % u_morph_width, i / u_morph_width). Blocks are the animation texture's frames (VAT) or the
// active targets (deltas, whose per-frame weights follow from row u_morph_weight_row, 4 a
// texel, u_morph_weight_texels texels a frame). The arithmetic is FrameMorphJob's
// (crowd/frame_morph.h), in its mix order; the result is skinned like a mesh vertex.
uniform highp sampler2D u_morph;
uniform int u_morph_width;
uniform int u_morph_vertices;

ivec2 morphTexel(int block, int vertex) {
  int i = (block * u_morph_vertices + vertex) * 2;
  return ivec2(i % u_morph_width, i / u_morph_width);
}

#ifdef MORPH_VAT
// Texel k of `vertex` at frame pair (a, b) blended by `blend`.
vec3 framePair(uint a, uint b, float blend, int vertex, int k) {
  ivec2 at = ivec2(k, 0);
  return mix(texelFetch(u_morph, morphTexel(int(a), vertex) + at, 0).xyz,
             texelFetch(u_morph, morphTexel(int(b), vertex) + at, 0).xyz, blend);
}

vec3 morphFrames(int vertex, int k) {
  vec3 primary = framePair(i_frames.x, i_frames.y, i_rotation_blend.z, vertex, k);
  if (i_fade > 0.0)
    return mix(primary, framePair(i_frames.z, i_frames.w, i_rotation_blend.w, vertex, k), i_fade);
  return primary;
}

void morphVertex(inout vec4 p, inout vec4 n) {
  int vertex = int(a_vertex & 0xffffffu);
  p.xyz = morphFrames(vertex, 0);
  n.xyz = morphFrames(vertex, 1);
}
#else
uniform int u_morph_targets;
uniform int u_morph_weight_row;
uniform int u_morph_weight_texels;  // ceil(targets / 4)

float frameWeight(uint frame, int target) {
  int i = int(frame) * u_morph_weight_texels + target / 4;
  vec4 w = texelFetch(u_morph, ivec2(i % u_morph_width, u_morph_weight_row + i / u_morph_width), 0);
  return w[target % 4];
}

void morphVertex(inout vec4 p, inout vec4 n) {
  int vertex = int(a_vertex & 0xffffffu);
  for (int t = 0; t < u_morph_targets; ++t) {
    float w = mix(frameWeight(i_frames.x, t), frameWeight(i_frames.y, t), i_rotation_blend.z);
    if (i_fade > 0.0) {
      w = mix(w, mix(frameWeight(i_frames.z, t), frameWeight(i_frames.w, t), i_rotation_blend.w),
              i_fade);
    }
    // A target at rest this frame costs no fetch (docs/morph.md: the per-vertex cost).
    if (w == 0.0) continue;
    ivec2 at = morphTexel(t, vertex);
    p.xyz += w * texelFetch(u_morph, at, 0).xyz;
    n.xyz += w * texelFetch(u_morph, at + ivec2(1, 0), 0).xyz;
  }
}
#endif
#endif

// Material variants (render/material_draws.h): this draw's material, and material(row,
// appearance) for every look row, 4 entries per vector.
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

// placementMatrix (crowd/playback.h): rotate about +Y by the heading (cos c, sin s).
vec3 turn(vec3 d, float c, float s) {
  return vec3(c * d.x + s * d.z, d.y, c * d.z - s * d.x);
}

// Whether the vertex belongs to a prop the agent does not show (attachmentVisible's negation).
bool propHidden() {
  uint group = a_vertex >> 24;
  return group != 0u && ((i_attachments >> (group - 1u)) & 1u) == 0u;
}

#ifdef IMPOSTOR_FADE
// The impostor's cross-fade band (model units from the eye, reach included, at scale 1): its
// start and 1 / its width; width 0 (the default) for every draw but the last mesh LOD's.
uniform vec3 u_fade_eye;
uniform vec2 u_fade_band;
#endif

void main() {
  loadInstance();
#ifdef IMPOSTOR_FADE
  v_fade = u_fade_band.y > 0.0
               ? clamp((length(i_position_scale.xyz - u_fade_eye) / i_position_scale.w -
                        u_fade_band.x) * u_fade_band.y, 0.0, 1.0)
               : 0.0;
#endif
  if (lookHidden(a_look, i_variant) || propHidden()) {
    // Every such vertex goes to one point past the far plane: its triangles are clipped, no draw
    // call more. Captured (transform feedback), it reads as the agent's position.
    gl_Position = vec4(0.0, 0.0, 2.0, 1.0);
    v_world = i_position_scale.xyz;
    v_normal = vec3(0.0);
    return;
  }
  vec4 p = vec4(a_position, 1.0);
  vec4 n = vec4(a_normal, 0.0);
  vec4 t = vec4(a_tangent.xyz, 0.0);
#if defined(MORPH_VAT) || defined(MORPH_DELTAS)
  morphVertex(p, n);
#endif
  vec3 position = vec3(0.0);
  vec3 normal = vec3(0.0);
  vec3 tangent = vec3(0.0);
#ifdef PALETTE_TEXTURE
  int instance = u_palette_first + gl_InstanceID;
  g_palette = ivec2((instance % u_palette_instances_per_row) * u_palette_texels,
                    instance / u_palette_instances_per_row);
#else
  g_frames[0] = frameTexel(i_frames.x);
  g_frames[1] = frameTexel(i_frames.y);
  g_frames[2] = frameTexel(i_frames.z);
  g_frames[3] = frameTexel(i_frames.w);
#ifdef LAYERS
  loadLayer();
#endif
#endif
  // Unrolled (a loop with dynamic indexing ran about 30% slower on llvmpipe); slot x holds the
  // largest weight (reduceInfluences sorts them), a zero weight elsewhere is an unused slot.
  skinInfluence(a_joints.x, a_weights.x, p, n, t, position, normal, tangent);
  if (a_weights.y > 0.0) skinInfluence(a_joints.y, a_weights.y, p, n, t, position, normal, tangent);
  if (a_weights.z > 0.0) skinInfluence(a_joints.z, a_weights.z, p, n, t, position, normal, tangent);
  if (a_weights.w > 0.0) skinInfluence(a_joints.w, a_weights.w, p, n, t, position, normal, tangent);
  float c = i_rotation_blend.x;
  float s = i_rotation_blend.y;
  ThrongVertex v;
  v.position = i_position_scale.xyz + i_position_scale.w * turn(position, c, s);
  v.normal = turn(normal, c, s);
  v.tangent = vec4(turn(tangent, c, s), a_tangent.w);
  v.uv0 = a_uv0;
  v.uv1 = a_uv1;
  v.color = a_color;
  v.tint = i_tint;
  v.agent = i_agent_index;
  v.state = i_state;
  v.lod = u_lod;
  throngEmit(v);
}
