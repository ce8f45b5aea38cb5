// Caps: what the current OpenGL ES context can do, probed once, with test overrides (lower only).
#pragma once

#include <optional>
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
  int max_texture_size = 0;                // texels per side
  int max_renderbuffer_size = 0;           // texels per side
  int max_vertex_attribs = 0;
  bool float_textures = false;  // RGBA32F textures readable in shaders (ES3; ES2 OES_texture_float)
  bool half_float_textures = false;  // RGBA16F textures (ES3; ES2 OES_texture_half_float)
  bool instancing = false;           // glDrawElementsInstanced and attribute divisors (ES3)
  bool element_index_uint = false;   // 32-bit indices (ES3; ES2 OES_element_index_uint)
  bool depth24 = false;              // 24-bit depth renderbuffers (ES3; ES2 OES_depth24)
  bool transform_feedback = false;   // ES3
  // False under Mesa's no-op driver (GALLIUM_NOOP=1): draws and reads succeed but nothing is
  // rasterised (images stay blank) and frame times leave out the GPU's work.
  bool rasterizes = true;
};

// Limits a test (or a user) imposes on top of the real context: each value can only lower the
// probed one (a larger value is ignored), so a desktop driver can play a 256-vector ES2 phone.
struct CapsOverride {
  std::optional<int> max_vertex_uniform_vectors;
  std::optional<int> max_vertex_texture_image_units;
  std::optional<int> max_texture_size;
  bool disable_float_textures = false;
  bool disable_half_float_textures = false;
  bool disable_instancing = false;
};

// Reads every capability of the context current on this thread. Requires a current context.
Caps probeCaps();
// `caps` lowered by `limits`.
Caps applyCapsOverride(Caps caps, const CapsOverride& limits);

}  // namespace throng::render
