// The merged-batch renderer (method A, ES 2.0): per LOD one K-copy mesh and one program; each
// frame K characters per glUniform4fv + one glDrawElements per material.
#pragma once

#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "render/frame_shading.h"
#include "render/material_draws.h"
#include "render/merged_batch.h"
#include "render/morph_texture.h"
#include "render/program.h"
#include "throng/core/math.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/shading.h"

namespace throng::render {

// Names of the per-character arrays in shaders/gles2/merged.vert (palettes and tints); every other
// active uniform of the program counts against the budget left for them.
inline constexpr std::string_view kPaletteUniform = "u_palette";
inline constexpr std::string_view kAgentUniform = "u_agent";
inline constexpr std::string_view kMorphFramesUniform = "u_morph_frames";
// Uniform vectors each character's morph playback takes (u_morph_frames: frames, blends).
inline constexpr int kMorphVectorsPerCharacter = 2;

// Vertex uniform vectors every other active uniform of `program` takes (each uniform costs
// ceil(columns) vec4 slots times its array size: float..vec4 = 1, mat2 = 2, mat3 = 3, mat4 = 4),
// excluding the arrays named in `per_character`. Counts what glGetActiveUniform reports for the
// whole program, so fragment-stage uniforms are counted too (conservative). Needs a current
// context.
int otherUniformVectors(unsigned program, std::span<const std::string_view> per_character);

// What a merged program needs of the morph animation: its kind and (target deltas) its targets.
struct MergedMorphDefines {
  MorphBakeKind kind = MorphBakeKind::kNone;
  int targets = 0;
};

struct MergedBatchDesc {
  // Vertex uniform budget; 0 = the device's caps().max_vertex_uniform_vectors (already lowered
  // by any CapsOverride).
  int max_vertex_uniform_vectors = 0;
  // Upper bound on K; 0 = as many as fit. 1 gives the per-character path (one draw each).
  int max_characters_per_batch = 0;
  // A LOD whose x joints do not fit the budget is drawn with the nearest coarser LOD that fits
  // (true; each such fallback is reported in warnings() with the LOD drawn and its error), or
  // makes create() fail with kLimitExceeded (false).
  bool fall_back_to_fewer_joints = true;
  // Strict error cap (model units, compared with MeshLod::max_error): create() fails with
  // kLimitExceeded, naming the LOD, the budget and the error, when a LOD would be drawn with a
  // fallback whose error exceeds it. Infinity (the default): any fallback, reported.
  float max_fallback_error = std::numeric_limits<float>::infinity();
  bool cull_back_faces = true;  // counter-clockwise front faces (glTF), as the instanced path
  // How palettes go up: 3x4 rows (any affine matrix), or quaternion + translation + uniform scale
  // (2 vec4 per joint, so about 1.5x the characters per draw; exact only for similarity
  // transforms: the caller checks its matrices, e.g. checkQuatEncoding on baked frames). Callers
  // fill JointRows either way; drawing encodes them (encodeQuatJoints) before the upload, each
  // about the weighted centre of its slot's bind vertices (pivotsOfSlots), so that a blended
  // matrix's error is smallest where its joint's vertices are.
  JointEncoding joint_encoding = JointEncoding::kRows;
  // The user's shading file (docs/shaders.md); null: the built-in look. Its errors fail create()
  // (kInvalidArgument naming the file and line); its vertex uniforms count against the budget.
  std::shared_ptr<const ShaderSource> shader;
  // The LOD whose characters the impostor's cross-fade screen-doors (the last mesh LOD when the
  // impostor is drawn; -1: none): its programs take a weight per character (IMPOSTOR_FADE,
  // u_fade: a quarter vector each), drawCharacters' `fades`.
  int fade_lod = -1;
  // Morph animation (docs/morph.md), one texture per LOD of `lods` (null or kNone: none): the
  // programs fetch it before skinning (MORPH_VAT / MORPH_DELTAS, on kMorphTextureUnit), each
  // character's frames from drawCharacters' `morph_frames`. The device must have vertex texture
  // fetch and float or half-float textures (the caller says which it lacks).
  const MorphAnimation* morph = nullptr;
  uint32_t morph_frame_count = 0;  // the animation texture's frames (the weights' rows)
};

// What create() decided for one of the package's LODs.
struct MergedLodInfo {
  int drawn_lod = 0;   // the LOD actually drawn for this one (itself unless fallback)
  float error = 0.0f;  // MeshLod::max_error of the drawn LOD (model units)
  int joints = 0;      // x
  JointEncoding encoding = JointEncoding::kRows;  // uniform vectors per joint: vec4PerJoint()
  int characters_per_batch = 0;                   // K
  int other_uniform_vectors = 0;                  // read from the linked program
  uint32_t vertices_per_character = 0;
  uint32_t indices_per_character = 0;
};

struct MergedFrameStats {
  int characters = 0;
  int batches = 0;     // palette uploads
  int draw_calls = 0;  // one per (batch, material)
  uint64_t triangles = 0;
};

class MergedBatchRenderer {
 public:
  // Builds, for every LOD of `lods` (lods[i].mesh joint indices are palette slots; an empty
  // palette_joints means all `skeleton_joints` joints), the program (the shader's array sized
  // K*x*vec4PerJoint(desc.joint_encoding)), the K-copy batch mesh (indices grouped by material) and
  // its buffers, and uploads `looks`' images (empty looks: the default material). Errors:
  // kLimitExceeded when a LOD fits neither itself nor (with fallback) any coarser LOD, or only one
  // whose error exceeds desc.max_fallback_error, naming the LOD, the budget and the error; kGlError
  // for shader or buffer failures. `device` must be current and outlive the renderer.
  static Result<std::unique_ptr<MergedBatchRenderer>> create(Device& device,
                                                             std::span<const MeshLod> lods,
                                                             int skeleton_joints,
                                                             const MergedBatchDesc& desc = {},
                                                             const Looks& looks = {});
  ~MergedBatchRenderer();
  MergedBatchRenderer(const MergedBatchRenderer&) = delete;
  MergedBatchRenderer& operator=(const MergedBatchRenderer&) = delete;

  int lodCount() const { return static_cast<int>(lods_.size()); }
  const MergedLodInfo& lodInfo(int lod) const { return lods_[lod].info; }
  // Skeleton joint of each palette slot of the LOD drawn for `lod` (x entries).
  std::span<const uint16_t> paletteJoints(int lod) const;
  // kQuatScale: the pivot (model units) each palette slot of the LOD drawn for `lod` is encoded
  // about (x entries); empty with kRows.
  std::span<const glm::vec3> palettePivots(int lod) const;
  // The uniform budget in force (desc or caps).
  int uniformBudget() const { return budget_; }
  JointEncoding jointEncoding() const { return encoding_; }
  // One line per LOD drawn with a coarser one: which LOD, the budget, the LOD drawn instead and
  // its error (model units and share of the height of LOD 0's bind mesh). Empty when none.
  const std::vector<Warning>& warnings() const { return warnings_; }
  // Draws every material white and untextured (GpuMaterials::setPlain), e.g. under debug colours.
  void setPlainMaterials(bool plain) { materials_.setPlain(plain); }

  // Starts a frame of `pass`: every batch empty, the camera (world -> clip; a light's for the
  // depth pass), the light and `shading` set on each program as it is first used.
  void beginFrame(const FrameView& view, const FrameShading& shading = {},
                  DrawPass pass = DrawPass::kColor);
  // Reserves the next character drawn with LOD `lod` (tinted by `tint`, RGBA 0..1) and returns its
  // x palette entries, to be filled with the character's placed skinning matrices (slot order of
  // paletteJoints(lod)) before the next addCharacter for the same LOD or endFrame. When that
  // LOD's batch is already full it is drawn first. Allocates nothing.
  // `variant`: its appearance (material_draws.h: 0 its own materials, v material variant v - 1).
  // Its agent index (ThrongSurface::agent) is its place in the frame's characters.
  std::span<JointRows> addCharacter(int lod, const glm::vec4& tint = glm::vec4(1.0f),
                                    uint16_t variant = 0);
  // Draws characters whose palettes the caller packed: palettes.size() / x characters of LOD
  // `lod` (x = paletteJoints(lod).size(); character c's entries are palettes[c*x, (c+1)*x)),
  // K per draw call, uploaded straight from `palettes`. tints: one per character, or empty
  // (white); agents: one (agent index, state, appearance, LOD drawn) per character, what the
  // shader reads of it, or empty (index = place in the call, state 0, own materials).
  // One draw per (batch, material): every material, opaque ones first, or only those
  // of `pass` (a caller drawing blended materials after every opaque one calls twice; kBlend
  // skips LODs without blended materials). Draws between beginFrame and endFrame. Allocates
  // nothing.
  void drawCharacters(int lod, std::span<const JointRows> palettes,
                      std::span<const glm::vec4> tints,
                      std::optional<MaterialPass> pass = std::nullopt,
                      std::span<const glm::vec4> agents = {}, std::span<const float> fades = {},
                      std::span<const glm::vec4> morph_frames = {});
  // True when the LOD drawn for `lod` has a blended (AlphaMode::kBlend) material.
  bool hasBlendedMaterials(int lod) const;
  // Draws every part-full batch (a shorter index range of the same mesh); the frame's counters.
  MergedFrameStats endFrame();
  // The first error of the frame's draws (a depth program that failed to build), or ok.
  const Status& frameStatus() const { return status_; }
  // The colour program the user's file is compiled into (LOD 0's drawn LOD).
  GLuint shadingProgram() const;
  // The texture units the user's samplers may take (those its programs leave free).
  static std::vector<int> userTextureUnits(bool morph = false);

 private:
  // A LOD's program for one pass and its uniforms' locations.
  struct LodProgram {
    Program program;
    int palette_location = -1;
    int agent_location = -1;
    int fade_location = -1;          // u_fade: the fade LOD's programs only
    int morph_frames_location = -1;  // u_morph_frames: programs with morph animation only
    int morph_layout_location = -1;
    MaterialUniforms material_uniforms;
    ShadingUniforms shading;
    bool frame_set = false;  // the frame's uniforms are set (beginFrame clears it)

    static LodProgram of(Program program);
  };
  struct Lod {
    MergedLodInfo info;
    std::vector<uint16_t> palette_joints;
    LodProgram color;
    LodProgram depth;  // built on the first depth pass
    bool has_looks = false;
    bool fade = false;  // desc.fade_lod: its programs take u_fade
    uint32_t triangles_per_character = 0;
    unsigned vertex_buffer = 0;
    unsigned index_buffer = 0;
    std::vector<JointRows> staging;         // K * x entries
    std::vector<QuatJoint> encoded;         // K * x entries when the encoding is kQuatScale
    std::vector<glm::vec3> pivots;          // x entries when the encoding is kQuatScale
    std::vector<glm::vec4> staging_tints;   // K entries
    std::vector<glm::vec4> staging_agents;  // K entries
    int pending = 0;                        // characters in staging
    std::vector<MaterialRange> ranges;      // of the batch mesh (index_count: per character)
    MaterialLooks looks;                    // material variants' table (appearances 0: none)
  };
  // What building one LOD's batch reads.
  struct LodBuild {
    const MeshLod& source;
    int index = 0;
    int skeleton_joints = 0;
    uint32_t vertex_count = 0;      // per character, with the looks' copies
    int other_uniform_vectors = 0;  // the program's uniforms besides palettes and tints
    bool has_looks = false;
  };
  MergedBatchRenderer() = default;
  Status buildLod(Device& device, const LodBuild& build, const MergedBatchDesc& desc,
                  const Looks& looks, Status& does_not_fit);
  Status resolveFallbacks(std::span<const MeshLod> lods, const MergedBatchDesc& desc,
                          std::span<const Status> does_not_fit);
  void flush(Lod& lod);
  MergedMorphDefines morphDefines() const { return {morph_kind_, morph_targets_}; }
  // The program of the frame's pass for `lod`, the depth one built on first use.
  Result<LodProgram*> programOf(Lod& lod);
  // One draw call of `count` characters (<= K) of `lod` from caller memory.
  // `pass`: only that pass's materials; none: both, opaque first.
  void drawBatch(Lod& lod, const JointRows* palettes, const glm::vec4* tints,
                 const glm::vec4* agents, const glm::vec4* morph_frames, int count,
                 std::optional<MaterialPass> pass = std::nullopt, const float* fades = nullptr);

  std::vector<Lod> lods_;
  std::vector<Warning> warnings_;
  GpuMaterials materials_;
  int budget_ = 0;
  JointEncoding encoding_ = JointEncoding::kRows;
  bool cull_back_faces_ = true;
  FrameView view_;
  FrameShading shading_;
  DrawPass pass_ = DrawPass::kColor;
  std::shared_ptr<const ShaderSource> shader_;
  const GlFaults* faults_ = nullptr;  // the device's (it outlives the renderer)
  // Texture units left to the user's samplers on the device (checked before programs link).
  int user_texture_units_ = -1;
  std::vector<glm::vec4> white_;   // K of the largest batch: the tints of untinted characters
  std::vector<glm::vec4> agents_;  // K of the largest batch: agent facts when none are given
  std::vector<glm::vec4> packed_;  // K of the largest batch: u_agent's vectors (packMergedAgent)
  std::vector<glm::vec4> fades_;   // K / 4 of the largest batch: u_fade's vectors
  MorphBakeKind morph_kind_ = MorphBakeKind::kNone;
  int morph_targets_ = 0;               // MORPH_TARGETS (target deltas)
  std::vector<MorphLodTexture> morph_;  // one per LOD of create's `lods`, or none
  std::vector<glm::vec4> still_morph_;  // K * 2 of the largest batch: frame 0, unblended
  MergedFrameStats stats_;
  Status status_;
};

}  // namespace throng::render
