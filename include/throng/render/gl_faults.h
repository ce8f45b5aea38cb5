// GlFaults: GL and EGL failures injected through a Device, so that tests drive every failure
// path of the renderers on a real driver.
#pragma once

namespace throng::render {

// The OpenGL ES major version a refused context asks EGL for: no EGL implements it.
inline constexpr int kRefusedContextVersion = 9;

// Each fault makes the real driver fail where it can (EGL and the GLSL compiler and linker answer
// with their own errors and logs) and stands in for the driver where a software rasteriser never
// fails (running out of memory). Zero-cost default: no faults.
struct GlFaults {
  // Device::createHeadless asks EGL for OpenGL ES kRefusedContextVersion: EGL refuses it.
  bool refuse_context = false;
  // The headless device's colour renderbuffer gets no storage: GL reports the framebuffer
  // incomplete.
  bool incomplete_framebuffer = false;
  // Every vertex shader gets an #error line after its #version: the compiler refuses it.
  bool shader_compile = false;
  // Every vertex shader's main() is renamed: it compiles, and the program fails to link.
  bool program_link = false;
  // Every upload (animation texture, vertex, index and instance buffers) is reported as
  // GL_OUT_OF_MEMORY after the real call, as a driver that ran out of memory reports it.
  bool out_of_memory_on_upload = false;
};

}  // namespace throng::render
