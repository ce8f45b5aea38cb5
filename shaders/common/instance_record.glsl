// The instanced path's 40-byte instance record (render/instance_record.h) read as two uvec4 and a
// uvec2: record0 = position x, y, z (float bits), heading (low 16 bits: turns * 65536) | scale
// (high 16: half); record1 = frames (primary a | b << 16, secondary a | b << 16), bytes (primary
// blend, secondary blend, fade, appearance), tint RGBA8; record2 = the agent's index, its state
// (low 8 bits).

// Primary frame a, b; secondary frame a, b.
uvec4 recordFrames(uvec4 record1) {
  return uvec4(record1.x & 0xffffu, record1.x >> 16, record1.y & 0xffffu, record1.y >> 16);
}

// A word's four bytes, low first, as 0..255.
vec4 recordBytes(uint word) {
  return vec4((uvec4(word) >> uvec4(0u, 8u, 16u, 24u)) & 0xffu);
}
