// The impostor at run time (docs/lods.md, "Impostors at run time"): the package's atlases
// uploaded once, and camera-facing quads drawn from the instanced path's instance records, one
// instanced draw for every impostor agent of a frame (ES 3.0).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <GLES3/gl3.h>
#include <glm/glm.hpp>

#include "render/frame_shading.h"
#include "render/instance_record.h"
#include "render/instanced_renderer.h"
#include "render/program.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/shading.h"

namespace throng::render {

// Clips an impostor program can tell apart: two uniform vectors each of ES 3.0's guaranteed 256
// vertex uniform vectors, leaving most to the user's file. A package with more clips draws its
// last mesh LOD instead of the impostor (ImpostorRenderer::create says why).
inline constexpr size_t kMaxImpostorClips = 64;

// What the vertex shader picked for one record (capturePicks): impostorBlend's fields.
struct ImpostorPick {
  uint32_t views[4] = {};
  float view_weights[4] = {};
  uint32_t frames[2] = {};
  float frame_weight = 0.0f;
};

// How far the short cross-fade between the last mesh LOD and the impostor reaches before the
// impostor's switch distance: this share of it (docs/lods.md, "Impostors at run time").
inline constexpr float kImpostorFadeBand = 0.1f;

// The cross-fade of a frame (common/fade.glsl): the band of distances from the eye (model units at
// scale 1, reach included: the LOD rule's) where an agent of the last mesh LOD is drawn both ways
// behind a screen door. band = (start, 1 / width); width 0: no fade.
struct ImpostorFade {
  uint32_t instances = 0;  // records of the last mesh LOD before the impostor's (drawn too)
  glm::vec3 eye{0.0f};
  glm::vec2 band{0.0f};
};

class ImpostorRenderer {
 public:
  // Uploads `package`'s impostor (which must not be empty): the colour atlas premultiplied in
  // linear light, sRGB-encoded; the normals with empty texels as the zero vector; each halved
  // (mip level 1, 2x2 box) while larger than GL_MAX_TEXTURE_SIZE. `lod` is the LOD index the
  // impostor is (the mesh LOD count: ThrongSurface::lod). kLimitExceeded for more than
  // kMaxImpostorClips clips or atlases that do not fit even halved; kInvalidArgument for a user
  // file that does not compile with the impostor's surface; kGlError on GL failure.
  static Result<std::unique_ptr<ImpostorRenderer>> create(const Device& device,
                                                          const Package& package, int lod,
                                                          const ShaderSource* user);
  ~ImpostorRenderer();
  ImpostorRenderer(const ImpostorRenderer&) = delete;
  ImpostorRenderer& operator=(const ImpostorRenderer&) = delete;

  // Draws `count` records of `instance_buffer` from byte `first_byte` as quads, one instanced
  // draw, into the bound framebuffer: depth tested and written, alpha cut at one half (no
  // blending), no face culling. The depth pass (kDepth) draws them facing the light's view. With
  // a fade, the first fade.instances records are the last mesh LOD's: drawn only within the band,
  // behind the screen door. kGlError on GL failure.
  Status draw(const FrameView& view, GLuint instance_buffer, size_t first_byte, uint32_t count,
              const FrameShading& shading, DrawPass pass, const ImpostorFade& fade = {});
  // The GPU-driven path's draw (ES 3.1): agent list `lod` of `instances` (the compute pass's, its
  // draw command at word kDrawCommandWords * lod of draw_commands: 4 vertices, the instance count
  // the pass counted, 0, 0, 0 — a DrawArraysIndirectCommand) with one glDrawArraysIndirect, each
  // agent's record read from the instances texture. Nothing when instances.only_lod is another
  // LOD. kUnsupported without ES 3.1 (the web build); kGlError on GL failure.
  // With a fade (its instances ignored), every listed agent before the band's end is screen-
  // doored by its weight (the compute pass lists the band's agents here too).
  Status drawIndirect(const FrameView& view, const IndirectInstances& instances, int lod,
                      const FrameShading& shading, DrawPass pass, const ImpostorFade& fade = {});
  // Verification path: the vertex shader's picks for `records` seen from `view`, by transform
  // feedback (no rasterisation). out.size() == records.size(). kGlError on GL failure.
  Status capturePicks(const FrameView& view, std::span<const InstanceRecord> records,
                      std::span<ImpostorPick> out);
  // The colour program the user's file is compiled into, and the atlases' size on the GPU.
  GLuint shadingProgram() const;
  int atlasWidth() const { return atlas_width_; }
  int atlasHeight() const { return atlas_height_; }
  int lod() const { return lod_; }

 private:
  struct ProgramSet {
    Program program;
    ShadingUniforms shading;
    GLint camera = -1;
    GLint material = -1;
  };
  // Variant bits: the depth pass, transform-feedback capture, records from the GPU-driven path.
  static constexpr unsigned kDepthVariant = 1;
  static constexpr unsigned kCaptureVariant = 2;
  static constexpr unsigned kGpuVariant = 4;
  static constexpr unsigned kVariantCount = 8;

  ImpostorRenderer() = default;
  Status upload(const Device& device, const Impostor& impostor);
  Result<ProgramSet*> programFor(unsigned variant);
  void bindRecords(GLuint instance_buffer, size_t first_byte);
  // The program of `variant` in use with the frame's uniforms and the atlases bound.
  Result<ProgramSet*> useProgram(unsigned variant, const FrameView& view,
                                 const FrameShading& shading);

  const Device* device_ = nullptr;
  const ShaderSource* user_ = nullptr;
  std::unique_ptr<ProgramSet> programs_[kVariantCount];
  GLuint color_texture_ = 0;
  GLuint normal_texture_ = 0;
  GLuint corner_buffer_ = 0;
  GLuint vertex_array_ = 0;
  GLuint indirect_vertex_array_ = 0;  // drawIndirect's: the corners and the agent index
  int atlas_width_ = 0;
  int atlas_height_ = 0;
  int lod_ = 0;
  // Uniform values, set on each program when it is built.
  glm::vec4 grid_{0.0f};   // azimuths, elevations, lod, clips
  glm::vec4 atlas_{0.0f};  // columns, rows, tile width, tile height (texels, as uploaded)
  glm::vec3 center_{0.0f};
  glm::vec2 size_{0.0f};
  glm::vec2 metallic_roughness_{0.0f, 1.0f};
  std::vector<glm::vec4> clips_;  // two per clip (impostor.vert's u_impostor_clips)
};

}  // namespace throng::render
