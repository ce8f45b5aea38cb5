// GL and EGL error names and the glGetError drain.
#include "render/gl_check.h"

#include <EGL/egl.h>
#include <fmt/core.h>

namespace throng::render {

// glGetError can queue several errors; drain at most this many so a broken driver cannot hang us.
constexpr int kMaxDrainedErrors = 16;

const char* glErrorName(GLenum error) {
  switch (error) {
    case GL_NO_ERROR:
      return "GL_NO_ERROR";
    case GL_INVALID_ENUM:
      return "GL_INVALID_ENUM";
    case GL_INVALID_VALUE:
      return "GL_INVALID_VALUE";
    case GL_INVALID_OPERATION:
      return "GL_INVALID_OPERATION";
    case GL_INVALID_FRAMEBUFFER_OPERATION:
      return "GL_INVALID_FRAMEBUFFER_OPERATION";
    case GL_OUT_OF_MEMORY:
      return "GL_OUT_OF_MEMORY";
    default:
      return "GL error (unknown code)";
  }
}

const char* eglErrorName(int error) {
  switch (error) {
    case EGL_SUCCESS:
      return "EGL_SUCCESS";
    case EGL_NOT_INITIALIZED:
      return "EGL_NOT_INITIALIZED";
    case EGL_BAD_ACCESS:
      return "EGL_BAD_ACCESS";
    case EGL_BAD_ALLOC:
      return "EGL_BAD_ALLOC";
    case EGL_BAD_ATTRIBUTE:
      return "EGL_BAD_ATTRIBUTE";
    case EGL_BAD_CONTEXT:
      return "EGL_BAD_CONTEXT";
    case EGL_BAD_CONFIG:
      return "EGL_BAD_CONFIG";
    case EGL_BAD_CURRENT_SURFACE:
      return "EGL_BAD_CURRENT_SURFACE";
    case EGL_BAD_DISPLAY:
      return "EGL_BAD_DISPLAY";
    case EGL_BAD_SURFACE:
      return "EGL_BAD_SURFACE";
    case EGL_BAD_MATCH:
      return "EGL_BAD_MATCH";
    case EGL_BAD_PARAMETER:
      return "EGL_BAD_PARAMETER";
    case EGL_BAD_NATIVE_PIXMAP:
      return "EGL_BAD_NATIVE_PIXMAP";
    case EGL_BAD_NATIVE_WINDOW:
      return "EGL_BAD_NATIVE_WINDOW";
    case EGL_CONTEXT_LOST:
      return "EGL_CONTEXT_LOST";
    default:
      return "EGL error (unknown code)";
  }
}

Status checkGl(std::string_view where) {
  std::string errors;
  for (int i = 0; i < kMaxDrainedErrors; ++i) {
    const GLenum error = glGetError();
    if (error == GL_NO_ERROR) break;
    if (!errors.empty()) errors += ", ";
    errors += fmt::format("{} (0x{:04x})", glErrorName(error), error);
  }
  if (errors.empty()) return Status::okStatus();
  return Status(ErrorCode::kGlError, fmt::format("{}: {}", where, errors));
}

Status checkGlUpload(std::string_view where, const GlFaults& faults) {
  Status status = checkGl(where);
  if (!faults.out_of_memory_on_upload) return status;
  return Status(ErrorCode::kGlError, fmt::format("{}: {} (0x{:04x}), an injected fault", where,
                                                 glErrorName(GL_OUT_OF_MEMORY), GL_OUT_OF_MEMORY));
}

}  // namespace throng::render
