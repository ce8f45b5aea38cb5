// The cross-fade between the last mesh LOD and the impostor (docs/lods.md, "Impostors at run
// time"): a screen door. Both are drawn for an agent in the fade band; a pixel shows the impostor
// where its hash is below the agent's fade weight w and the mesh elsewhere, so the two never
// overlap and the share of the impostor's pixels grows with w. Fragment stage.
#ifdef IMPOSTOR_FADE
// Interleaved gradient noise of the pixel: 0..1, evenly spread over any few neighbouring pixels.
float throngFadeHash() {
  vec2 p = floor(gl_FragCoord.xy);
  return fract(52.9829189 * fract(dot(p, vec2(0.06711056, 0.00583715))));
}
// v_fade: the mesh's w (> 0: drop where the hash is below it; 0 outside the band: never), or the
// impostor's -w (< 0: drop where the hash is at or above w; -1 past the band: never).
bool throngFadeDrops(float fade) {
  float h = throngFadeHash();
  return fade > 0.0 ? h < fade : fade < 0.0 && h >= -fade;
}
#endif
