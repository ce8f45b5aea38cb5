// Device: headless EGL (surfaceless Mesa platform) or borrowed ES contexts, FBO, frame helpers.
#include "throng/render/device.h"

#include <cstdlib>
#include <cstring>

#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl3.h>
#include <fmt/core.h>

#include "render/gl_check.h"
#include "render/test_hooks.h"

namespace throng::render {
namespace {

constexpr const char* kGlesOverrideVariable = "MESA_GLES_VERSION_OVERRIDE";

// The surfaceless EGL display, shared by every live headless device: initialised by the first,
// terminated by the last (Mesa reads MESA_GLES_VERSION_OVERRIDE when it initialises a display).
struct SharedDisplay {
  EGLDisplay display = EGL_NO_DISPLAY;
  int users = 0;
};
SharedDisplay& sharedDisplay() {
  static SharedDisplay shared;
  return shared;
}

Status eglFailure(std::string_view what) {
  const EGLint error = eglGetError();
  return Status(ErrorCode::kGlError,
                fmt::format("EGL: {} failed: {} (0x{:04x})", what, eglErrorName(error), error));
}

bool hasEglExtension(const char* extensions, const char* name) {
  if (!extensions) return false;
  const size_t length = std::strlen(name);
  for (const char* at = std::strstr(extensions, name); at; at = std::strstr(at + length, name)) {
    const bool starts = at == extensions || at[-1] == ' ';
    const bool ends = at[length] == ' ' || at[length] == '\0';
    if (starts && ends) return true;
  }
  return false;
}

Result<EGLDisplay> acquireDisplay() {
  SharedDisplay& shared = sharedDisplay();
  if (shared.users > 0) {
    ++shared.users;
    return shared.display;
  }
  const char* client_extensions = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
  if (!hasEglExtension(client_extensions, "EGL_MESA_platform_surfaceless"))
    return Status(ErrorCode::kGlError,
                  "EGL: the surfaceless platform (EGL_MESA_platform_surfaceless) is not available; "
                  "headless rendering needs Mesa's EGL");
  auto get_platform_display = reinterpret_cast<PFNEGLGETPLATFORMDISPLAYEXTPROC>(
      eglGetProcAddress("eglGetPlatformDisplayEXT"));
  if (!get_platform_display)
    return Status(ErrorCode::kGlError, "EGL: eglGetPlatformDisplayEXT is not available");
  // The surfaceless platform takes no native display (EGL_DEFAULT_DISPLAY, a null pointer).
  EGLDisplay display = get_platform_display(EGL_PLATFORM_SURFACELESS_MESA, nullptr, nullptr);
  if (display == EGL_NO_DISPLAY) return eglFailure("eglGetPlatformDisplayEXT(surfaceless)");
  EGLint major = 0, minor = 0;
  if (!eglInitialize(display, &major, &minor)) return eglFailure("eglInitialize");
  shared.display = display;
  shared.users = 1;
  return display;
}

void releaseDisplay() {
  SharedDisplay& shared = sharedDisplay();
  if (shared.users == 0) return;
  if (--shared.users == 0) {
    eglTerminate(shared.display);
    eglReleaseThread();
    shared.display = EGL_NO_DISPLAY;
  }
}

Status validateDesc(const DeviceDesc& desc) {
  if (desc.gles_major != 2 && desc.gles_major != 3)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("device: OpenGL ES {} asked for; 2 or 3 are supported", desc.gles_major));
  if (desc.gles_minor < 0 || desc.gles_minor > (desc.gles_major == 3 ? 2 : 0))
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("device: OpenGL ES {}.{} asked for; 2.0 and 3.0 to 3.2 are supported",
                              desc.gles_major, desc.gles_minor));
  if (desc.width <= 0 || desc.height <= 0)
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("device: frame size {}x{} must be positive", desc.width, desc.height));
  return Status::okStatus();
}

DeviceTestHooks hooksOf(const DeviceDesc& desc) {
  return desc.test_hooks ? *desc.test_hooks : DeviceTestHooks{};
}

}  // namespace

const GlFaults& deviceFaults(const Device& device) {
  return device.hooks_->faults;
}

void setDeviceFaults(Device& device, const GlFaults& faults) {
  device.hooks_->faults = faults;
}

Result<std::unique_ptr<Device>> Device::createHeadless(const DeviceDesc& desc) {
  if (Status status = validateDesc(desc); !status.ok()) return status;
  if (desc.framebuffer != 0)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("device: a headless device draws into its own framebuffer, not {}",
                              desc.framebuffer));
#ifdef __EMSCRIPTEN__
  // A browser has no EGL device of its own: a page draws into its canvas's WebGL context.
  return Status(ErrorCode::kUnsupported,
                "device: no headless devices in a browser (use createForCurrentContext on the "
                "page's WebGL context)");
#endif
  Result<EGLDisplay> display = acquireDisplay();
  if (!display.ok()) return display.status();
  std::unique_ptr<Device> device(new Device());
  device->display_ = *display;  // from here on the destructor releases the display
  device->width_ = desc.width;
  device->height_ = desc.height;
  device->hooks_ = std::make_unique<DeviceTestHooks>(hooksOf(desc));

  if (!eglBindAPI(EGL_OPENGL_ES_API)) return eglFailure("eglBindAPI(EGL_OPENGL_ES_API)");
  EGLConfig config = EGL_NO_CONFIG_KHR;
  if (!hasEglExtension(eglQueryString(*display, EGL_EXTENSIONS), "EGL_KHR_no_config_context")) {
    const EGLint attributes[] = {EGL_RENDERABLE_TYPE,
                                 desc.gles_major == 3 ? EGL_OPENGL_ES3_BIT : EGL_OPENGL_ES2_BIT,
                                 EGL_NONE};
    EGLint count = 0;
    if (!eglChooseConfig(*display, attributes, &config, 1, &count) || count == 0)
      return eglFailure(fmt::format("eglChooseConfig(OpenGL ES {})", desc.gles_major));
  }
  const int major =
      device->hooks_->faults.refuse_context ? kRefusedContextVersion : desc.gles_major;
  const EGLint context_attributes[] = {EGL_CONTEXT_MAJOR_VERSION, major, EGL_CONTEXT_MINOR_VERSION,
                                       desc.gles_minor, EGL_NONE};
  EGLContext context = eglCreateContext(*display, config, EGL_NO_CONTEXT, context_attributes);
  if (context == EGL_NO_CONTEXT) {
    // "ES 3" or "ES 3.1": the minor version only where one was asked for.
    const std::string version =
        desc.gles_minor > 0 ? fmt::format("{}.{}", major, desc.gles_minor) : std::to_string(major);
    Status failure =
        eglFailure(fmt::format("eglCreateContext(OpenGL ES {}{})", version,
                               device->hooks_->faults.refuse_context ? ", an injected fault" : ""));
    const char* override_value = std::getenv(kGlesOverrideVariable);
    if (desc.gles_major == 3 && override_value)
      return Status(ErrorCode::kGlError,
                    fmt::format("{} ({}={} is in force for this EGL display)", failure.message(),
                                kGlesOverrideVariable, override_value));
    return failure;
  }
  device->context_ = context;
  if (!eglMakeCurrent(*display, EGL_NO_SURFACE, EGL_NO_SURFACE, context))
    return eglFailure("eglMakeCurrent(surfaceless)");
  device->caps_ = applyCapsOverride(probeCaps(), device->hooks_->caps);
  if (device->caps_.gles_major < 2)
    return Status(ErrorCode::kGlError,
                  fmt::format("device: unrecognised GL_VERSION '{}'", device->caps_.version));
  if (desc.width > device->caps_.max_renderbuffer_size ||
      desc.height > device->caps_.max_renderbuffer_size)
    return Status(ErrorCode::kGlError,
                  fmt::format("device: frame {}x{} exceeds GL_MAX_RENDERBUFFER_SIZE {}", desc.width,
                              desc.height, device->caps_.max_renderbuffer_size));
  if (Status status = device->createFramebuffer(); !status.ok()) return status;
  return device;
}

Result<std::unique_ptr<Device>> Device::createForCurrentContext(const DeviceDesc& desc) {
  if (Status status = validateDesc(desc); !status.ok()) return status;
  if (!glGetString(GL_VERSION))
    return Status(ErrorCode::kGlError, "device: no OpenGL ES context is current on this thread");
  std::unique_ptr<Device> device(new Device());
  device->width_ = desc.width;
  device->height_ = desc.height;
  device->hooks_ = std::make_unique<DeviceTestHooks>(hooksOf(desc));
  device->caps_ = applyCapsOverride(probeCaps(), device->hooks_->caps);
  if (device->caps_.gles_major < 2)
    return Status(ErrorCode::kGlError,
                  fmt::format("device: '{}' is not an OpenGL ES context", device->caps_.version));
  if (desc.framebuffer != 0) {
    // glIsFramebuffer is true only once the name has been bound: the caller has set it up.
    if (!glIsFramebuffer(desc.framebuffer))
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("device: {} is not a framebuffer object of the current context",
                                desc.framebuffer));
    GLint previous = 0;
    glGetIntegerv(GL_FRAMEBUFFER_BINDING, &previous);
    glBindFramebuffer(GL_FRAMEBUFFER, desc.framebuffer);
    const GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
    glBindFramebuffer(GL_FRAMEBUFFER, static_cast<GLuint>(previous));
    if (complete != GL_FRAMEBUFFER_COMPLETE)
      return Status(ErrorCode::kGlError,
                    fmt::format("device: framebuffer {} is incomplete (status 0x{:04x})",
                                desc.framebuffer, complete));
    device->framebuffer_ = desc.framebuffer;
  }
  return device;
}

Status Device::createFramebuffer() {
  glGenFramebuffers(1, &framebuffer_);
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glGenRenderbuffers(1, &color_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, color_renderbuffer_);
  // RGBA8 is core in ES3 and GL_OES_rgb8_rgba8 in ES2 (which Mesa has); its enum is the same.
  // The incomplete-framebuffer fault leaves the colour attachment without storage.
  if (!hooks_->faults.incomplete_framebuffer)
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_, height_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_COLOR_ATTACHMENT0, GL_RENDERBUFFER,
                            color_renderbuffer_);
  glGenRenderbuffers(1, &depth_renderbuffer_);
  glBindRenderbuffer(GL_RENDERBUFFER, depth_renderbuffer_);
  // 24-bit depth is core in ES3 and OES_depth24 in ES2 (same enum); ES2 only guarantees 16. With
  // 24 bits an ES2 frame resolves overlaps as an ES3 one does, so the paths' images agree.
  glRenderbufferStorage(GL_RENDERBUFFER,
                        caps_.depth24 ? GL_DEPTH_COMPONENT24 : GL_DEPTH_COMPONENT16, width_,
                        height_);
  glFramebufferRenderbuffer(GL_FRAMEBUFFER, GL_DEPTH_ATTACHMENT, GL_RENDERBUFFER,
                            depth_renderbuffer_);
  const GLenum complete = glCheckFramebufferStatus(GL_FRAMEBUFFER);
  if (complete != GL_FRAMEBUFFER_COMPLETE)
    return Status(ErrorCode::kGlError,
                  fmt::format("device: framebuffer {}x{} incomplete (status 0x{:04x})", width_,
                              height_, complete));
  return checkGl("device: creating the framebuffer");
}

Device::~Device() {
  if (!context_) {
    // A headless device whose context was never made still holds the shared display.
    if (display_) releaseDisplay();
    return;
  }
  EGLDisplay display = display_;
  if (eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, context_)) {
    if (depth_renderbuffer_) glDeleteRenderbuffers(1, &depth_renderbuffer_);
    if (color_renderbuffer_) glDeleteRenderbuffers(1, &color_renderbuffer_);
    if (framebuffer_) glDeleteFramebuffers(1, &framebuffer_);
  }
  eglMakeCurrent(display, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
  eglDestroyContext(display, context_);
  releaseDisplay();
}

Status Device::resize(int width, int height) {
  if (width <= 0 || height <= 0)
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("device: frame size {}x{} (both must be positive)", width, height));
  if (width == width_ && height == height_) return Status::okStatus();
  if (context_) {
    if (width > caps_.max_renderbuffer_size || height > caps_.max_renderbuffer_size)
      return Status(ErrorCode::kGlError,
                    fmt::format("device: frame {}x{} exceeds GL_MAX_RENDERBUFFER_SIZE {}", width,
                                height, caps_.max_renderbuffer_size));
    if (Status status = makeCurrent(); !status.ok()) return status;
    glBindRenderbuffer(GL_RENDERBUFFER, color_renderbuffer_);
    glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width, height);
    glBindRenderbuffer(GL_RENDERBUFFER, depth_renderbuffer_);
    glRenderbufferStorage(GL_RENDERBUFFER,
                          caps_.depth24 ? GL_DEPTH_COMPONENT24 : GL_DEPTH_COMPONENT16, width,
                          height);
    if (Status status = checkGl("device: resizing the framebuffer"); !status.ok()) {
      glBindRenderbuffer(GL_RENDERBUFFER, color_renderbuffer_);
      glRenderbufferStorage(GL_RENDERBUFFER, GL_RGBA8, width_, height_);
      glBindRenderbuffer(GL_RENDERBUFFER, depth_renderbuffer_);
      glRenderbufferStorage(GL_RENDERBUFFER,
                            caps_.depth24 ? GL_DEPTH_COMPONENT24 : GL_DEPTH_COMPONENT16, width_,
                            height_);
      return status;
    }
  }
  width_ = width;
  height_ = height;
  return Status::okStatus();
}

Status Device::makeCurrent() {
  if (!context_) return Status::okStatus();
  if (eglGetCurrentContext() == context_) return Status::okStatus();
  if (!eglMakeCurrent(display_, EGL_NO_SURFACE, EGL_NO_SURFACE, context_))
    return eglFailure("eglMakeCurrent");
  return Status::okStatus();
}

void Device::beginFrame(const glm::vec4& clear_color) {
  frame_start_ = std::chrono::steady_clock::now();
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glViewport(0, 0, width_, height_);
  glEnable(GL_DEPTH_TEST);
  glDepthFunc(GL_LEQUAL);
  glDepthMask(GL_TRUE);
  glColorMask(GL_TRUE, GL_TRUE, GL_TRUE, GL_TRUE);
  glClearColor(clear_color.r, clear_color.g, clear_color.b, clear_color.a);
  glClearDepthf(1.0f);
  glClear(GL_COLOR_BUFFER_BIT | GL_DEPTH_BUFFER_BIT);
}

double Device::finish() {
  glFinish();
  const auto elapsed = std::chrono::steady_clock::now() - frame_start_;
  return std::chrono::duration<double, std::milli>(elapsed).count();
}

Result<Image> Device::readPixels() {
  glBindFramebuffer(GL_FRAMEBUFFER, framebuffer_);
  glPixelStorei(GL_PACK_ALIGNMENT, 1);
  Image image;
  image.width = width_;
  image.height = height_;
  const size_t row_bytes = static_cast<size_t>(width_) * 4;
  std::vector<uint8_t> bottom_up(row_bytes * height_);
  glReadPixels(0, 0, width_, height_, GL_RGBA, GL_UNSIGNED_BYTE, bottom_up.data());
  if (Status status = checkGl("device: glReadPixels"); !status.ok()) return status;
  image.rgba.resize(bottom_up.size());
  // GL's first row is the bottom one; PNG's is the top.
  for (int y = 0; y < height_; ++y)
    std::memcpy(image.rgba.data() + row_bytes * y, bottom_up.data() + row_bytes * (height_ - 1 - y),
                row_bytes);
  return image;
}

}  // namespace throng::render
