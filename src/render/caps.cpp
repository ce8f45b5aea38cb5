// Capability probe of the current OpenGL ES context, and the downward-only overrides.
#include "throng/render/caps.h"

#include <algorithm>
#include <cstdio>
#include <cstring>

#include <GLES3/gl31.h>

#include "render/test_hooks.h"

namespace throng::render {
namespace {

std::string glString(GLenum name) {
  const GLubyte* text = glGetString(name);
  return text ? reinterpret_cast<const char*>(text) : "";
}

int glInt(GLenum name) {
  GLint value = 0;
  glGetIntegerv(name, &value);
  return value;
}

// True when the space-separated GL_EXTENSIONS list holds exactly `name`.
bool hasExtension(const std::string& extensions, const char* name) {
  const size_t length = std::strlen(name);
  size_t at = 0;
  while ((at = extensions.find(name, at)) != std::string::npos) {
    const bool starts = at == 0 || extensions[at - 1] == ' ';
    const bool ends = at + length == extensions.size() || extensions[at + length] == ' ';
    if (starts && ends) return true;
    at += length;
  }
  return false;
}

}  // namespace

Caps probeCaps() {
  Caps caps;
  caps.version = glString(GL_VERSION);
  caps.renderer = glString(GL_RENDERER);
  // Mesa's no-op pipe (GALLIUM_NOOP=1) names itself "NOOP" whatever driver it wraps.
  caps.rasterizes = caps.renderer.find("NOOP") == std::string::npos;
  caps.shading_language = glString(GL_SHADING_LANGUAGE_VERSION);
  // "OpenGL ES <major>.<minor> <vendor text>" (ES 2.0 spec, 6.1.5).
  if (std::sscanf(caps.version.c_str(), "OpenGL ES %d.%d", &caps.gles_major, &caps.gles_minor) !=
      2) {
    caps.gles_major = 0;
    caps.gles_minor = 0;
  }
  caps.max_vertex_uniform_vectors = glInt(GL_MAX_VERTEX_UNIFORM_VECTORS);
  caps.max_vertex_texture_image_units = glInt(GL_MAX_VERTEX_TEXTURE_IMAGE_UNITS);
  caps.max_texture_image_units = glInt(GL_MAX_TEXTURE_IMAGE_UNITS);
  caps.max_texture_size = glInt(GL_MAX_TEXTURE_SIZE);
  caps.max_renderbuffer_size = glInt(GL_MAX_RENDERBUFFER_SIZE);
  caps.max_vertex_attribs = glInt(GL_MAX_VERTEX_ATTRIBS);
  const bool es3 = caps.gles_major >= 3;
  const std::string extensions = glString(GL_EXTENSIONS);
  caps.float_textures = es3 || hasExtension(extensions, "GL_OES_texture_float");
  caps.half_float_textures = es3 || hasExtension(extensions, "GL_OES_texture_half_float");
  caps.instancing = es3;
  caps.element_index_uint = es3 || hasExtension(extensions, "GL_OES_element_index_uint");
  caps.depth24 = es3 || hasExtension(extensions, "GL_OES_depth24");
  caps.transform_feedback = es3;
  caps.depth_textures = es3 || hasExtension(extensions, "GL_OES_depth_texture") ||
                        hasExtension(extensions, "GL_WEBGL_depth_texture") ||
                        hasExtension(extensions, "WEBGL_depth_texture");
  const bool es32 = caps.gles_major > 3 || (es3 && caps.gles_minor >= 2);
  caps.color_buffer_float = es32 || (es3 && hasExtension(extensions, "GL_EXT_color_buffer_float"));
#ifndef __EMSCRIPTEN__  // WebGL2 has no compute, and its headers may lack the ES 3.1 names
  caps.compute = caps.gles_major > 3 || (es3 && caps.gles_minor >= 1);
  if (caps.compute) {
    GLint size_x = 0;
    glGetIntegeri_v(GL_MAX_COMPUTE_WORK_GROUP_SIZE, 0, &size_x);
    caps.max_compute_work_group_size_x = size_x;
    caps.max_compute_work_group_invocations = glInt(GL_MAX_COMPUTE_WORK_GROUP_INVOCATIONS);
    caps.max_compute_shader_storage_blocks = glInt(GL_MAX_COMPUTE_SHADER_STORAGE_BLOCKS);
    caps.max_compute_image_uniforms = glInt(GL_MAX_COMPUTE_IMAGE_UNIFORMS);
    caps.max_vertex_shader_storage_blocks = glInt(GL_MAX_VERTEX_SHADER_STORAGE_BLOCKS);
    GLint64 block_size = 0;
    glGetInteger64v(GL_MAX_SHADER_STORAGE_BLOCK_SIZE, &block_size);
    caps.max_shader_storage_block_size = block_size;
  }
#endif
  glGetError();  // a query an ES2 context does not know must not leak into the caller's checks
  return caps;
}

Caps applyCapsOverride(Caps caps, const CapsOverride& limits) {
  if (limits.max_vertex_uniform_vectors)
    caps.max_vertex_uniform_vectors =
        std::min(caps.max_vertex_uniform_vectors, *limits.max_vertex_uniform_vectors);
  if (limits.max_vertex_texture_image_units)
    caps.max_vertex_texture_image_units =
        std::min(caps.max_vertex_texture_image_units, *limits.max_vertex_texture_image_units);
  if (limits.max_texture_image_units)
    caps.max_texture_image_units =
        std::min(caps.max_texture_image_units, *limits.max_texture_image_units);
  if (limits.max_texture_size)
    caps.max_texture_size = std::min(caps.max_texture_size, *limits.max_texture_size);
  if (limits.disable_float_textures) caps.float_textures = false;
  if (limits.disable_half_float_textures) caps.half_float_textures = false;
  if (limits.disable_instancing) caps.instancing = false;
  if (limits.disable_color_buffer_float) caps.color_buffer_float = false;
  if (limits.disable_depth_textures) caps.depth_textures = false;
  if (limits.disable_compute) {
    caps.compute = false;
    caps.max_compute_work_group_size_x = 0;
    caps.max_compute_work_group_invocations = 0;
    caps.max_compute_shader_storage_blocks = 0;
    caps.max_compute_image_uniforms = 0;
    caps.max_vertex_shader_storage_blocks = 0;
    caps.max_shader_storage_block_size = 0;
  }
  return caps;
}

}  // namespace throng::render
