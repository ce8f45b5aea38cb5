// GpuCrowd: a crowd simulated, played back, culled and LOD-picked on the GPU (ES 3.1 compute),
// drawn with one indirect draw per (LOD, material); the CPU frame costs O(commands + draws), not
// O(agents).
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include <GLES3/gl3.h>
#include <glm/glm.hpp>

#include "render/instanced_renderer.h"
#include "render/passes/scenery_pass.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/lod_select.h"
#include "throng/crowd/playback.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace throng::render {

class ImpostorRenderer;  // render/impostor_renderer.h

// Agents one compute work group advances (shaders/gles31/crowd.comp's local_size_x; ES 3.1
// guarantees 128 invocations per group, and 64 is a whole wave on every vendor).
inline constexpr uint32_t kGpuAgentsPerWorkGroup = 64;
// Storage buffers the compute pass binds (agents, the frame's tables, the draw lists, the
// events): ES 3.1 guarantees 4 per compute shader, so the path never needs more than that minimum.
inline constexpr int kGpuCrowdStorageBlocks = 4;
// Event buffers in flight (written by a pass, not yet read back): a frame or two of latency and
// one more; a pass finding every one still in flight waits for the oldest.
inline constexpr int kGpuEventBuffers = 3;

// LOD debug colours the pass knows (crowd.comp's u_lod_colors; lodDebugColor cycles through 8).
inline constexpr int kGpuLodColors = 8;

// How a frame is drawn (the parts of CrowdRendererDesc the GPU pass uses).
struct GpuDrawOptions {
  int fixed_lod = -1;  // >= 0: every agent with this LOD; otherwise the LOD rule (agentLod)
  // The LOD rule's view (agentLod's; its eye is the frame view's): a perspective one picks by
  // the LODs' errors on screen, any other by their max_distance.
  LodView lod_view;
  // Tint by state (multiplied with the per-agent tint), or none.
  const std::array<glm::vec4, kAgentStateCount>* state_tints = nullptr;
  // Debug: colour every agent by its LOD instead (lod_colors[lod % kGpuLodColors]), or none.
  const std::array<glm::vec4, kGpuLodColors>* lod_colors = nullptr;
  // The shadow map and the user's uniforms the draws shade with.
  FrameShading shading;
  // kDepth: the depth pass for a light's view (the depth programs; the frame's counters, frame
  // count and read-back copies are left to the colour pass).
  DrawPass pass = DrawPass::kColor;
  // Each agent's visible props (Crowd::attachments; bit i shows attachment i), or empty: all.
  // Uploaded, O(agents), only when they differ from the last frame's.
  std::span<const uint32_t> attachments;
  // A mirrored Crowd's attachmentsVersion(): the props are read again only when it moved (or
  // agents came or went); empty: read every frame.
  std::optional<uint64_t> attachments_version;
  // Each agent's layer (layerSample of its AgentLayer), or empty: none. Uploaded with the props.
  std::span<const LayerSample> layers;
  // Each agent's appearance (Crowd::variants; CrowdFrame::variants), or empty: own materials.
  // A mirrored crowd's change only with its agents: read again, O(agents), only after agents were
  // added or removed (or when props or layers are uploaded anyway).
  std::span<const uint16_t> variants;
  // The colour pass's blob shadows, drawn from the pass's lists before the characters
  // (GroundRenderer::drawListedShadows), or none.
  const ListedBlobShadows* blobs = nullptr;
  // The impostor's cross-fade (impostorFadeBand): agents of LOD fade_lod (the last mesh LOD) at
  // least fade_band.x from the eye are listed in the impostor's list too, and both draws
  // screen-door them (common/fade.glsl); fade_lod -1: none.
  int fade_lod = -1;
  glm::vec2 fade_band{0.0f};
};

// Counters of a frame, read back from the GPU without stalling (see GpuCrowd::counts()).
struct GpuFrameCounts {
  uint64_t frame = 0;    // which draw (1 = the first) they belong to; 0 = none has arrived yet
  uint32_t visible = 0;  // each agent once
  // Each visible agent once, by the LOD picked: an agent in the impostor's cross-fade band
  // (listed in the last mesh LOD's list and the impostor's) counts in its mesh LOD, as on the
  // instanced path.
  std::vector<uint32_t> agents_per_lod;
  uint32_t fade_listed = 0;  // those agents: the impostor's list holds them too
};

// What the GPU drew in its last frame (GpuCrowd::captureLastFrame): the visible agents as the
// compute pass listed them, LOD by LOD (within a LOD in whatever order the GPU's atomics gave),
// and each one's instance record decoded (heading = atan2 of the stored sine and cosine).
struct GpuFrameCapture {
  std::vector<uint32_t> agents;
  std::vector<uint8_t> lods;
  std::vector<Instance> instances;
  // The cross-fade's agents (GpuFrameCounts::fade_listed) are in `agents` twice: in the last mesh
  // LOD's list and the impostor's.
  uint32_t fade_listed = 0;
};

// A crowd's agents in GPU storage buffers, kept in step with a Crowd the caller drives as on the
// CPU paths: agents added and removed (Crowd::changes()) and commands (Crowd::queuedCommands())
// reach the GPU as sparse uploads, and each frame's one compute pass applies the commands,
// advances every agent exactly like Crowd::update (up to float rounding: docs/gpu_driven.md),
// plays back, culls against the frustum with the clips' bounds, picks LODs and appends the
// visible agents to per-LOD lists whose counts fill DrawElementsIndirectCommand records. The
// draws go through `renderer` (InstancedRenderer::drawIndirect), which must outlive this object.
//
// Once a crowd is mirrored its state lives on the GPU: advance it only through update() (a
// Crowd::update on the CPU would consume its commands there); its CPU arrays keep the values
// they had, unless readBack() writes the GPU's back. A different crowd, or one whose change log
// was emptied behind the mirror's back, is uploaded whole on the next call.
//
// Needs the device's context current for every call; not thread-safe. Creation fails with
// kUnsupported on a device without ES 3.1 compute (or fewer storage blocks, images or
// invocations than the pass needs) and kGlError for GL failures. Calls return kLimitExceeded
// when a crowd outgrows the device's storage-block or texture size, kInvalidArgument when a
// crowd's clips are not the package's, kGlError on GL failure.
class GpuCrowd {
 public:
  static Result<std::unique_ptr<GpuCrowd>> create(Device& device, const Package& package,
                                                  InstancedRenderer& renderer);
  // Makes the impostor (its error `error`, drawn by `impostors`, which must outlive this) the LOD
  // past the renderer's meshes: the compute pass lists its agents like any LOD's, and each frame
  // draws them with one indirect draw after the meshes'. Before the first update or draw (the
  // buffers are made again); reserve()'s errors.
  Status addImpostorLod(float error, ImpostorRenderer& impostors);
  ~GpuCrowd();
  GpuCrowd(const GpuCrowd&) = delete;
  GpuCrowd& operator=(const GpuCrowd&) = delete;

  // Mirrors `crowd`'s new agents and takes its queued commands (emptying its queue and change
  // log), to be applied with an advance by `seconds` in the next frame's pass. A second update
  // before a draw runs the first one's pass at once (without drawing). `layer_events`: the
  // update's layer events (Crowd::advanceLayers'), merged into its events (gatherEvents).
  Status update(Crowd& crowd, float seconds, std::span<const EventHit> layer_events = {});
  // Whether each update's pass gathers the events its agents cross (off by default).
  void gatherEvents(bool on) { gather_events_ = on; }
  // Appends the events of the updates whose passes the GPU has finished (CrowdRenderer::
  // takeEvents), oldest first; with `wait`, runs a pending update's pass and waits for every one.
  // kGlError on GL failure.
  Status takeEvents(std::vector<UpdateEvents>& out, bool wait);
  // Mirrors `crowd`'s new agents, runs the frame's compute pass (the pending update, then
  // playback, culling, LOD pick and the draw lists) and draws. `tints` (RGBA 0..1, one per agent,
  // or empty for white) are uploaded whole when given: O(agents), unlike everything else here.
  Status draw(const FrameView& view, const Crowd& crowd, std::span<const glm::vec4> tints,
              const GpuDrawOptions& options);
  // Draws agents given as spans (no state machine): uploads them whole, O(agents), and forgets
  // any mirrored crowd. Sizes as CrowdFrame's (states and ids may be empty: idle, and each
  // agent's index in the spans, for what a shader reads of it); clip indices < the package's
  // clips.
  Status draw(const FrameView& view, std::span<const Placement> placements,
              std::span<const AgentPlayback> playback, std::span<const glm::vec4> tints,
              const GpuDrawOptions& options, std::span<const AgentState> states = {},
              std::span<const uint32_t> ids = {});

  // Writes the GPU's agents back into `crowd` (placements, playback, states, targets). Without
  // `wait`, uses the copy the last draw started if the GPU has finished it (one frame late,
  // never stalls; copies are made only after readBack was first called, so the first call
  // returns false) and returns whether it wrote; with `wait`, copies the current state and waits
  // for it (a stall: tests, the end of a run). A crowd that is not the mirrored one, or that
  // gained or lost agents since the copy, is left alone (false).
  Result<bool> readBack(Crowd& crowd, bool wait);

  // Verification path: the last draw's lists and instance records, read back (a stall).
  // kGlError on GL failure.
  Status captureLastFrame(GpuFrameCapture& out);

  // The newest frame counters the GPU has finished (a frame or two late; polled, never waited
  // for), or with `wait` those of the last draw.
  const GpuFrameCounts& counts(bool wait = false);
  uint64_t framesDrawn() const { return frames_drawn_; }
  uint32_t agentCount() const { return agent_count_; }
  uint32_t capacity() const { return capacity_; }

 private:
  GpuCrowd() = default;
  struct Pending {
    bool active = false;
    float seconds = 0.0f;
    uint64_t update = 0;  // its number (1 = the first update)
  };
  // One events buffer: written by the pass of update `update`, read back after its fence.
  struct EventBuffer {
    GLuint buffer = 0;
    GLsync fence = nullptr;
    uint64_t update = 0;
    std::vector<EventHit> layer_events;  // the update's layer events, merged in when read
  };
  // The events buffer the next simulating pass writes (reading back the one it replaces, waiting
  // if the GPU has not finished it), its count cleared and bound; null when not gathering.
  Result<EventBuffer*> beginEvents();
  // Reads `events` back (its fence passed): sorted into Crowd's order, merged with the layers'.
  Status readEvents(EventBuffer& events);
  Status mirror(const Crowd& crowd);
  Status uploadWhole(const Crowd& crowd);
  Status reserve(uint32_t agents);
  void uploadRecords(uint32_t first, std::span<const uint8_t> bytes);
  Status uploadCommands(std::span<const Command> commands);
  Status runPass(const FrameView* view, const GpuDrawOptions* options, bool has_tints,
                 bool has_ids = false);
  // The lists a pass of `options` writes and draws from: lists_, or for a depth pass
  // depth_lists_ (made or grown to the capacity here).
  GLuint passLists(const GpuDrawOptions* options);
  void writeDrawCommands(const GpuDrawOptions& options);
  struct Readback;
  Status finishFrame(const FrameView& view, const GpuDrawOptions& options);
  Status startCopy(GLuint source, size_t bytes, Readback& copy);
  bool ready(Readback& copy, bool wait);
  bool ready(EventBuffer& events, bool wait);
  Status unpackInto(Crowd& crowd, const Readback& copy);
  Status flushPending();
  Status uploadTints(std::span<const glm::vec4> tints);
  // The agents' extras texture (IndirectInstances::agent_extras) from `options`, uploaded when it
  // changed; sets extras_active_.
  Status uploadExtras(const GpuDrawOptions& options);

  Device* device_ = nullptr;
  InstancedRenderer* renderer_ = nullptr;
  ImpostorRenderer* impostors_ = nullptr;  // addImpostorLod's: drawn as the LOD past the meshes
  Program program_;
  struct Uniforms;
  std::unique_ptr<Uniforms> uniforms_;
  int lod_count_ = 0;
  uint32_t clip_count_ = 0;
  uint32_t last_frame_ = 0;
  std::vector<float> lod_limits_;      // per LOD: max_distance
  std::vector<float> lod_errors_;      // per LOD: max_error
  std::vector<uint32_t> clip_words_;   // 12 words per clip (crowd.comp's layout)
  std::vector<uint32_t> event_times_;  // every clip's events' times (bits), clip after clip
  int max_texture_size_ = 0;
  int64_t max_block_bytes_ = 0;

  // GPU state.
  GLuint agents_ = 0;  // kAgentBytes per agent
  GLuint frame_ = 0;   // draw commands, LOD limits, clips, commands (words)
  GLuint lists_ = 0;   // lod_count_ * capacity_ agent indices
  // The depth pass's lists (made at its first pass, sized as lists_): a drawDepth after draw
  // leaves the colour pass's lists, which captureLastFrame (agentDrawInfo, drawOrder) reads.
  GLuint depth_lists_ = 0;
  uint32_t depth_lists_capacity_ = 0;  // the capacity_ depth_lists_ was sized for
  GLuint instances_ = 0;               // RGBA32UI, 4 texels per agent
  GLuint tints_ = 0;                   // RGBA8UI, one texel per agent
  GLuint extras_ = 0;           // RGBA32UI, one texel per agent (IndirectInstances::agent_extras)
  bool extras_active_ = false;  // the draws read extras_ (else: every prop, no layer)
  std::vector<uint32_t> extras_words_;  // what extras_ holds (4 words per agent), for the skip
  uint32_t capacity_ = 0;               // agents the buffers hold
  int instances_per_row_ = 0;
  int tints_per_row_ = 0;
  uint32_t agent_count_ = 0;
  uint32_t frame_command_capacity_ = 0;
  uint32_t clip_first_ = 0;         // word offsets in frame_
  uint32_t event_times_first_ = 0;  // word offsets in frame_
  uint32_t command_first_ = 0;      // word offsets in frame_

  // The mirror.
  const Crowd* mirrored_ = nullptr;
  size_t changes_seen_ = 0;
  uint64_t structure_version_ = 0;   // bumped whenever agents are added, removed or replaced
  std::vector<uint32_t> cpu_slots_;  // agents whose record is to come from the CPU crowd
  std::vector<uint8_t> cpu_slot_flags_;
  Pending pending_;
  uint64_t updates_ = 0;  // update() calls so far
  std::vector<EventHit> pending_layer_events_;
  bool gather_events_ = false;
  std::array<EventBuffer, kGpuEventBuffers> event_buffers_{};
  int next_event_buffer_ = 0;  // the next to write; in flight ones follow it, oldest first
  std::vector<UpdateEvents> arrived_events_;  // read back, not yet taken
  std::vector<EventHit> scratch_hits_;
  uint64_t variants_version_ = ~uint64_t{0};  // structure_version_ whose appearances extras hold
  bool any_variant_ = false;                  // some agent of that version has an appearance
  // extras_ holds no layer: while props and appearances stay as uploaded, it is current.
  bool extras_unchanged_since_upload_ = false;
  std::optional<uint64_t> props_version_;    // the attachments version all_props_shown_ is of
  uint64_t props_structure_ = ~uint64_t{0};  // and the structure_version_ it was read at
  bool all_props_shown_ = true;
  ClipSet clip_set_;
  CrowdDesc crowd_desc_;

  // Per-frame scratch, reused.
  std::vector<Command> commands_;
  std::vector<uint64_t> command_keys_;
  std::vector<uint32_t> command_words_;
  std::vector<uint32_t> frame_head_;
  std::vector<uint8_t> record_bytes_;
  std::vector<uint8_t> tint_bytes_;
  std::vector<uint32_t> scratch_extras_;
  uint64_t frames_drawn_ = 0;

  // Asynchronous read-backs: double-buffered agent copies and a ring of counter copies.
  struct Readback {
    GLuint buffer = 0;
    size_t bytes = 0;
    GLsync fence = nullptr;
    uint64_t frame = 0;
    uint32_t agents = 0;
    uint64_t version = 0;  // structure_version_ when copied
    bool consumed = false;
  };
  bool readback_requested_ = false;
  std::array<Readback, 2> agent_copies_{};
  int next_agent_copy_ = 0;
  std::array<Readback, 3> count_copies_{};
  int next_count_copy_ = 0;
  GpuFrameCounts counts_;
  std::vector<uint8_t> readback_bytes_;
};

}  // namespace throng::render
