// CrowdRenderer: the one front end over the render paths. It picks a path from the device's
// capabilities (or takes the caller's), and each frame plays, culls, picks LODs, sorts by LOD,
// packs and draws a crowd, timing every phase.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/job_system.h"
#include "throng/core/joint_encoding.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/playback.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"
#include "throng/render/ground.h"
#include "throng/render/render_path.h"
#include "throng/render/shading.h"

namespace throng::render {

class SharedAnimationTexture;  // animation_texture_upload.h
struct InstanceRecord;         // src/render/instance_record.h (test hooks)

// Zero means default: CrowdRendererDesc{} picks the path itself and the LOD of every agent.
struct CrowdRendererDesc {
  RenderPath path = RenderPath::kAuto;
  std::optional<int> fixed_lod;        // draw every agent with this LOD; empty = the LOD rule
  float lod_threshold_pixels = 0.0f;   // screen error the LOD rule allows; 0 = 1 pixel
  int max_vertex_uniform_vectors = 0;  // merged paths' uniform budget; 0 = the device's
  bool double_sided = false;           // also draw back faces (default: cull them; CCW fronts)
  // Colour agents by state: tint = state_tints[state] * the agent's tint (if any). Costs
  // nothing per agent on the CPU on the gpu path, where per-agent tints cost an upload.
  std::optional<std::array<glm::vec4, kAgentStateCount>> state_tints;
  // Merged paths: a LOD whose joints do not fit the budget is drawn with a coarser one (said in
  // warnings()); one whose error (MeshLod::max_error, model units) passes this fails instead
  // (MergedBatchDesc::max_fallback_error). Infinity: any.
  float max_fallback_error = std::numeric_limits<float>::infinity();
  bool tint = true;  // false: CrowdFrame::tints are ignored and every agent shows its material
  // Runs the per-agent jobs (playback, culling, LOD pick and sort, packing, merged palettes) in
  // chunks on its threads; not owned, must outlive the renderer. Null: the calling thread alone.
  // The frame's output (instance records, palettes, draws) is the same whatever its thread count.
  JobSystem* jobs = nullptr;
  // The ground drawn under the crowd (none by default) and the blob shadows' look; their zero
  // sizes are taken from the character: grid cells half its height, shadows as wide as its
  // footprint.
  GroundDesc ground;
  // Shadows: none (the default), a blob under each agent, or a directional shadow map from
  // FrameView's light (ShadowMode; docs/shaders.md, "Shadows"): the map covers the camera's view
  // up to `shadow_distance` world units from the eye (0: the fog's end with fog, else
  // 40 character heights), `shadow_map_size` texels a side (0: 2048, capped by
  // GL_MAX_TEXTURE_SIZE). A device without depth textures draws blobs for kMap instead
  // (shadows() and shadowReason() say so).
  ShadowMode shadows = ShadowMode::kOff;
  float shadow_distance = 0.0f;
  int shadow_map_size = 0;
  // The user's shading file (shading.h, docs/shaders.md): throngShade compiled behind throng's
  // prelude on the chosen path in place of the built-in look; null: the built-in look
  // (glTF metallic-roughness). A file that does not compile fails the renderer with
  // kInvalidArgument naming the file and its line.
  std::shared_ptr<const ShaderSource> shader;
  // Debug: colour every agent by its LOD (lodDebugColor) instead of its tint and materials.
  bool lod_tint = false;
  // Instanced and gpu paths: the package's animation texture is slot `animation_texture_slot`
  // of this texture, shared with the other characters of a mixed crowd (their renderers drawn
  // one after the other then bind it once a frame); null: the renderer uploads its own. A slot
  // that is not this package's texture fails the renderer (kInvalidArgument). Merged paths keep
  // palettes on the CPU and ignore it.
  std::shared_ptr<const SharedAnimationTexture> animation_texture;
  size_t animation_texture_slot = 0;
  // Merged paths: how palettes go into uniforms. Empty: quaternion + translation + scale (2 vec4
  // per joint, ~1.5x the characters per draw) when every baked frame holds in it within
  // kMaxQuatJointError of the character's height (checkQuatEncoding), else 3x4 rows.
  std::optional<JointEncoding> joint_encoding;
  // Instanced path: blend each visible agent's palette once per frame in a pass of its own and
  // skin from it (kOn), blend per vertex (kOff), or pick by the frame's skinned vertices (kAuto,
  // measured in docs/benchmarks.md). Frames whose palettes do not fit the device are drawn by
  // direct fetching (CrowdFrameStats::palette_pass says which was used); the other paths ignore it.
  PalettePassMode palette_pass = PalettePassMode::kAuto;
  // Gather each update's animation events for takeEvents() (every path; the gpu path finds them
  // in its compute pass and reads them back without stalling). Off: takeEvents() gives nothing,
  // and on the gpu path Crowd::events() holds only the layers' events (the GPU advances the rest).
  bool events = false;
  // Ignored (kept so that code setting it still builds): kAuto no longer avoids the gpu path for
  // events. Set `events` and read takeEvents() instead of Crowd::events().
  bool events_on_cpu = false;
  // Draw the package's impostor (Package::impostor; docs/lods.md, "Impostors at run time") as its
  // last LOD, picked by the LOD rule with its max_error like a mesh LOD. Ignored for a package
  // without one. Every path draws it; where one cannot (atlases past the device's texture size
  // even halved, too many clips for the ES 3.0 shader, no uniform room for one quad) it draws the
  // last mesh LOD instead (impostorReason() says why).
  bool impostors = true;
};

// The debug colour of LOD `lod` (RGBA 0..1): green, yellow, orange, red, ... cycling past 8.
glm::vec4 lodDebugColor(int lod);

// CPU milliseconds of one frame's phases (wall clock on the calling thread).
struct CpuPhaseTimes {
  double update = 0.0;  // Crowd::update through CrowdRenderer::update since the last draw
  // CPU paths run two passes over the agents: culling with the LOD pick, then the sort by LOD
  // with playback (clip and time -> texture frames), which the instanced path fuses with packing.
  double playback = 0.0;     // merged paths: the second pass (instanced: in pack_upload)
  double cull = 0.0;         // the first pass: frustum culling and the LOD pick
  double lod = 0.0;          // agents per LOD and the sort's slots
  double pack_upload = 0.0;  // instanced: the second pass, records written to the mapped buffer;
                             // merged: palettes
  double submit = 0.0;       // state, uniforms (merged: the palettes) and draw calls
  double ground = 0.0;       // ground and blob shadows: packing, upload and draws (0 when off)
  double shadow = 0.0;       // the shadow map's depth pass (kMap; 0 otherwise): all its phases
};

// Counters of the last draw().
struct CrowdFrameStats {
  uint32_t agents = 0;
  uint32_t visible = 0;  // after culling
  uint32_t draw_calls = 0;
  uint64_t triangles = 0;
  // Visible agents by the LOD drawn (one entry per LOD); an agent in the impostor's cross-fade
  // band (drawn as both) counts in its mesh LOD only, on every path.
  std::vector<uint32_t> agents_per_lod;
  // Draws by which visible, agents_per_lod and triangles trail this one: 0, except on the gpu
  // path, where they are read back from the GPU without waiting (0 after Device::finish).
  uint32_t counts_lag = 0;
  uint32_t ground_draw_calls = 0;  // ground and shadows (not counted in draw_calls)
  uint32_t shadow_draw_calls = 0;  // the shadow map's depth pass (not counted in draw_calls)
  // Animation texture binds (instanced and gpu paths): 1, or 0 when the texture was bound
  // already (shared with the character drawn just before: CrowdRendererDesc::animation_texture).
  uint32_t animation_texture_binds = 0;
  bool palette_pass = false;  // instanced path: the palette pass blended the palettes
  CpuPhaseTimes cpu_ms;       // gpu path: its compute pass and draws are in submit
};

// How the last draw() drew one agent.
struct AgentDrawInfo {
  bool visible = false;  // survived culling (the rest are empty/-1)
  int lod = -1;          // the LOD picked for it
  int drawn_lod = -1;    // the LOD whose mesh was drawn (merged: a coarser one may stand in)
  int draw_call = -1;    // which of the frame's draw calls drew it (0-based, crowd draws only)
  int slot = -1;         // its place in that draw: instance, or character of the batch
};

// One update()'s animation events (CrowdRenderer::takeEvents).
struct UpdateEvents {
  uint64_t update = 0;  // which update() through the renderer (1 = the first)
  // In Crowd::events()' order: by agent, then the playing clip's, the faded clip's and the
  // layer's, each in time order (forEachCrossedEvent); agent indices as they were at the update.
  std::vector<EventHit> events;
  // gpu path: events crossed past kGpuEventCapacity in that update, not in `events` (which then
  // holds kGpuEventCapacity of them, plus the layers'); 0 on the CPU paths, which keep all.
  uint64_t overflow = 0;
};

// The most animation events the gpu path gathers in one update (its events buffer, 12 bytes an
// event, 3 MiB): a million agents each crossing a footstep twice a second cross ~67,000 per
// 30 Hz update; this is four times that. Past it, the rest are counted (UpdateEvents::overflow).
inline constexpr uint32_t kGpuEventCapacity = 1u << 18;

// How one of the package's LODs is drawn on the chosen path.
struct LodDrawInfo {
  int drawn_lod = 0;            // the LOD whose mesh is drawn (merged: a coarser one may stand in)
  float error = 0.0f;           // MeshLod::max_error of the LOD drawn (model units)
  int joints = 0;               // palette joints
  int characters_per_draw = 0;  // K on the merged paths (1 per character); 0 = all (instanced)
  uint64_t triangles = 0;       // per character
  int materials = 0;            // materials of the drawn LOD: draws per instanced draw or batch
};

// Per-agent input of a frame: spans of equal length (tints may be empty: every agent white;
// states may be empty: CrowdRendererDesc::state_tints then tints nobody; variants may be empty:
// every agent in its own materials).
struct CrowdFrame {
  std::span<const Placement> placements;
  std::span<const AgentPlayback> playback;
  std::span<const glm::vec4> tints;  // RGBA 0..1, multiplies the material's colour
  std::span<const AgentState> states;
  // Appearance: 0 the package's own materials, v in 1..V its material variant v - 1
  // (Package::variants, glTF KHR_materials_variants), larger the own materials. A variant draws
  // in its materials' draws: still one draw per (LOD, material), on every path (the gpu path
  // uploads a Crowd's appearances only when agents were added or removed).
  std::span<const uint16_t> variants;
  // What a user's shader reads as each agent's index (ThrongSurface::agent): empty = its place in
  // the frame (MixedCrowdRenderer gives the crowd's indices).
  std::span<const uint32_t> agent_ids;
  // Visible props (Crowd::attachments): bit i shows attachment i of the package; empty = all.
  // Hidden props cost no draw call: their vertices collapse to one point in the vertex stage.
  std::span<const uint32_t> attachments;
  // Layers (Crowd::layers): each agent's second clip on a joint mask over its base clip; empty =
  // none. Drawn on every path (instanced and gpu in the vertex shader, merged and per-character in
  // the palette fill): docs/props_and_layers.md.
  std::span<const AgentLayer> layers;
};

// Draws crowds of one package's character on one device.
//
// kAuto chooses: gpu on OpenGL ES 3.1+ with compute (and what instanced needs), whatever the
// options (material variants, events, shadows); instanced on
// OpenGL ES 3.0 (and WebGL2) with instancing, vertex texture fetch and float (or half-float)
// textures when the animation texture fits GL_MAX_TEXTURE_SIZE; merged on ES 2.0 or when the
// texture does not fit; per-character otherwise. path() and pathReason() say what was chosen
// and why.
//
// The same code drives every path: the caller owns a Crowd, adds and removes its agents and
// submits its commands, then calls update(crowd, dt) and draw(view, crowd) each frame. On the CPU
// paths update() is Crowd::update and draw() plays back, culls, picks LODs and sorts on the CPU.
// On the gpu path the crowd is mirrored into GPU storage buffers (src/render/gpu_crowd.h): update()
// hands the crowd's queued commands and new or removed agents to the GPU (sparse uploads) and
// draw() runs one compute pass that does all of the per-agent work, so the CPU's frame does not
// grow with the crowd. The Crowd's own arrays then stop advancing: readBack() brings them up to
// date (asynchronously, a frame late; or waiting, for tests), and a crowd the gpu path mirrors
// must be advanced only through update().
//
// Construction never throws and never crashes on bad input: it leaves a failed renderer whose
// status() says why (kUnsupported for a path the device lacks, kLimitExceeded when no LOD fits a
// limit, kInvalidArgument for a bad desc, kGlError) and whose draw() draws nothing and returns
// that status. The renderer copies what it needs of `package` (clips, LOD limits and, on the
// merged paths, the animation texture); `device` must outlive it, with its context current
// whenever the renderer is used or destroyed. Not thread-safe.
//
// Every draw runs the same passes for every path, in order: with a shadow map, the depth pass for
// the light (drawDepth into the map), then culling (clip bounds against the
// view frustum) with the LOD pick and a counting sort by LOD, then playback and packing, the
// scenery (ground and blob shadows), then the path's submit (crowd-layer jobs over spans, or
// their compute-shader twins on the gpu path). Scratch buffers grow with the crowd and are
// reused; a frame of a crowd no larger than a previous one allocates nothing.
//
// A mixed crowd (Crowd with several CrowdCharacters) is drawn by MixedCrowdRenderer
// (mixed_crowd_renderer.h): one renderer per character, each given its character's agents, so
// draws stay one per (character, LOD, material), their animation textures shared in one.
// Materials: one draw per (LOD, material) on the instanced and gpu paths, per (batch, material)
// on the merged ones, blended materials after every opaque one.
class CrowdRenderer {
 public:
  CrowdRenderer(Device& device, const Package& package, const CrowdRendererDesc& desc = {});
  ~CrowdRenderer();
  CrowdRenderer(CrowdRenderer&&) noexcept;
  CrowdRenderer& operator=(CrowdRenderer&&) noexcept;
  CrowdRenderer(const CrowdRenderer&) = delete;
  CrowdRenderer& operator=(const CrowdRenderer&) = delete;

  bool ok() const { return status().ok(); }
  const Status& status() const;
  // The path in use (never kAuto once ok()); what was asked for when creation failed first.
  RenderPath path() const;
  // Why path() was chosen, e.g. "OpenGL ES 3.2 with instancing, float textures and vertex
  // texture fetch; the 2208x3 animation texture fits GL_MAX_TEXTURE_SIZE 16384".
  const std::string& pathReason() const;
  int lodCount() const;
  // How LOD `lod` (< lodCount()) is drawn; all zeros on a failed renderer.
  LodDrawInfo lodInfo(int lod) const;
  // The LOD index the impostor is drawn as (the mesh LOD count), or -1 when no impostor is drawn
  // (the package has none, CrowdRendererDesc::impostors is off, or the path cannot draw it).
  int impostorLod() const;
  // Why, e.g. "drawn as LOD 4 (1.2% of the height), 8x2 views, 79 frames" or "off: asked for".
  const std::string& impostorReason() const;
  // One warning (kLodDrawnCoarser) per LOD drawn with a coarser one (merged paths: which, the
  // budget, the LOD drawn and its error); empty when every LOD is drawn as itself.
  const std::vector<Warning>& warnings() const;
  // Merged paths: the joint encoding of the palette uniforms (kRows on the other paths).
  JointEncoding jointEncoding() const;
  // Merged paths: the encoding and why, e.g. "quat+translation+scale (2 vec4): worst error
  // 1.2e-05% of the height over 120 baked frames"; empty on the other paths.
  const std::string& jointEncodingReason() const;
  // Merged paths: the 2-vec4 encoding's worst error over every baked frame (checkQuatEncoding)
  // as a share of the character's bind height, measured whichever encoding is used; 0 otherwise.
  float quatEncodingError() const;

  // Advances `crowd` by `seconds` (Crowd::update, on the job system when there is one; on the gpu
  // path the GPU does it in the next draw's pass), timed into the next draw's cpu_ms.update. The
  // gpu path's errors (GL failures, a crowd of other clips than the package's, a crowd too large
  // for the device) are returned by the next draw.
  void update(Crowd& crowd, float seconds);
  // Draws one frame of `frame` seen through `view` into the framebuffer bound by
  // Device::beginFrame. kInvalidArgument when the spans differ in length or an agent plays a
  // clip the package lacks; status() on a failed renderer. A GL failure (kGlError: an upload
  // out of memory, ...) fails the renderer: GL's state is undefined after it, so this and every
  // later draw return that status and draw nothing; make a new renderer to go on. On the gpu
  // path the spans are uploaded whole (O(agents)) and replace any mirrored crowd.
  Status draw(const FrameView& view, const CrowdFrame& frame);
  // The same for a Crowd's agents (tints: one per agent, or empty; Crowd::variants() are their
  // appearances, CrowdFrame::variants). A mixed crowd is kInvalidArgument: MixedCrowdRenderer
  // draws it.
  Status draw(const FrameView& view, const Crowd& crowd, std::span<const glm::vec4> tints = {});
  // The crowd's depth for a light's `view` (its view_projection; fov_y 0 for an orthographic one,
  // viewport_height the map's side), into the framebuffer and viewport the caller bound (its
  // shadow map): culled against the view's frustum, the LOD rule applied with its projection (an
  // orthographic view allows the coarsest LOD whose error stays under the LOD threshold on its
  // texels), with the same skinning, vertex hook, alpha MASK and double-sidedness as draw(), and
  // blended materials cut at half alpha. Depth is written and tested as GL's state says (the
  // caller clears it and sets any polygon offset); colour gets the depth packed into RGBA8
  // (docs/shaders.md) for devices without depth textures. Counted in stats().shadow_draw_calls
  // (cpu_ms.shadow), not draw_calls; draw() after it still counts its own frame, and a drawDepth
  // after draw() leaves what drawOrder() and agentDrawInfo() say of that draw (the gpu path's
  // depth pass lists its agents apart). Errors as draw().
  Status drawDepth(const FrameView& view, const CrowdFrame& frame);
  Status drawDepth(const FrameView& view, const Crowd& crowd);

  // The user file's uniforms and samplers (CrowdRendererDesc::shader), set on every program that
  // draws with it from the next draw on: floats (1..4 per element, 16 for a mat4, times the
  // array's elements), ints (1..4 per element; bools as 0/1), and GL textures (TEXTURE_2D of this
  // device's context; on the merged paths 2 samplers find units, 6 on the others).
  // kInvalidArgument when the file has no such active uniform or it takes other values (naming
  // the file and the uniform); kLimitExceeded when no texture unit is left; status() on a failed
  // renderer.
  Status setShaderUniform(std::string_view name, std::span<const float> values);
  Status setShaderUniform(std::string_view name, float value);
  Status setShaderUniform(std::string_view name, const glm::vec2& value);
  Status setShaderUniform(std::string_view name, const glm::vec3& value);
  Status setShaderUniform(std::string_view name, const glm::vec4& value);
  Status setShaderUniform(std::string_view name, const glm::mat4& value);
  Status setShaderUniformInts(std::string_view name, std::span<const int> values);
  Status setShaderTexture(std::string_view name, unsigned gl_texture);
  // gpu path: writes the GPU's agents back into `crowd` (see GpuCrowd::readBack): without
  // `wait` a copy a frame late if one has arrived, never stalling (true when it wrote; the first
  // call only starts the copies); with `wait` the current state, stalling. CPU paths: the crowd
  // is current already, true.
  Result<bool> readBack(Crowd& crowd, bool wait = false);
  // With CrowdRendererDesc::events: appends to `out` the events of the update() calls whose
  // events have arrived since the last call, oldest first, one entry per update (also when it
  // crossed none). CPU paths: each update's Crowd::events(), available at once. gpu path: the
  // compute pass gathers them, and they arrive a frame or two later, read back behind a fence
  // without stalling (an update's arrive once the draw that ran its pass has finished on the
  // GPU); with `wait`, every update's up to the last one (running a pending update's pass, then
  // waiting: a stall, for tests and the end of a run). An update replaced by a draw of spans
  // (which forgets the mirrored crowd) gives none. Without CrowdRendererDesc::events: nothing.
  // kGlError on GL failure; status() on a failed renderer.
  Status takeEvents(std::vector<UpdateEvents>& out, bool wait = false);
  // The last draw's counters. On the gpu path visible, agents_per_lod and triangles are those of
  // the newest frame the GPU has finished, polled here without waiting (after Device::finish, the
  // last draw's); counts_lag says how many draws they trail.
  const CrowdFrameStats& stats() const;
  // The agents the last draw() drew, in draw order: grouped by LOD (stats().agents_per_lod), by
  // agent index within a LOD. Valid until the next draw(). gpu path: the compute pass's lists,
  // read back on demand (the first call after a draw waits for the GPU: a stall, O(visible)).
  std::span<const uint32_t> drawOrder() const;
  // How the last draw() drew agent `agent` (an index into its frame); not visible when the agent
  // was culled, is out of range, or nothing was drawn yet. Looks through the frame's visible
  // agents: O(visible), for inspecting a few agents, not for every agent of every frame. gpu
  // path: from the lists read back as drawOrder() says (an agent in the impostor's cross-fade
  // band, drawn both ways, is in its mesh LOD only), so it agrees with the instanced path's for
  // the same frame.
  AgentDrawInfo agentDrawInfo(uint32_t agent) const;

  // Settings that may change from frame to frame (a viewer's controls); each takes effect at the
  // next draw and allocates nothing until the ground is first shown.
  void setGround(const GroundDesc& ground);
  const GroundDesc& ground() const;
  // The shadows (CrowdRendererDesc::shadows): kMap falls back to kBlob on a device without depth
  // textures. shadows() is what is drawn; shadowReason() says why, e.g. "map: 2048x2048 depth
  // texture, up to 54 world units from the eye" or "blob: the device has no depth textures".
  void setShadows(ShadowMode shadows);
  ShadowMode shadows() const;
  const std::string& shadowReason() const;
  // The light's view the last frame's shadow map was drawn with (kMap), e.g. for a test or an
  // engine that wants the same fit; FrameView{} before the first.
  const FrameView& shadowView() const;
  // Debug LOD colours on or off (CrowdRendererDesc::lod_tint).
  void setLodTint(bool on);
  bool lodTint() const;
  // Pixels of screen error the LOD rule allows (<= 0: the default, 1 pixel).
  void setLodThresholdPixels(float pixels);
  float lodThresholdPixels() const;

 private:
  struct Impl;  // crowd_renderer.cpp: the package's facts, the chosen path, the passes
  friend Status readInstanceRecords(const CrowdRenderer& renderer,
                                    std::vector<InstanceRecord>& out);  // test_hooks.h
  friend struct CrowdRendererAccess;  // src/render/crowd_renderer_access.h
  std::unique_ptr<Impl> impl_;
};

}  // namespace throng::render
