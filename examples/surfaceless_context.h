// The examples' engine side: an OpenGL ES 3 context with no window, as a game engine would own
// one (Mesa's surfaceless platform; a real engine would have a window surface), and the
// framebuffer object it draws its frame into.
#pragma once

#include <cstring>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>

// Creates and makes current an ES 3 context on a surfaceless display; false when EGL refuses.
// The caller terminates `display` and destroys `context` (either may be set on failure).
inline bool createSurfacelessContext(EGLDisplay& display, EGLContext& context) {
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  display = get_platform_display != nullptr
                ? get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, EGL_DEFAULT_DISPLAY, nullptr)
                : eglGetDisplay(EGL_DEFAULT_DISPLAY);
  if (display == EGL_NO_DISPLAY || !eglInitialize(display, nullptr, nullptr) ||
      !eglBindAPI(EGL_OPENGL_ES_API))
    return false;
  // A context drawing only into framebuffer objects needs no config where EGL allows that.
  EGLConfig config = EGL_NO_CONFIG_KHR;
  const char* extensions = eglQueryString(display, EGL_EXTENSIONS);
  if (extensions == nullptr || std::strstr(extensions, "EGL_KHR_no_config_context") == nullptr) {
    const EGLint config_attributes[] = {EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE};
    EGLint configs = 0;
    if (!eglChooseConfig(display, config_attributes, &config, 1, &configs) || configs == 0)
      return false;
  }
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, 3, EGL_NONE};
  context = eglCreateContext(display, config, EGL_NO_CONTEXT, context_attributes);
  return context != EGL_NO_CONTEXT &&
         eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context);
}

// A framebuffer object of `width` x `height` with RGBA8 colour and 24-bit depth renderbuffers,
// left bound; false when incomplete. The caller deletes the three objects.
inline bool createFrameTarget(int width, int height, GLuint& framebuffer, GLuint& color,
                              GLuint& depth) {
  glGenFramebuffers(1, &framebuffer);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer);
  glGenRenderbuffers(1, &color);
  glBindRenderbuffer(GL_RENDERBUFFER, color);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER, color);
  glGenRenderbuffers(1, &depth);
  glBindRenderbuffer(GL_RENDERBUFFER, depth);
  glRenderbufferStorage(GL_RENDERBUFFER, GL_DEPTH_COMPONENT24, width, height);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER, depth);
  return glCheckFramebufferStatus(GL_FRAMEBUFFER) == GL_FRAMEBUFFER_COMPLETE;
}
