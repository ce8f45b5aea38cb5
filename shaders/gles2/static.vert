#version 100
// Trivial ES2 vertex shader for meshes already skinned and placed on the CPU (the reference),
// drawn untinted.

uniform mat4 u_view_projection;

attribute vec3 a_position;
attribute vec3 a_normal;

varying vec3 v_normal;
varying vec4 v_tint;

void main() {
  v_normal = a_normal;
  v_tint = vec4(1.0);
  gl_Position = u_view_projection * vec4(a_position, 1.0);
}
