#version 300 es
// The palette pass (render/palette_pass.h): one quad per instance over its 3 texels per joint,
// one row of the palette texture, carrying the instance's frames, blends and fade to palette.frag.
precision highp float;
precision highp int;

uniform int u_palette_texels;             // 3 * joint count: one instance's texels
uniform int u_palette_instances_per_row;  // instances side by side in one texture row
uniform vec2 u_palette_size;              // the render target's width and height in texels

#include "common/instance_record.glsl"
// The instance record's animation half (the instanced path's attribute, same buffer).
in uvec4 i_record1;

#ifdef LAYERS
// The layer's words (render/instance_record.h's encodeLayerWords): the record's last 12 bytes.
in uvec4 i_record2;
in uint i_record3;
flat out uvec3 v_layer;
#endif

flat out uvec4 v_frames;
flat out vec3 v_blend_fade;  // primary blend, secondary blend, fade
flat out int v_first_texel;  // x of the instance's first texel

void main() {
  int x = (gl_InstanceID % u_palette_instances_per_row) * u_palette_texels;
  int y = gl_InstanceID / u_palette_instances_per_row;
  // Triangle strip (0,0) (1,0) (0,1) (1,1): the quad's edges lie on texel edges, so exactly the
  // instance's texel centres are covered.
  vec2 corner = vec2(float(gl_VertexID & 1), float(gl_VertexID >> 1));
  vec2 texel = vec2(float(x) + corner.x * float(u_palette_texels), float(y) + corner.y);
  gl_Position = vec4(texel / u_palette_size * 2.0 - 1.0, 0.0, 1.0);
  v_frames = recordFrames(i_record1);
  v_blend_fade = recordBytes(i_record1.z).xyz / 255.0;
  v_first_texel = x;
#ifdef LAYERS
  v_layer = uvec3(i_record2.zw, i_record3);
#endif
}
