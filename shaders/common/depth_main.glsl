// The depth pass's fragment main: the material's alpha cut (MASK at its cutoff, BLEND at one
// half), then the depth packed into RGBA8 for a colour attachment (devices without depth
// textures; with a depth attachment alone it is ignored).

// z (0..1) in four bytes, most significant in .r: z = dot(rgba, (1, 1/255, 1/255^2, 1/255^3)).
vec4 throngPackDepth(float z) {
  vec4 bytes = fract(z * vec4(1.0, 255.0, 65025.0, 16581375.0));
  return bytes - bytes.yzww * vec4(1.0 / 255.0, 1.0 / 255.0, 1.0 / 255.0, 0.0);
}

void main() {
  if (throngMaterialAlpha() < u_material[2].w) discard;
  THRONG_FRAG_COLOR = throngPackDepth(gl_FragCoord.z);
}
