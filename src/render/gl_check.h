// GL and EGL error checks turned into throng::Status (ErrorCode::kGlError).
#pragma once

#include <cstddef>
#include <string_view>

#include <GLES3/gl3.h>

#include "render/test_hooks.h"
#include "throng/core/status.h"

namespace throng::render {

// "GL_INVALID_OPERATION", ... or "GL error 0x...." for an unknown code.
const char* glErrorName(GLenum error);
// "EGL_BAD_MATCH", ... or "EGL error" for an unknown code.
const char* eglErrorName(int error);

// Drains glGetError(); returns ok when no error was pending, otherwise kGlError naming `where`
// and every pending error. Needs a current context.
Status checkGl(std::string_view where);
// checkGl after an upload (glTexImage2D, glBufferData): with faults.out_of_memory_on_upload the
// driver's answer is GL_OUT_OF_MEMORY whatever it was.
Status checkGlUpload(std::string_view where, const GlFaults& faults);

// A byte offset into the bound buffer as GL's pointer arguments take it.
inline const void* byteOffset(size_t bytes) {
  return reinterpret_cast<const void*>(bytes);
}

}  // namespace throng::render
