// What impostor.vert hands the impostor's fragment stage (common/impostor_surface.glsl).
// THRONG_VARYING is `varying`, `out` or `in`.
#if THRONG_GLES_VERSION >= 300
THRONG_VARYING vec3 v_world;  // world position on the quad
THRONG_VARYING vec2 v_tile;   // where in the tile: 0..1 left to right, top to bottom
THRONG_VARYING vec4 v_tint;   // the agent's tint
THRONG_FLAT THRONG_VARYING THRONG_HIGHP vec3 v_agent;  // agent index, state, LOD
THRONG_FLAT THRONG_VARYING uvec4 v_views;              // the four view rows (impostorBlend)
THRONG_FLAT THRONG_VARYING vec4 v_view_weights;        // their bilinear weights
THRONG_FLAT THRONG_VARYING uvec2 v_frames;             // the two atlas columns
THRONG_FLAT THRONG_VARYING float v_frame_weight;       // the second's weight
THRONG_FLAT THRONG_VARYING vec2 v_turn;                // cos, sin of the heading
THRONG_FLAT THRONG_VARYING float v_fade;               // -(its weight) in the fade band, else -1
#else
// GLSL ES 1.00 (gles2/impostor.vert): the same values in 7 vectors, under its minimum of 8 varying
// vectors however a driver packs them; no integers and no flat (each is the same at the quad's
// four corners, so interpolation keeps it).
THRONG_VARYING vec4 v_world_fade;
THRONG_VARYING vec4 v_tile_turn;
THRONG_VARYING vec4 v_tint;
THRONG_VARYING THRONG_HIGHP vec3 v_agent;
THRONG_VARYING vec4 v_views;
THRONG_VARYING vec4 v_view_weights;
THRONG_VARYING vec3 v_frames_weight;
#define v_world v_world_fade.xyz
#define v_fade v_world_fade.w
#define v_tile v_tile_turn.xy
#define v_turn v_tile_turn.zw
#define v_frames v_frames_weight.xy
#define v_frame_weight v_frames_weight.z
#endif
