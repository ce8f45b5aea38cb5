// Caps: what the current OpenGL ES context can do, probed once.
#pragma once

#include <cstdint>
#include <string>

namespace throng::render {

struct Caps {
  int gles_major = 0;  // the version the context really is (parsed from GL_VERSION)
  int gles_minor = 0;
  std::string version;                     // GL_VERSION
  std::string renderer;                    // GL_RENDERER
  std::string shading_language;            // GL_SHADING_LANGUAGE_VERSION
  int max_vertex_uniform_vectors = 0;      // vec4 slots; ES2 guarantees 128
  int max_vertex_texture_image_units = 0;  // 0 means no vertex texture fetch (legal on ES2)
  int max_texture_image_units = 0;         // fragment stage's texture units; ES2 guarantees 8
  int max_texture_size = 0;                // texels per side
  int max_renderbuffer_size = 0;           // texels per side
  int max_vertex_attribs = 0;
  bool float_textures = false;  // RGBA32F textures readable in shaders (ES3; ES2 OES_texture_float)
  bool half_float_textures = false;  // RGBA16F textures (ES3; ES2 OES_texture_half_float)
  bool instancing = false;           // glDrawElementsInstanced and attribute divisors (ES3)
  bool element_index_uint = false;   // 32-bit indices (ES3; ES2 OES_element_index_uint)
  bool depth24 = false;              // 24-bit depth renderbuffers (ES3; ES2 OES_depth24)
  bool transform_feedback = false;   // ES3
  // Depth textures a framebuffer renders into and shaders sample (ES3; ES2 OES_depth_texture,
  // WebGL1 WEBGL_depth_texture): the shadow map.
  bool depth_textures = false;
  // RGBA32F colour attachments (ES 3.2; ES 3.0/3.1 EXT_color_buffer_float): the palette pass.
  bool color_buffer_float = false;
  // ES 3.1 compute: compute shaders, shader storage buffers, images, indirect draws. The limits
  // below are 0 without it. Vertex-stage storage blocks may be 0 even with compute (ES 3.1's
  // minimum), so the GPU-driven path never reads storage buffers in a vertex shader.
  bool compute = false;
  int max_compute_work_group_size_x = 0;       // invocations along x of one work group
  int max_compute_work_group_invocations = 0;  // x * y * z of one work group
  int max_compute_shader_storage_blocks = 0;   // storage buffers one compute shader may use
  int max_compute_image_uniforms = 0;          // images one compute shader may use
  int max_vertex_shader_storage_blocks = 0;    // often 0 on ES 3.1 devices
  int64_t max_shader_storage_block_size = 0;   // bytes one storage buffer binding may span
  // False under Mesa's no-op driver (GALLIUM_NOOP=1): draws and reads succeed but nothing is
  // rasterised (images stay blank) and frame times leave out the GPU's work.
  bool rasterizes = true;
};

// Reads every capability of the context current on this thread. Requires a current context.
Caps probeCaps();

}  // namespace throng::render
