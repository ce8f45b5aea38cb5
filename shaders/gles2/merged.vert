#version 100
// Merged batch (method A): K characters in one draw; each vertex's joints index the batch palette
// (copy k: k*x .. k*x+x-1), whose entries already include the character's placement.
// COPIES (= K), JOINTS_PER_COPY (= x) and JOINT_VECTORS (the joint encoding's vec4 per joint: 3,
// the rows of a 3x4 matrix, or 2, quaternion + translation and uniform scale) are #defined by the
// renderer before compiling.

uniform mat4 u_view_projection;
// Distance fog (FrameView::fog; the same term in every shader): blended in by the fragment shader.
uniform vec4 u_fog_eye;    // eye (world), fog start distance
uniform vec4 u_fog_color;  // fog colour, 1 / (end - start); 0 there means no fog
uniform float u_uv_set;       // the material's texture coordinates: 0 = a_uv0, 1 = a_uv1
uniform mat3 u_uv_transform;  // KHR_texture_transform of the material's texture
// Each placed skinning matrix: its 3 rows, or (JOINT_VECTORS 2) its rotation quaternion (x, y, z,
// w) and its translation with its uniform scale in w (core/joint_encoding.h, QuatJoint).
uniform vec4 u_palette[COPIES * JOINTS_PER_COPY * JOINT_VECTORS];
// One RGBA tint per character (the instanced path's per-instance tint).
uniform vec4 u_tint[COPIES];

attribute vec3 a_position;
attribute vec3 a_normal;
attribute vec2 a_uv0;
attribute vec2 a_uv1;
attribute vec4 a_color;  // linear RGBA vertex colour (COLOR_0; white when absent)
attribute vec4 a_joints;  // floats: GLSL ES 1.00 has no integer attributes
attribute vec4 a_weights;

varying vec3 v_normal;
varying vec4 v_tint;
varying vec4 v_fog;  // fogTerm
varying vec2 v_uv;
varying vec4 v_color;

// Fog colour times its amount, and the amount (0 clear .. 1 fog colour) at `world`.
vec4 fogTerm(vec3 world) {
  float amount = clamp((distance(world, u_fog_eye.xyz) - u_fog_eye.w) * u_fog_color.w, 0.0, 1.0);
  return vec4(u_fog_color.rgb * amount, amount);
}

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

void main() {
  vec4 p = vec4(a_position, 1.0);
  vec4 n = vec4(a_normal, 0.0);
  vec3 world = a_weights.x * skinPoint(a_joints.x, p) + a_weights.y * skinPoint(a_joints.y, p) +
               a_weights.z * skinPoint(a_joints.z, p) + a_weights.w * skinPoint(a_joints.w, p);
  vec3 normal = a_weights.x * skinPoint(a_joints.x, n) + a_weights.y * skinPoint(a_joints.y, n) +
                a_weights.z * skinPoint(a_joints.z, n) + a_weights.w * skinPoint(a_joints.w, n);
  v_normal = normal;
  // Every joint of a vertex lies in its own copy's palette range.
  v_tint = u_tint[int(a_joints.x + 0.5) / JOINTS_PER_COPY];
  v_fog = fogTerm(world);
  v_uv = (u_uv_transform * vec3(mix(a_uv0, a_uv1, u_uv_set), 1.0)).xy;
  v_color = a_color;
  gl_Position = u_view_projection * vec4(world, 1.0);
}
