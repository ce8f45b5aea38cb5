// What impostor.vert hands the impostor's fragment stage (common/impostor_surface.glsl).
// THRONG_VARYING is `out` or `in`.
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
