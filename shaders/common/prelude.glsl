// throng's side of the shading contract (docs/shaders.md), compiled in both stages before the
// user's file: the types it sees and the helpers it may call. The assembler put the #version line,
// the precision and the THRONG_* macros above it (src/render/shader_assembly.h).

// A point of a character, as throngShade sees it. Vectors are in world space.
struct ThrongSurface {
  vec3 position;        // world units
  vec3 normal;          // unit: the skinned vertex normal, reversed on back faces
  vec3 shading_normal;  // unit: `normal` bent by the material's normal texture (the built-in look's)
  vec4 tangent;         // xyz: unit tangent (0 when the mesh has none); w: handedness (+1 or -1)
  vec2 uv0;             // texture coordinates, sets 0 and 1 (0 when the mesh has none)
  vec2 uv1;
  vec4 color;       // vertex colour (linear RGBA; white when the mesh has none)
  vec4 base_color;  // material factor x base colour texture x vertex colour x agent tint (linear)
  float metallic;   // 0..1
  float roughness;  // 0..1, perceptual
  float occlusion;  // 0..1: 1 + strength * (occlusion texture - 1)
  vec3 emissive;    // linear RGB: factor x strength x emissive texture
  vec3 view;        // unit: from the point towards the eye
  THRONG_HIGHP float agent;  // the agent's index in its crowd (exact below 2^24 with highp)
  float state;               // its AgentState: 0 idle, 1 walk, 2 run, 3 attack, 4 dead, 5 play
  float lod;                 // the LOD drawn (0 finest)
};

// A skinned vertex, as the optional vertex hook throngVertex(inout ThrongVertex v) sees it:
// placed in the world, before the camera's (or a light's) projection.
struct ThrongVertex {
  vec3 position;  // world units
  vec3 normal;    // world (not unit length)
  vec4 tangent;   // world xyz, handedness w
  vec2 uv0;
  vec2 uv1;
  vec4 color;  // vertex colour
  vec4 tint;   // the agent's tint
  float agent;
  float state;
  float lod;
};

vec3 throngSrgbToLinear(vec3 c) {
  return mix(c / 12.92, pow((c + 0.055) / 1.055, vec3(2.4)), step(0.04045, c));
}

vec3 throngLinearToSrgb(vec3 c) {
  return mix(c * 12.92, 1.055 * pow(c, vec3(1.0 / 2.4)) - 0.055, step(0.0031308, c));
}

#ifdef THRONG_FRAGMENT
// The frame's light (FrameView): the direction it travels (unit), its colour times its intensity
// (linear RGB), and the hemisphere's ambient light from above and from below.
uniform vec3 throng_light_direction;
uniform vec3 throng_light_color;
uniform vec3 throng_sky_color;
uniform vec3 throng_ground_color;
#endif
