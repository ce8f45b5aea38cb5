#version 100
// The ground: one square on the plane y = height around a centre, drawn by GroundRenderer.

uniform mat4 u_view_projection;
uniform vec4 u_ground;  // centre x, centre z, half side, height (world units)

attribute vec2 a_corner;  // -1..1

varying vec3 v_world;

void main() {
  v_world = vec3(u_ground.x + a_corner.x * u_ground.z, u_ground.w,
                 u_ground.y + a_corner.y * u_ground.z);
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
