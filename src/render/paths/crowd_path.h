// CrowdPath: one render path behind CrowdRenderer (instanced, merged or per-character, GPU-driven),
// the object that carries out the frame's passes the front end sequences.
#pragma once

#include <memory>
#include <span>
#include <vector>

#include "render/crowd_facts.h"
#include "render/frame_settings.h"
#include "render/frame_shading.h"
#include "render/instance_record.h"
#include "render/passes/cull_lod_pass.h"
#include "throng/core/job_system.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/frame_view.h"

namespace throng::render {

struct ListedBlobShadows;  // passes/scenery_pass.h

// One frame's input to the passes.
struct FrameInput {
  const FrameView& view;  // the camera, or a light's for the depth pass
  const CrowdFrame& frame;
  // draw(view, crowd): the crowd whose spans `frame` holds (the gpu path mirrors it); null for
  // span-given agents.
  const Crowd* crowd = nullptr;
  const FrameSettings& settings;
  JobSystem* jobs = nullptr;  // runs the per-agent passes in chunks (CrowdRendererDesc::jobs)
  FrameShading shading;       // the shadow map and the user's uniforms
  DrawPass pass = DrawPass::kColor;
  // The colour pass's blob shadows for a path that draws them from its own GPU lists (the
  // scenery pass drew those of the lists it was given); null without.
  const ListedBlobShadows* listed_blobs = nullptr;
};

// A frame runs, for every path and in this order: cull (frustum culling, the LOD pick and the
// counting sort's layout: passes/cull_lod_pass.h), pack (playback and packing of the visible
// agents: passes/playback_pass.h), the front end's scenery pass, then submit (state, uniforms and
// draw calls). Each is one virtual call per frame; the per-agent work inside is plain loops over
// spans. The gpu path does all of its per-agent work on the GPU in submit and leaves the lists
// empty. The passes take any view: a depth pass for a light is cull and pack for the light's view
// and a submit of in.pass kDepth (the path's depth programs), no scenery. A new path is a class of
// its own and a case in paths/path_choice.cpp.
class CrowdPath {
 public:
  virtual ~CrowdPath() = default;
  virtual RenderPath kind() const = 0;

  // Advances `crowd` by `seconds` (Crowd::update on the CPU paths); errors that cannot be
  // returned here come with the next frame's cull.
  virtual void update(Crowd& crowd, float seconds, JobSystem* jobs) = 0;
  // Writes the path's copy of the crowd back (CrowdRenderer::readBack); true when current.
  virtual Result<bool> readBack(Crowd& crowd, bool wait) = 0;
  // CrowdRendererDesc::events: keep each update's events for takeEvents (CrowdRenderer's).
  virtual void gatherEvents(bool on) { gather_events_ = on; }
  virtual Status takeEvents(std::vector<UpdateEvents>& out, bool wait);
  // The lists the last colour draw drew from, for drawOrder and agentDrawInfo: `cpu_lists` (the
  // front end's) on the CPU-fed paths; the gpu path's read back on demand (kGlError on failure).
  virtual Result<const AgentLists*> drawnLists(const AgentLists& cpu_lists) const {
    return &cpu_lists;
  }

  // The frame's passes. kGlError from any fails the renderer; other errors end the frame.
  virtual Status cull(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) = 0;
  virtual Status pack(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) = 0;
  virtual Status submit(const FrameInput& in, const AgentLists& lists, CrowdFrameStats& stats) = 0;

  // Counters the GPU reports late (CrowdRenderer::stats); nothing on the CPU paths.
  virtual void pollCounts(CrowdFrameStats& /*stats*/) const {}
  // Every material white and untextured (under debug LOD colours).
  virtual void setPlainMaterials(bool plain) = 0;
  // Test hook (test_hooks.h's readInstanceRecords): the instance records uploaded last.
  virtual Status readInstanceRecords(std::vector<InstanceRecord>& out) const;
  // The colour program the user's file is compiled into (its uniforms' names and types), and the
  // texture units its samplers may take on this path.
  virtual GLuint shadingProgram() const = 0;
  virtual std::vector<int> userTextureUnits() const = 0;
  // Prepares the package's impostor (not empty) as LOD `lod` (the mesh LOD count): ok when the
  // path draws it; kUnsupported or kLimitExceeded (saying why) when it draws the last mesh LOD in
  // its place; other errors fail the renderer.
  virtual Status prepareImpostors(const Device& /*device*/, const Package& /*package*/,
                                  const CrowdRendererDesc& /*desc*/, int /*lod*/) {
    return Status(ErrorCode::kUnsupported, "this path does not draw impostors yet");
  }

 protected:
  // The CPU paths, after Crowd::update: its events kept as the next update's when gathering.
  void keepEvents(const Crowd& crowd);

 private:
  bool gather_events_ = false;
  uint64_t updates_ = 0;
  std::vector<UpdateEvents> held_events_;
};

// The impostor's cross-fade band of a frame (docs/lods.md, "Impostors at run time"): distances
// from the eye (model units at scale 1, reach included: the LOD rule's) from band.x on, 1 / its
// width in band.y, ending at the impostor's switch; (0, 0) for none: no impostor drawn, the depth
// pass, a fixed LOD, not the screen-space rule, or no room before the last mesh LOD's own switch.
glm::vec2 impostorFadeBand(const CrowdFacts& facts, const FrameInput& in, int frame_height);

// The CPU-fed paths' common half: the crowd advances on the CPU and the CPU culls and picks LODs
// (one pass for every such path); pack and submit are the path's.
class CpuFedPath : public CrowdPath {
 public:
  CpuFedPath(const CrowdFacts& facts, const Device& device) : facts_(&facts), device_(&device) {}

  void update(Crowd& crowd, float seconds, JobSystem* jobs) override;
  Result<bool> readBack(Crowd& crowd, bool wait) override;
  Status cull(const FrameInput& in, AgentLists& lists, CrowdFrameStats& stats) override;

 protected:
  const CrowdFacts& facts() const { return *facts_; }
  int deviceHeight() const { return device_->height(); }

 private:
  const CrowdFacts* facts_;  // the front end's, which outlives the path
  const Device* device_;
};

}  // namespace throng::render
