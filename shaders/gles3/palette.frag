#version 300 es
// The palette pass: one texel of one instance's palette, blended as instanced.vert's direct
// fetching does (FramePaletteJob's arithmetic):
//   row = (1 - fade) * mix(P[a], P[b], blend) + fade * mix(S[a], S[b], blend2)
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

void main() {
  int t = int(gl_FragCoord.x) - v_first_texel;  // the texel within the instance
  int joint = t / 3;
  ivec2 at = ivec2(3 * (joint % u_joints_per_row) + (t - 3 * joint), joint / u_joints_per_row);
  vec4 row = mix(texelFetch(u_animation, frameTexel(v_frames.x) + at, 0),
                 texelFetch(u_animation, frameTexel(v_frames.y) + at, 0), v_blend_fade.x);
  // With no fade the formula gives the primary pair exactly; skip the two fetches.
  float fade = v_blend_fade.z;
  if (fade > 0.0) {
    vec4 secondary = mix(texelFetch(u_animation, frameTexel(v_frames.z) + at, 0),
                         texelFetch(u_animation, frameTexel(v_frames.w) + at, 0), v_blend_fade.y);
    row = (1.0 - fade) * row + fade * secondary;
  }
#ifdef PALETTE_BITS
  o_row = floatBitsToUint(row);
#else
  o_row = row;
#endif
}
