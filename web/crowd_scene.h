// The page's scene: a crowd of one baked character driven by random commands, drawn each frame
// by the instanced path (WebGL2) or the merged-batch path (WebGL 1 and 2).
#pragma once

#include <cstdint>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/render/device.h"
#include "throng/render/instanced_renderer.h"
#include "throng/render/merged_path.h"

namespace throng::web {

// The largest crowd the page accepts: 64-byte instance records and the merged path's CPU
// palettes (23 joints x 48 bytes per agent for the sample) stay a few megabytes.
inline constexpr uint32_t kMaxAgents = 50000;

enum class DrawPath { kInstanced, kMerged };
const char* drawPathName(DrawPath path);

struct SceneStats {
  uint32_t agents = 0;
  uint32_t visible = 0;  // after frustum culling
  uint32_t draw_calls = 0;
};

class CrowdScene {
 public:
  // Uploads `package` for every path `device` allows (instanced needs WebGL2; merged needs a LOD
  // whose palette fits the vertex uniforms). `package` and `device` must outlive the scene.
  // `clip_set` says which clip each state plays. kUnsupported when no path can draw it.
  static Result<std::unique_ptr<CrowdScene>> create(render::Device& device, const Package& package,
                                                    const ClipSet& clip_set);

  bool supports(DrawPath path) const;
  // kUnsupported (naming why) when the device or the package cannot use `path`.
  Status setPath(DrawPath path);
  DrawPath path() const { return path_; }
  // Places `count` agents (clamped to [1, kMaxAgents]) on a grid, idle, with the same random
  // commands every time for the same count.
  void setAgentCount(uint32_t count);
  uint32_t agentCount() const { return crowd_->agentCount(); }
  float characterSize() const { return character_size_; }
  // Radius (world units) of the ground the crowd stands and walks on, centred on the origin.
  float radius() const;

  // Applies this frame's random commands, advances the crowd by `seconds` and draws it, seen
  // through `view_projection` from `eye` (world), into the bound framebuffer. kGlError on GL
  // failure.
  Result<SceneStats> frame(float seconds, const glm::mat4& view_projection, const glm::vec3& eye);

 private:
  CrowdScene() = default;
  void issueCommands();
  Status drawInstanced(const glm::mat4& view_projection, const glm::vec3& eye, SceneStats& stats);
  void drawMerged(const glm::mat4& view_projection, const glm::vec3& eye, SceneStats& stats);

  const Package* package_ = nullptr;
  ClipSet clip_set_;
  float character_size_ = 1.0f;
  std::unique_ptr<render::InstancedRenderer> instanced_;
  std::string instanced_error_;  // why the instanced path is unavailable
  std::unique_ptr<render::MergedBatchRenderer> merged_;
  std::string merged_error_;
  DrawPath path_ = DrawPath::kInstanced;

  std::unique_ptr<Crowd> crowd_;
  std::mt19937 rng_;
  float half_extent_ = 0.0f;  // the grid's half width, world units
  float command_clock_ = 0.0f;

  // Per-frame buffers, reused (they only grow).
  std::vector<InstanceFrames> frames_;
  std::vector<uint32_t> visible_;
  std::vector<int> lod_of_;
  std::vector<uint32_t> lod_counts_;
  std::vector<uint32_t> lod_next_;
  std::vector<render::Instance> instances_;
  std::vector<Placement> visible_placements_;
  std::vector<AgentPlayback> visible_playback_;
  std::vector<InstanceFrames> visible_frames_;
  render::MergedPathScratch merged_scratch_;
};

}  // namespace throng::web
