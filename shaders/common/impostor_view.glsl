// The impostor's view pick and quad (docs/lods.md, "Drawing impostors"), shared by
// gles3/impostor.vert and gles2/impostor.vert: float arithmetic only (GLSL ES 1.00 has no integer
// % or bit operations); every value is a small whole number or a weight, exact in highp, which the
// vertex stage has on every ES 2.0 device. Vertex stage.

const float kImpostorPi = 3.141592653589793;

// The four view rows and their bilinear weights for `m`, the unit direction from the agent towards
// the camera in its model space, on a grid of `azimuths` x `elevations` (impostorBlend's order:
// (i0, j0), (i0, j1), (i1, j0), (i1, j1)).
void throngImpostorViews(vec3 m, float azimuths, float elevations, out vec4 views,
                         out vec4 weights) {
  float turns = atan(m.x, m.z) / (2.0 * kImpostorPi);
  float az = (turns - floor(turns)) * azimuths;
  float az0 = floor(az);
  float wa = az - az0;
  float j0 = az0 - azimuths * floor(az0 / azimuths + 0.001);  // az0 can round up to azimuths
  float j1 = j0 + 1.0 >= azimuths - 0.5 ? 0.0 : j0 + 1.0;
  float el = atan(max(m.y, 0.0), length(m.xz)) / (0.5 * kImpostorPi) * elevations - 0.5;
  el = clamp(el, 0.0, elevations - 1.0);
  float i0 = min(floor(el), elevations - 1.0);
  float we = el - i0;
  float i1 = min(i0 + 1.0, elevations - 1.0);
  views = vec4(i0 * azimuths + j0, i0 * azimuths + j1, i1 * azimuths + j0, i1 * azimuths + j1);
  weights = vec4((1.0 - we) * (1.0 - wa), (1.0 - we) * wa, we * (1.0 - wa), we * wa);
}

// The model-space point of the quad's corner `corner` (x, y in -0.5 .. 0.5): the tiles' rectangle
// (Impostor::center, size) in the plane through the origin facing `m` (right and up as the bake's
// row cameras have them, src/impostor/impostor_views.cpp).
vec3 throngImpostorCorner(vec3 m, vec2 corner, vec3 center, vec2 size) {
  vec3 right = vec3(m.z, 0.0, -m.x);  // cross(+Y, m)
  float right_length = length(right);
  right = right_length > 1e-6 ? right / right_length : vec3(1.0, 0.0, 0.0);
  vec3 up = cross(m, right);
  vec2 offset = vec2(dot(center, right), dot(center, up)) + corner * size;
  return right * offset.x + up * offset.y;
}

// The camera the quad faces in the world: `camera` is the eye (w 1) or, for an orthographic view
// (a light's), the unit direction towards it (w 0).
vec3 throngImpostorToCamera(vec4 camera, vec3 position) {
  return normalize(camera.w > 0.5 ? camera.xyz - position : camera.xyz);
}
