// A blob shadow: its square on the ground and how much it darkens what is under it. Included by
// gles2/blob_shadow.* (blobs given by the CPU) and gles3/blob_shadow_listed.* (the GPU-driven
// path's listed agents), so that both draw the same shadow.

// Corner `corner` (-1..1) of the square of the shadow `blob` (centre on the ground, world; radius).
vec3 blobCorner(vec2 corner, vec4 blob) {
  return blob.xyz + vec3(corner.x * blob.w, 0.0, corner.y * blob.w);
}

// The darkening (alpha, blended as dst * (1 - alpha)) at `offset` (-1..1 across the shadow) and
// `world`: `opacity` at the centre falling smoothly to 0 at the radius, faded by the fog like the
// ground (fog_eye: eye, fog start; fog_color.w: 1 / (end - start), 0 for no fog).
float blobAlpha(vec2 offset, vec3 world, float opacity, vec4 fog_eye, vec4 fog_color) {
  float r2 = dot(offset, offset);
  float falloff = r2 < 1.0 ? (1.0 - r2) * (1.0 - r2) : 0.0;
  float fog = clamp((distance(world, fog_eye.xyz) - fog_eye.w) * fog_color.w, 0.0, 1.0);
  return opacity * falloff * (1.0 - fog);
}
