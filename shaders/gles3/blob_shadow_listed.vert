#version 300 es
// The GPU-driven path's blob shadows (render/gpu_crowd.h): one square per agent of a LOD's list,
// the instance being the listed agent's index; its position and scale are read from the record
// the compute pass wrote (texel 0: position, scale), as instanced.vert's GPU_INSTANCES does.

uniform mat4 u_view_projection;
uniform highp usampler2D u_instances;
uniform int u_instances_per_row;
uniform vec2 u_blob;  // the ground's height, the shadow's radius at scale 1 (world units)

in vec2 a_corner;  // -1..1
in uint i_agent;

out vec2 v_offset;  // -1..1 across the shadow
out vec3 v_world;

#include "common/blob_shadow.glsl"

void main() {
  int a = int(i_agent);
  vec4 position_scale = uintBitsToFloat(
      texelFetch(u_instances, ivec2(4 * (a % u_instances_per_row), a / u_instances_per_row), 0));
  vec4 blob =
      vec4(position_scale.x, u_blob.x, position_scale.z, u_blob.y * abs(position_scale.w));
  v_offset = a_corner;
  v_world = blobCorner(a_corner, blob);
  gl_Position = u_view_projection * vec4(v_world, 1.0);
}
