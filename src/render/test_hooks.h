// The render layer's test hooks, behind this one header: capability limits and injected GL faults
// a device is made with, and the verification read-backs of the renderers. Tests and benchmarks
// reach it through the src/ include path; programs never need it.
#pragma once

#include <optional>
#include <vector>

#include "render/instance_record.h"
#include "throng/core/status.h"
#include "throng/render/caps.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"

namespace throng::render {

// Limits imposed on top of the real context: each value can only lower the probed one (a larger
// value is ignored), so a desktop driver can play a 256-vector ES2 phone.
struct CapsOverride {
  std::optional<int> max_vertex_uniform_vectors;
  std::optional<int> max_vertex_texture_image_units;
  std::optional<int> max_texture_image_units;  // e.g. 8: a real ES 2.0 device's (its minimum)
  std::optional<int> max_texture_size;
  bool disable_float_textures = false;
  bool disable_half_float_textures = false;
  bool disable_instancing = false;
  bool disable_compute = false;             // play an ES 3.0 device (or WebGL2) on ES 3.1+
  bool disable_color_buffer_float = false;  // play an ES 3.0 device without RGBA32F targets
  bool disable_depth_textures = false;      // play an ES 2.0 device without OES_depth_texture
};

// `caps` lowered by `limits`.
Caps applyCapsOverride(Caps caps, const CapsOverride& limits);

// The OpenGL ES major version a refused context asks EGL for: no EGL implements it.
inline constexpr int kRefusedContextVersion = 9;

// GL and EGL failures injected through a Device, so that tests drive every failure path of the
// renderers on a real driver. Each fault makes the real driver fail where it can (EGL and the
// GLSL compiler and linker answer with their own errors and logs) and stands in for the driver
// where a software rasteriser never fails (running out of memory). Zero-cost default: no faults.
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

// What DeviceDesc::test_hooks points at: the caps limits act when the device is made;
// faults.refuse_context and faults.incomplete_framebuffer while a headless device is made, the
// other faults on what renderers do with the device.
struct DeviceTestHooks {
  CapsOverride caps;
  GlFaults faults;
};

// The faults injected into the work done on `device`; setDeviceFaults changes them for what
// renderers do from then on (a fault in the middle of a run).
const GlFaults& deviceFaults(const Device& device);
void setDeviceFaults(Device& device, const GlFaults& faults);

// Verification path (instanced path): the instance records `renderer`'s last draw() uploaded, in
// draw order, read back from the GPU's buffer. kUnsupported on the other paths; kGlError on GL
// failure; the renderer's status when it failed.
Status readInstanceRecords(const CrowdRenderer& renderer, std::vector<InstanceRecord>& out);

}  // namespace throng::render
