#version 100
// A soft round shadow under one character: a square on the ground around its feet. One per
// instance (ES 3.0 attribute divisor) or one per four vertices (ES 2.0: expanded on the CPU).

uniform mat4 u_view_projection;

attribute vec2 a_corner;  // -1..1
attribute vec4 a_blob;    // centre (world), radius (world units)

varying vec2 v_offset;  // -1..1 across the shadow
varying vec3 v_world;

#include "common/blob_shadow.glsl"

void main() {
  v_offset = a_corner;
  v_world = blobCorner(a_corner, a_blob);
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
