// Meshes already skinned and placed on the CPU (test references): the crowd's vertex interface
// (common/emit.glsl) without skinning, one agent per draw.

uniform vec4 u_static_tint;   // the agent's tint
uniform vec3 u_static_agent;  // its index, state and LOD

attribute vec3 a_position;  // world
attribute vec3 a_normal;
attribute vec4 a_tangent;
attribute vec4 a_uv;     // uv0, uv1
attribute vec4 a_color;  // linear RGBA vertex colour (white when absent)

#include "common/varyings.glsl"
#include "common/emit.glsl"

void main() {
  ThrongVertex v;
  v.position = a_position;
  v.normal = a_normal;
  v.tangent = a_tangent;
  v.uv0 = a_uv.xy;
  v.uv1 = a_uv.zw;
  v.color = a_color;
  v.tint = u_static_tint;
  v.agent = u_static_agent.x;
  v.state = u_static_agent.y;
  v.lod = u_static_agent.z;
  throngEmit(v);
}
