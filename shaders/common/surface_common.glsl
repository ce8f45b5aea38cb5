// What every ThrongSurface shares, material.glsl's and impostor_surface.glsl's (included by both
// before their throngSurface()): the unit-or-zero normalisation, the surface's end (the
// fragment's view and agent: v_world, v_agent, whole numbers rounded as GLSL ES 1.00 interpolates
// them) and its shadow. Fragment stage, after the varyings and u_fog_eye.

vec3 throngUnitOrZero(vec3 v) {
  float length2 = dot(v, v);
  return length2 > 0.0 ? v * inversesqrt(length2) : vec3(0.0);
}

// Sets s.view (towards the eye), s.agent, s.state and s.lod.
void throngSurfaceTail(inout ThrongSurface s) {
  s.view = throngUnitOrZero(u_fog_eye.xyz - v_world);
  s.agent = floor(v_agent.x + 0.5);
  s.state = floor(v_agent.y + 0.5);
  s.lod = floor(v_agent.z + 0.5);
}

// 1 where the surface sees the front end's light, 0 in its shadow (throngShadowAt).
float throngShadow(ThrongSurface s) {
  return throngShadowAt(s.position, s.normal);
}
