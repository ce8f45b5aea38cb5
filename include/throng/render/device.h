// Device: an OpenGL ES 2.0/3.0 context (headless through EGL, or the caller's current one), its
// caps, and the frame helpers every render path uses (begin, finish with timing, read back).
#pragma once

#include <chrono>
#include <memory>

#include <glm/glm.hpp>

#include "throng/core/status.h"
#include "throng/render/caps.h"
#include "throng/render/capture.h"

namespace throng::render {

// Test hooks (src/render/test_hooks.h): capability limits and injected faults.
struct DeviceTestHooks;
struct GlFaults;

// Zero-cost defaults: DeviceDesc{} is a 256x256 headless ES 3.0 device.
struct DeviceDesc {
  int gles_major = 3;  // 2 or 3: the context version asked for
  // With gles_major 3: 0, 1 (compute, the GPU-driven path) or 2. EGL may answer with a later
  // compatible version (Mesa answers every ES 3 request with 3.2); caps() says what it is.
  int gles_minor = 0;
  int width = 256;  // frame size in pixels
  int height = 256;
  // createForCurrentContext only: the caller's framebuffer object (a GL name in the current
  // context, complete, width x height) that frames are drawn into and read back from; 0 is the
  // context's default framebuffer. A headless device makes its own: must be 0 there.
  unsigned framebuffer = 0;
  // Tests: capability limits and failures to inject (src/render/test_hooks.h), copied when the
  // device is made; null for none.
  const DeviceTestHooks* test_hooks = nullptr;
};

// One GL context and the framebuffer frames are drawn into.
//
// Headless devices use EGL's surfaceless platform (EGL_PLATFORM_SURFACELESS_MESA) and render
// into a framebuffer object (RGBA8 colour + depth renderbuffers). Mesa answers an ES 2.0 request
// with an ES 3.2 context unless MESA_GLES_VERSION_OVERRIDE=2.0 was in the environment when the
// EGL display was initialised. The library never changes the environment: a program that wants a
// real ES 2.0 context on Mesa (the throng CLI and the tests do) sets that variable itself before
// creating its first device. The display is shared by every live device and initialised once,
// so the variable only takes effect when no other device is alive; caps() always reports the
// version the context really is (parsed from GL_VERSION), never the request. With the override
// in force an ES 3 request fails with kGlError.
//
// Every GL call of every render object happens with its device's context current on the calling
// thread; makeCurrent() switches between devices. Not thread-safe.
class Device {
 public:
  // A headless device. EGL or GL failures (no surfaceless platform, no context of that version,
  // incomplete framebuffer, size over GL_MAX_RENDERBUFFER_SIZE) are kGlError; a version other
  // than 2 or 3, a non-positive size or a non-zero desc.framebuffer is kInvalidArgument; the web
  // build (emscripten) has no headless devices: kUnsupported.
  static Result<std::unique_ptr<Device>> createHeadless(const DeviceDesc& desc);
  // A device over the context already current on this thread (a window's, a browser's, a game
  // engine's), drawing into desc.framebuffer (0: the default one) of desc.width x desc.height.
  // It owns neither the context nor the framebuffer. kGlError when no ES context is current or
  // the framebuffer is incomplete; kInvalidArgument when desc.framebuffer names no framebuffer.
  static Result<std::unique_ptr<Device>> createForCurrentContext(const DeviceDesc& desc);
  ~Device();
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  const Caps& caps() const { return caps_; }
  int width() const { return width_; }
  int height() const { return height_; }
  bool headless() const { return context_ != nullptr; }
  // Changes the frame size (a window was resized): a borrowed context's framebuffer 0 is the
  // window's, so only the size changes; a headless device reallocates its renderbuffers (their
  // contents are lost). kInvalidArgument for a non-positive size; kGlError past
  // GL_MAX_RENDERBUFFER_SIZE or on GL failure (the size is then unchanged).
  Status resize(int width, int height);

  // Makes this device's context current on the calling thread (no-op for a borrowed context).
  Status makeCurrent();
  // Binds the frame's framebuffer and viewport, enables depth testing (less-equal),
  // clears colour (RGBA, 0..1) and depth, and starts the frame's wall clock.
  void beginFrame(const glm::vec4& clear_color);
  // glFinish, then the wall-clock milliseconds since beginFrame(). Wall clock rather than timer
  // queries: the software rasterizer's timer queries do not measure its deferred work.
  double finish();
  // The frame's pixels (glReadPixels RGBA8, rows flipped to top-first). kGlError on GL failure.
  Result<Image> readPixels();

 private:
  Device() = default;
  Status createFramebuffer();

  void* display_ = nullptr;  // EGLDisplay (kept opaque so users need not include EGL)
  void* context_ = nullptr;  // EGLContext; null for a borrowed context
  unsigned framebuffer_ = 0;
  unsigned color_renderbuffer_ = 0;
  unsigned depth_renderbuffer_ = 0;
  int width_ = 0;
  int height_ = 0;
  Caps caps_;
  std::unique_ptr<DeviceTestHooks> hooks_;  // never null: none by default
  friend const GlFaults& deviceFaults(const Device& device);
  friend void setDeviceFaults(Device& device, const GlFaults& faults);
  std::chrono::steady_clock::time_point frame_start_{};
};

}  // namespace throng::render
