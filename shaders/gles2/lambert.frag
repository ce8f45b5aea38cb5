#version 100
// Shared ES2 fragment shader: a fixed directional light on a grey-blue surface, no uniforms (so
// it adds nothing to the vertex uniform budget).
precision mediump float;

varying vec3 v_normal;

void main() {
  vec3 n = normalize(v_normal);
  float light = 0.25 + 0.75 * max(dot(n, normalize(vec3(0.4, 0.8, 0.45))), 0.0);
  gl_FragColor = vec4(light * vec3(0.75, 0.8, 0.9), 1.0);
}
