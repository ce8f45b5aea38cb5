// GroundRenderer: the ground under a crowd (a lit plane with grid lines) and a soft blob shadow
// under every character, fogged like the crowd; CrowdRenderer's scenery pass draws them when
// asked (CrowdRendererDesc::ground).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "render/frame_shading.h"
#include "render/instanced_renderer.h"
#include "render/program.h"
#include "throng/core/status.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/ground.h"

namespace throng::render {

// One shadow: where it lies and how far it reaches.
struct BlobShadow {
  glm::vec3 center{0.0f};  // world position (on the ground)
  float radius = 0.0f;     // world units
};

// Owns the ground's and the shadows' programs and buffers on one device. Shaders are GLSL ES
// 1.00, so every context draws the same ground; shadows are one instanced draw on ES 3 and
// batches of kMaxShadowsPerDraw quads expanded on the CPU on ES 2.0. `device` must outlive the
// renderer and be current whenever it is used or destroyed. Not thread-safe.
class GroundRenderer {
 public:
  // ES 2.0 shadow batches: quads addressed with 16-bit indices (4 vertices each).
  static constexpr uint32_t kMaxShadowsPerDraw = 65536 / 4;

  // kGlError (with the shader log) when a program or a buffer cannot be made.
  static Result<std::unique_ptr<GroundRenderer>> create(Device& device);
  ~GroundRenderer();
  GroundRenderer(const GroundRenderer&) = delete;
  GroundRenderer& operator=(const GroundRenderer&) = delete;

  // Draws the ground (desc.grid), lit by `view`'s light and shadowed by `shading`'s shadow map
  // (if any), then the blob `shadows` (none when empty) into the bound framebuffer, with depth
  // testing as Device::beginFrame left it: draw it before the characters. The ground writes
  // depth, shadows do not (they blend onto it). Leaves blending and polygon offset off and no
  // vertex array or attribute enabled. kGlError on GL failure.
  Status draw(const FrameView& view, const GroundDesc& desc, std::span<const BlobShadow> shadows,
              const FrameShading& shading = {});
  // Draws a blob shadow of `radius` x |scale| (world units) on the ground of `desc` under each
  // agent of the GPU-driven path's LOD lists (`listed`: its compute pass's lists, counts and
  // records, as drawIndirect reads them; `lod_count` lists), with draw()'s look and state: one
  // glDrawElementsIndirect per LOD (only listed.only_lod's when >= 0), its instance count copied
  // from the LOD's draw command on the GPU; no read-back. Needs ES 3.1 (the program is made on
  // first use); call it after the compute pass and before the characters. Adds its draws to
  // drawCalls(). kGlError on GL failure.
  Status drawListedShadows(const FrameView& view, const GroundDesc& desc, float radius,
                           const IndirectInstances& listed, int lod_count);
  // Draw calls of the last draw() and the drawListedShadows() after it.
  uint32_t drawCalls() const { return draw_calls_; }

 private:
  GroundRenderer() = default;
  Status drawGround(const FrameView& view, const GroundDesc& desc, const FrameShading& shading);
  Status drawShadows(const FrameView& view, const GroundDesc& desc,
                     std::span<const BlobShadow> shadows);
  // The shadows' program uniforms and blend, depth and offset state (both ways of drawing them),
  // and their undoing.
  void beginShadows(const Program& program, const FrameView& view, const GroundDesc& desc);
  void endShadows();

  Device* device_ = nullptr;
  bool instancing_ = false;
  Program ground_;
  ShadingUniforms ground_shading_;
  Program shadow_;
  unsigned quad_buffer_ = 0;    // ground: 4 corners
  unsigned corner_buffer_ = 0;  // shadows: 4 corners (instanced) or kMaxShadowsPerDraw quads
  unsigned index_buffer_ = 0;   // 6 indices per quad
  unsigned shadow_buffer_ = 0;  // streamed BlobShadow records (ES 2.0: each one 4 times)
  size_t shadow_buffer_bytes_ = 0;
  std::vector<BlobShadow> expanded_;  // ES 2.0 staging, reused
  // drawListedShadows' program, vertex array and per-LOD indirect commands (made on first use;
  // never in a WebGL build, which has no indirect draws).
  Program listed_shadow_;
  unsigned listed_vertex_array_ = 0;
  unsigned listed_commands_ = 0;
#ifndef __EMSCRIPTEN__
  int listed_command_count_ = 0;
#endif
  uint32_t draw_calls_ = 0;
};

}  // namespace throng::render
