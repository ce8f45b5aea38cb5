// Method B at run time: baked animation texture + one instanced draw per (LOD, material) (ES 3.0).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include <GLES3/gl3.h>
#include <glm/glm.hpp>

#include "render/frame_shading.h"
#include "render/instance_record.h"
#include "render/material_draws.h"
#include "render/morph_texture.h"
#include "render/palette_pass.h"
#include "render/program.h"
#include "throng/core/job_system.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/playback.h"
#include "throng/render/animation_texture_upload.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/shading.h"

namespace throng::render {

// Counters of the last draw().
struct RenderStats {
  uint32_t draw_calls = 0;
  uint64_t triangles = 0;
  uint32_t instances = 0;
  // Animation texture binds: 0 when the texture was bound already (shared with the character
  // drawn before: SharedAnimationTexture), else 1 (2 when a frame draws twice).
  uint32_t animation_texture_binds = 0;
  bool palette_pass = false;  // the palettes were blended by the palette pass (palette_pass.h)
};

// Layers re-root and blend joints in the vertex shader (or the palette pass) about each joint's
// pivot, a uniform vec3 per joint: ES 3.0 guarantees 256 vertex uniform vectors, and throng's
// others (about 40) and the user's file keep the other half. A character with more joints draws
// without its layers (the merged paths draw them: their palettes are filled on the CPU).
inline constexpr int kMaxLayerJoints = 128;

// Frames of instance records the GPU may still be reading while the next is written.
inline constexpr size_t kInstanceRingSegments = 3;

struct InstancedRendererOptions {
  bool cull_back_faces = true;  // glTF front faces are counter-clockwise
  // The package's animation texture as slot `shared_slot` of a texture shared with other
  // characters (a mixed crowd); null: its own texture.
  std::shared_ptr<const SharedAnimationTexture> shared_texture;
  size_t shared_slot = 0;
  // Blend each instance's palette once per frame in a pass of its own (render/palette_pass.h)
  // and skin from it, or blend per vertex. kAuto: the pass from kPalettePassMinVertexInstances
  // skinned vertices a frame. Whatever the mode, frames whose palettes do not fit the device
  // (PalettePass::fits) or a device that refuses the pass's render target are drawn with direct
  // fetching: RenderStats::palette_pass says which was used.
  PalettePassMode palette_pass = PalettePassMode::kAuto;
  // The user's shading file (docs/shaders.md); null: the built-in look. Its compile errors fail
  // create() (kInvalidArgument naming the file and line).
  std::shared_ptr<const ShaderSource> shader;
  // The programs take the impostor's cross-fade (IMPOSTOR_FADE, common/fade.glsl): setFade()
  // then screen-doors one LOD's agents in a band of distances.
  bool impostor_fade = false;
};

// Words of an indirect draw record (ES 3.1, 10.5): count, instance count (the second), first
// index, base vertex, and a reserved word that must be 0.
inline constexpr uint32_t kDrawCommandWords = 5;

// What the GPU-driven path (render/gpu_crowd.h) leaves on the GPU for its draws: per LOD l a
// DrawElementsIndirectCommand at byte 20 * l of `draw_commands` (its instance count filled by
// compute) and that many agent indices from element l * list_capacity of `agent_lists`; agent
// a's instance record is 4 texels of the RGBA32UI texture `instances` at x = 4 * (a %
// instances_per_row), y = a / instances_per_row (position and scale, cos and sin of the heading
// and the two blends, the four frames, then the fade and the RGBA8 tint: Instance's fields).
struct IndirectInstances {
  GLuint draw_commands = 0;
  GLuint agent_lists = 0;
  uint32_t list_capacity = 0;
  GLuint instances = 0;
  int instances_per_row = 0;
  int only_lod = -1;  // >= 0: the compute pass put every agent in this LOD; draw only it
  // Per agent, one RGBA32UI texel at x = a % agent_extras_per_row, y = a / agent_extras_per_row:
  // its appearance | visible props << 8 (the record's state word with the appearance in the
  // state's byte), then its layer's words (instance_record.h); 0: none (own materials, every prop
  // shown, no layer).
  GLuint agent_extras = 0;
  int agent_extras_per_row = 0;
};

// Owns the GL copies of a package: one vertex/index buffer pair per LOD, the animation texture
// and a streamed instance buffer. Lives and dies with its device's context current.
class InstancedRenderer {
 public:
  // Uploads `package` (its animation texture unless options.shared_texture holds it:
  // kInvalidArgument when that slot is not the package's). The texture goes up as RGBA32F (or
  // RGBA16F for a half-float bake, or when the device has half but not full float textures). A
  // texture wider or taller than the device's GL_MAX_TEXTURE_SIZE is laid out again
  // (chooseAnimationTextureLayout): fewer frames per row, or one frame over several rows when a
  // frame is wider than the limit, so any joint count renders while frames * rows per frame fit the
  // height; kLimitExceeded when they do not, or when the texture has more than kMaxRecordFrames
  // frames. kUnsupported when the device lacks ES3 instancing or
  // vertex texture fetch; kGlError for GL failures (shader log included). `package` must have
  // passed validatePackage (readPackage, parsePackage and bakeCharacter return only such packages);
  // it is not checked again (asserted in debug builds).
  static Result<std::unique_ptr<InstancedRenderer>> create(
      Device& device, const Package& package, const InstancedRendererOptions& options = {});
  ~InstancedRenderer();
  InstancedRenderer(const InstancedRenderer&) = delete;
  InstancedRenderer& operator=(const InstancedRenderer&) = delete;

  int lodCount() const { return static_cast<int>(lods_.size()); }
  uint32_t vertexCount(int lod) const { return lods_[lod].vertex_count; }
  uint32_t indexCount(int lod) const { return lods_[lod].index_count; }
  // The GPU copy of the animation texture (may differ from the package's after re-layout).
  TexelFormat textureFormat() const { return texture_format_; }
  uint32_t textureWidth() const { return texture_width_; }
  uint32_t textureHeight() const { return texture_height_; }
  uint32_t framesPerRow() const { return slot_.frames_per_row; }
  uint32_t rowsPerFrame() const { return slot_.rows_per_frame; }
  // Where the package's frames lie in the texture (base_row > 0 in a shared texture).
  const AnimationTextureSlot& textureSlot() const { return slot_; }

  // Draws `instances` sorted by LOD: the first lod_counts[0] with LOD 0, the next lod_counts[1]
  // with LOD 1, and so on (sum(lod_counts) == instances.size(), lod_counts.size() <=
  // lodCount()). submit() may be given fewer (sum <= the count uploaded): the records past them
  // are another renderer's (the impostors'). One glDrawElementsInstanced per (LOD, material) that
  // has instances: opaque and masked materials first, blended ones after them (see MaterialRange),
  // into whatever framebuffer is bound (Device::beginFrame). Frame indices past the texture's last
  // frame are clamped to it (texelFetch outside a texture is undefined). kGlError on GL failure.
  Status draw(const FrameView& view, std::span<const Instance> instances,
              std::span<const uint32_t> lod_counts, const FrameShading& shading = {});
  // All instances with LOD 0.
  Status draw(const FrameView& view, std::span<const Instance> instances);
  // draw() in its two halves, for callers that time them apart: upload() packs the instance
  // records and streams them into the instance buffer; submit() sets the frame's uniforms and
  // issues one draw per (LOD, material) over what was uploaded last (sum(lod_counts) == its
  // instance count), for `pass`. `jobs` (optional) packs the records in chunks on its threads: the
  // same bytes either way.
  Status upload(std::span<const Instance> instances, JobSystem* jobs = nullptr);
  Status submit(const FrameView& view, std::span<const uint32_t> lod_counts,
                const FrameShading& shading = {}, DrawPass pass = DrawPass::kColor);
  // upload() for callers that write the records themselves (CrowdRenderer packs them as it plays
  // the agents back): beginRecords() maps room for `count` records of the instance buffer (a ring
  // of kInstanceRingSegments parts, so the GPU may still read the previous frames' while these are
  // written; a fence guards each part) and endRecords() unmaps them as the ones submit() draws.
  // The span is valid until endRecords(); its records must all be written. Frames in records are
  // at most lastFrame(). kGlError (the mapping refused, GL_OUT_OF_MEMORY) on failure; no
  // allocation when count is at most the largest count so far.
  Result<std::span<InstanceRecord>> beginRecords(size_t count);
  Status endRecords();
  // The next submits' cross-fade (options.impostor_fade): LOD `lod`'s agents within the band
  // (distance from `eye` over scale, model units: band.x its start, band.y 1 / its width) drop
  // the pixels the impostor draws (common/fade.glsl); band.y 0 or lod -1: none.
  void setFade(int lod, const glm::vec3& eye, const glm::vec2& band) {
    fade_lod_ = lod;
    fade_eye_ = eye;
    fade_band_ = band;
  }
  // Whether layers are drawn: the package has masks and at most kMaxLayerJoints joints.
  bool drawsLayers() const { return !pivots_.empty(); }
  uint32_t lastFrame() const { return frame_count_ - 1; }
  // Verification path: the records uploaded last, read back from the instance buffer (out.size()
  // == their count). kGlError on GL failure.
  Status readRecords(std::span<InstanceRecord> out) const;
  size_t uploadedCount() const { return uploaded_instances_; }
  // The instance buffer and the byte where record `i` of those uploaded last lies in it: the
  // impostors' quads read the records past the meshes' (ImpostorRenderer).
  GLuint instanceBuffer() const { return instance_buffer_; }
  size_t recordByte(size_t i) const { return (uploaded_first_ + i) * sizeof(InstanceRecord); }
  const RenderStats& stats() const { return stats_; }
  // Draws every material white and untextured (GpuMaterials::setPlain), e.g. under debug colours.
  void setPlainMaterials(bool plain) { materials_.setPlain(plain); }

  // The GPU-driven path's draws: one glDrawElementsIndirect per (LOD, material) over
  // `instances` (each command's instance count copied on the GPU from its LOD's), opaque
  // materials before blended ones as in submit(), with the same vertex shader as draw() reading
  // each instance's record from a texture instead of attributes (ES 3.1 devices may have no
  // vertex-stage storage buffers). The caller has made the compute writes visible
  // (glMemoryBarrier, buffer updates included). stats() counts the draws; its instance and
  // triangle counts stay 0 (they are on the GPU). kUnsupported without ES 3.1; kGlError on GL
  // failure.
  Status drawIndirect(const FrameView& view, const IndirectInstances& instances,
                      const FrameShading& shading = {}, DrawPass pass = DrawPass::kColor);
  // Builds drawIndirect's colour program now (create() leaves it for the first drawIndirect):
  // the GPU-driven path's user shader errors then fail its creation.
  Status prepareIndirect();
  // The colour program the user's file is compiled into (for its uniforms' names and types).
  GLuint shadingProgram() const;
  // The texture units the user's samplers may take (those its programs leave free).
  static std::vector<int> userTextureUnits();

  // Verification path: runs the same vertex shader with transform feedback (no rasterisation)
  // and returns the world-space skinned vertices of LOD `lod` for every instance (through the
  // palette pass when the options force it on and it fits, else by direct fetching):
  // positions[i * vertexCount(lod) + v] (normals likewise, not normalised). Both spans must hold
  // instances.size() * vertexCount(lod) entries. kGlError on GL failure.
  Status captureSkinnedVertices(std::span<const Instance> instances, int lod,
                                std::span<glm::vec3> positions, std::span<glm::vec3> normals);

  // Verification path: runs the palette pass over `instances` and reads the palette texture
  // back: palettes[i * joint count + j] is instance i's joint j, to compare with
  // FramePaletteJob. palettes.size() == instances.size() * joint count. kUnsupported when the
  // pass cannot run on this device or these palettes do not fit it; kGlError on GL failure.
  Status capturePalettes(std::span<const Instance> instances, std::span<JointRows> palettes);
  // The pass, once a frame or capturePalettes used it (its render target format); else null.
  const PalettePass* palettePass() const { return palette_pass_.get(); }

 private:
  // One variant of instanced.vert with its fragment stage, and its uniforms' locations.
  struct ProgramSet {
    Program program;
    MaterialUniforms material;
    ShadingUniforms shading;
    GLint lod = -1;
    GLint palette_first = -1;
    GLint fade_eye = -1;
    GLint fade_band = -1;
  };
  // Variant bits: skinning from the palette pass's texture, instances from the GPU-driven path,
  // the depth pass, transform-feedback capture (no rasterisation, no user file).
  static constexpr unsigned kPaletteVariant = 1;
  static constexpr unsigned kGpuVariant = 2;
  static constexpr unsigned kDepthVariant = 4;
  static constexpr unsigned kCaptureVariant = 8;
  static constexpr unsigned kVariantCount = 16;

  struct LodBuffers {
    GLuint vertex_array = 0;
    GLuint indirect_vertex_array = 0;  // drawIndirect's: the agent index is the instance input
    GLuint vertex_buffer = 0;
    GLuint index_buffer = 0;
    uint32_t vertex_count = 0;
    uint32_t index_count = 0;
    std::vector<MaterialRange> ranges;    // the index buffer is grouped by material
    MaterialLooks looks;                  // material variants' table (appearances 0: none)
    uint32_t first_indirect_command = 0;  // its ranges' records in indirect_commands_
  };

  InstancedRenderer() = default;
  Status uploadTexture(const Device& device, const AnimationTexture& texture);
  Status uploadLod(const MeshLod& lod, int joint_count, std::span<const Material> materials);
  // The package's morph animation (docs/morph.md), one texture per LOD; nothing for kNone.
  Status uploadMorph(const Device& device, const MorphAnimation& morph);
  // LOD `lod`'s morph texture and layout for `program`'s next draws (none without morph).
  void bindMorph(const Program& program, size_t lod);
  void bindInstanceAttributes(size_t first_instance);
  // The program of `variant`, built on first use.
  Result<ProgramSet*> programFor(unsigned variant);
  void setUniforms(const ProgramSet& set, const FrameView& view, const FrameShading& shading);
  bool wantsPalettePass(std::span<const uint32_t> lod_counts) const;
  // Builds the pass and its draw program on first use. False (and direct fetching from then on)
  // when the device cannot run it; an error for GL failures.
  Result<bool> preparePalettePass();
  Status runPalettePass(size_t count);  // over the first `count` uploaded records

  InstancedRendererOptions options_;
  const Device* device_ = nullptr;  // for its injected faults (test_hooks.h)
  std::unique_ptr<ProgramSet> programs_[kVariantCount];
  GpuMaterials materials_;
  std::vector<LodBuffers> lods_;
  GLuint texture_ = 0;
  GLuint indirect_commands_ = 0;  // one record per (LOD, material range), built with the program
  GLuint instance_buffer_ = 0;
  size_t ring_capacity_ = 0;   // records per ring segment
  size_t uploaded_first_ = 0;  // its first record in the buffer
  size_t uploaded_instances_ = 0;
  size_t mapped_count_ = 0;  // records of the open beginRecords(), else 0
#ifdef __EMSCRIPTEN__
  std::vector<InstanceRecord> staging_;  // WebGL cannot map buffers: copied up at endRecords()
#else
  size_t ring_segment_ = 0;                         // the segment written last
  GLsync ring_fences_[kInstanceRingSegments] = {};  // after the draws that read each segment
#endif
  GLuint capture_buffer_ = 0;
  TexelFormat texture_format_ = TexelFormat::kRgba32F;
  uint32_t texture_width_ = 0;
  uint32_t texture_height_ = 0;
  AnimationTextureSlot slot_;  // the package's layout in texture_
  bool owns_texture_ = false;  // false: options_.shared_texture's
  uint32_t frame_count_ = 0;
  uint32_t joint_count_ = 0;
  MorphBakeKind morph_kind_ = MorphBakeKind::kNone;
  std::vector<glm::vec3> pivots_;  // jointPivots when layers are drawn (the shader's u_pivots)
  std::vector<MorphLodTexture> morph_lods_;    // one per LOD, or none
  std::unique_ptr<PalettePass> palette_pass_;  // built on first use
  bool palette_unavailable_ = false;           // the device refused it: direct fetching
  int fade_lod_ = -1;                          // setFade's
  glm::vec3 fade_eye_{0.0f};
  glm::vec2 fade_band_{0.0f};
  GLuint palette_vertex_array_ = 0;  // the pass's input: the instance records' attributes
  RenderStats stats_;
};

}  // namespace throng::render
