// What throng's vertex stage hands its fragment stage: 7 vectors, under GLSL ES 1.00's minimum of
// 8 with its packing rules (4 vec4 rows, then 3 vec3 rows). THRONG_VARYING is `varying`, `out` or
// `in`.
THRONG_VARYING vec4 v_tangent;  // world xyz, handedness w
THRONG_VARYING vec4 v_uv;       // uv0, uv1
THRONG_VARYING vec4 v_color;    // vertex colour
THRONG_VARYING vec4 v_tint;     // the agent's tint
THRONG_VARYING vec3 v_world;    // world position
THRONG_VARYING vec3 v_normal;   // world normal
THRONG_FLAT THRONG_VARYING THRONG_HIGHP vec3 v_agent;  // agent index, state, LOD
#ifdef IMPOSTOR_FADE
// The instanced path's last mesh LOD in the impostor's cross-fade band: the impostor's weight
// (common/fade.glsl); 0 elsewhere.
THRONG_FLAT THRONG_VARYING float v_fade;
#endif
