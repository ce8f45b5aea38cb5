#version 100
// Shared ES2 fragment shader: the instanced path's shading (shaders/gles3/lit.frag with the
// default FrameView light and an untinted character) as constants, so ES2 and ES3 images compare
// and the shader adds no uniforms to the program.
precision mediump float;

varying vec3 v_normal;

const vec3 kBaseColor = vec3(0.8);
const float kAmbient = 0.35;
// -normalize(vec3(-0.4, -1.0, -0.6)): towards the light.
const vec3 kToLight = vec3(0.324443, 0.811107, 0.486664);

void main() {
  vec3 n = normalize(v_normal);
  float diffuse = max(dot(n, kToLight), 0.0);
  gl_FragColor = vec4(kBaseColor * (kAmbient + (1.0 - kAmbient) * diffuse), 1.0);
}
