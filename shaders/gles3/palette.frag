#version 300 es
// The palette pass: one texel of one instance's palette, blended as instanced.vert's direct
// fetching does (FramePaletteJob's arithmetic):
//   row = (1 - fade) * mix(P[a], P[b], blend) + fade * mix(S[a], S[b], blend2)
// With LAYERS, a joint of the instance's layer mask gets layeredJointRows' entry instead
// (crowd/layer_palette.h; instanced.vert's direct fetching does the same per influence).
// PALETTE_BITS: the target is RGBA32UI holding the floats' bits (ES 3.0 renders to integer
// textures without EXT_color_buffer_float); else RGBA32F.
precision highp float;
precision highp int;
precision highp sampler2D;

uniform sampler2D u_animation;  // RGBA32F or RGBA16F, 3 texels (matrix rows) per joint
uniform int u_base_row;  // the character's first row (several characters share a texture)
uniform int u_frames_per_row;
uniform int u_texels_per_frame;  // 3 * joint count
uniform int u_rows_per_frame;    // 1, or more when a frame is wider than the texture
uniform int u_joints_per_row;    // joint count, or width / 3 when a frame spans rows

flat in uvec4 v_frames;
flat in vec3 v_blend_fade;
flat in int v_first_texel;

#ifdef PALETTE_BITS
layout(location = 0) out highp uvec4 o_row;
#else
layout(location = 0) out highp vec4 o_row;
#endif

// core/animation_texture.h's addressing, as in instanced.vert.
ivec2 frameTexel(uint frame) {
  int f = int(frame);
  return ivec2((f % u_frames_per_row) * u_texels_per_frame,
               u_base_row + (f / u_frames_per_row) * u_rows_per_frame);
}

// Row `r` of `joint`'s entry at the instance's frames (FramePaletteJob).
vec4 baseRow(int joint, int r) {
  ivec2 at = ivec2(3 * (joint % u_joints_per_row) + r, joint / u_joints_per_row);
  vec4 row = mix(texelFetch(u_animation, frameTexel(v_frames.x) + at, 0),
                 texelFetch(u_animation, frameTexel(v_frames.y) + at, 0), v_blend_fade.x);
  // With no fade the formula gives the primary pair exactly; skip the two fetches.
  float fade = v_blend_fade.z;
  if (fade > 0.0) {
    vec4 secondary = mix(texelFetch(u_animation, frameTexel(v_frames.z) + at, 0),
                         texelFetch(u_animation, frameTexel(v_frames.w) + at, 0), v_blend_fade.y);
    row = (1.0 - fade) * row + fade * secondary;
  }
  return row;
}

#ifdef LAYERS
#include "common/layer.glsl"
uniform vec3 u_pivots[LAYER_JOINTS];  // jointPivots: each joint's bind position
flat in uvec3 v_layer;

// Row `r` of `joint`'s entry at the layer clip's frame pair (no fade).
vec4 layerRow(int joint, int r) {
  ivec2 at = ivec2(3 * (joint % u_joints_per_row) + r, joint / u_joints_per_row);
  float blend = float(v_layer.y & 0xffu) / 255.0;
  return mix(texelFetch(u_animation, frameTexel(v_layer.x & 0xffffu) + at, 0),
             texelFetch(u_animation, frameTexel(v_layer.x >> 16) + at, 0), blend);
}

// Row `r` of the layered entry of `joint` (in the mask: the caller checked), re-rooted on the
// base pose's parent and blended at the layer's weight.
vec4 layeredRow(int joint, int r) {
  float weight = float((v_layer.y >> 8) & 0xffu) / 255.0;
  mat4 layer = rowsMatrix(layerRow(joint, 0), layerRow(joint, 1), layerRow(joint, 2));
  uint parent = v_layer.z >> 16;
  if (parent != 0xffffu) {  // kRecordNoParent
    int p = int(parent);
    layer = rowsMatrix(baseRow(p, 0), baseRow(p, 1), baseRow(p, 2)) *
            inverse(rowsMatrix(layerRow(p, 0), layerRow(p, 1), layerRow(p, 2))) * layer;
  }
  mat4 rows = transpose(layer);
  if (weight >= 1.0) return rows[r];
  vec4 b0 = baseRow(joint, 0), b1 = baseRow(joint, 1), b2 = baseRow(joint, 2);
  blendLayerRows(b0, b1, b2, rows[0], rows[1], rows[2], weight, u_pivots[joint]);
  return r == 0 ? b0 : (r == 1 ? b1 : b2);
}
#endif

void main() {
  int t = int(gl_FragCoord.x) - v_first_texel;  // the texel within the instance
  int joint = t / 3;
  int r = t - 3 * joint;
  vec4 row;
#ifdef LAYERS
  uint j = uint(joint);
  if (((v_layer.y >> 8) & 0xffu) != 0u && j >= (v_layer.y >> 16) && j < (v_layer.z & 0xffffu)) {
    row = layeredRow(joint, r);
  } else {
    row = baseRow(joint, r);
  }
#else
  row = baseRow(joint, r);
#endif
#ifdef PALETTE_BITS
  o_row = floatBitsToUint(row);
#else
  o_row = row;
#endif
}
