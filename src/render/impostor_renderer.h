// The impostor at run time (docs/lods.md, "Impostors at run time"): the package's atlases
// uploaded once, and camera-facing quads drawn from the instanced path's instance records, one
// instanced draw for every impostor agent of a frame (ES 3.0), or batched for the merged and
// per-character paths: K quads per draw, each agent's values in uniforms (ES 2.0 / WebGL 1).
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
#include "throng/crowd/playback.h"
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

// Vectors of one agent in the batched draw (gles2/impostor.vert's u_impostor_agents).
inline constexpr int kImpostorAgentVectors = 4;
// The most quads of one batched draw: 4 vertices and 6 16-bit indices each, and well past the
// 30 or so that ES 2.0's 128 vertex uniform vectors leave room for.
inline constexpr int kMaxImpostorsPerDraw = 256;

// One agent of the batched draw, as gles2/impostor.vert reads it. The frames are picked on the CPU
// (impostorFramesOf), the views in the shader.
struct ImpostorAgent {
  glm::vec4 position_scale{0.0f};  // world position, scale
  glm::vec4 turn_frames{0.0f};     // cos and sin of the heading, the two atlas columns
  glm::vec4 tint{1.0f};            // RGBA 0..1
  glm::vec4 agent{0.0f};  // agent index, state, the second column's weight, fade (-1: none)
};
static_assert(sizeof(ImpostorAgent) == kImpostorAgentVectors * sizeof(glm::vec4));

// How the batched draw sizes its batches (the merged path's MergedBatchDesc).
struct ImpostorBatching {
  int max_vertex_uniform_vectors = 0;  // 0: the device's
  int max_agents_per_draw = 0;         // 0: as many as fit (1: the per-character path)
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
  // The batched renderer of the merged and per-character paths (any ES version): GLSL ES 1.00, the
  // colour atlas plain RGBA8 (decoded in the shader: ES 2.0 has no sRGB textures), K quads per
  // draw with K as many as the uniform budget leaves room for (at most kMaxImpostorsPerDraw).
  // create()'s errors, and kLimitExceeded when not even one agent fits the budget.
  static Result<std::unique_ptr<ImpostorRenderer>> createBatched(const Device& device,
                                                                 const Package& package, int lod,
                                                                 const ShaderSource* user,
                                                                 const ImpostorBatching& batching);
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
  // The batched draw (createBatched): `agents` as quads, agentsPerDraw() per draw call, with the
  // state draw() sets. An agent whose fade is w > 0 is screen-doored to w (the last mesh LOD's
  // agents in the cross-fade band, the mesh drawn with 1 - w). Adds its draw calls to
  // `draw_calls`. kGlError on GL failure.
  Status drawAgents(const FrameView& view, std::span<const ImpostorAgent> agents,
                    const FrameShading& shading, DrawPass pass, uint32_t& draw_calls);
  int agentsPerDraw() const { return copies_; }
  // The batched draw's values of an agent at `placement` playing `playback` (its dominant clip
  // during a clip cross-fade, as impostor.vert picks it): frames by impostorBlend itself. `fade`:
  // v_fade (common/fade.glsl; -1: none).
  ImpostorAgent agentOf(const Placement& placement, const AgentPlayback& playback,
                        const glm::vec4& tint, uint32_t agent, uint8_t state, float fade) const;
  bool batched() const { return copies_ > 0; }
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
  // The fields every variant shares (create's checks, the uniforms' values).
  static Result<std::unique_ptr<ImpostorRenderer>> prepare(const Device& device,
                                                           const Package& package, int lod,
                                                           const ShaderSource* user);
  Status upload(const Device& device, const Impostor& impostor);
  // createBatched's K (copies_) from the budget, and its quads' buffers.
  Status sizeBatches(const ImpostorBatching& batching);
  Result<ProgramSet*> programFor(unsigned variant);
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
  GLuint batch_indices_ = 0;          // the batched draw's: 6 per quad
  int copies_ = 0;                    // quads per batched draw; 0: the instanced renderer
  int atlas_width_ = 0;
  int atlas_height_ = 0;
  int lod_ = 0;
  // Uniform values, set on each program when it is built.
  glm::vec4 grid_{0.0f};   // azimuths, elevations, lod, clips
  glm::vec4 atlas_{0.0f};  // columns, rows, tile width, tile height (texels, as uploaded)
  glm::vec3 center_{0.0f};
  glm::vec2 size_{0.0f};
  glm::vec2 metallic_roughness_{0.0f, 1.0f};
  std::vector<glm::vec4> clips_;        // two per clip (impostor.vert's u_impostor_clips)
  Impostor frames_;                     // the grid and frame counts (no atlases): agentOf's
  std::vector<BakedClip> clip_timing_;  // the package's clips: agentOf's durations and loops
};

}  // namespace throng::render
