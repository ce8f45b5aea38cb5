// The built-in look, written as any user's file is (docs/shaders.md).
vec4 throngShade(ThrongSurface s) {
  return vec4(throngPbr(s), s.base_color.a);
}
