// The crowd the viewer shows: the agents of every character loaded, on a sunflower spiral that
// grows and shrinks without moving anybody, their renderer (the library's MixedCrowdRenderer),
// the selection, and the commands sent to agents.
#pragma once

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <glm/glm.hpp>

#include "crowd_input.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"
#include "throng/crowd/picking.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/device.h"
#include "throng/render/mixed_crowd_renderer.h"

namespace throng::viewer {

// The viewer's agent slider reaches this many (the million); the per-agent buffers
// (32-byte instance records, or the GPU-driven path's 64-byte agents and 64-byte records,
// placements, playback) stay well under a gigabyte.
inline constexpr uint32_t kMaxAgents = 1000000;
// The inspect panel's draw info (LOD, draw call) on the gpu path is read again every this many
// draws (half a second at 60 Hz) or when the inspected agent changes: agentDrawInfo reads the
// GPU's draw lists back, waiting for the GPU (a stall, O(visible)), which every frame would cost
// the frame rate it shows. The CPU paths' lists are on the CPU already: read every draw.
inline constexpr uint64_t kGpuDrawInfoEvery = 30;

// A character ready to be shown: its package and the clips its states play.
struct ViewerCharacter {
  cli::CrowdInput input;
  ClipSet clip_set;
  std::string clip_note;  // how states were matched to clips, when not all by name
};

// Matches the states to clips by name (clipSetByName); a character without the usual names still
// loads: each state without a clip plays clip 0, and clip_note says so.
ViewerCharacter makeViewerCharacter(cli::CrowdInput input);

// What commands, clips and speeds apply to.
enum class Group : uint8_t { kSelection, kEverybody };

// One event of the inspected agent: a state or clip change, with when it happened.
struct AgentEvent {
  double time = 0.0;  // viewer seconds
  std::string what;   // "walk -> idle", "clip: run"
};

class CrowdScene {
 public:
  // A crowd of `agents` of `characters` (agent i of character i % count, each scaled to stand as
  // tall as the largest; the characters must outlive the scene) drawn on `device`. Fails with the
  // renderer's status (a path the device lacks, ...) naming the character.
  static Result<std::unique_ptr<CrowdScene>> create(
      render::Device& device, std::span<const ViewerCharacter* const> characters,
      const render::CrowdRendererDesc& desc, uint32_t agents);

  // Grows (new agents idle at their place on the spiral) or shrinks (the last agents go).
  void setAgentCount(uint32_t agents);
  uint32_t agentCount() const { return crowd_.agentCount(); }
  // A new renderer with `desc` (another path or fixed LOD); on failure the old one stays.
  Status setRendererDesc(const render::CrowdRendererDesc& desc);
  const render::CrowdRendererDesc& rendererDesc() const { return desc_; }

  size_t characterCount() const { return characters_.size(); }
  const ViewerCharacter& character(size_t c) const { return *characters_[c]; }
  // The character of agent `agent`.
  const ViewerCharacter& characterOf(uint32_t agent) const;
  const Crowd& crowd() const { return crowd_; }
  render::MixedCrowdRenderer& renderer() { return *renderer_; }
  const render::MixedCrowdRenderer& renderer() const { return *renderer_; }
  // Where the crowd stands: a disc around the origin (world x, z) and its radius (world units).
  float radius() const;
  // The tallest character's size: every character stands this tall.
  float characterSize() const { return size_; }
  // The fewest LODs any character's renderer draws (its impostor included when it draws one):
  // what a fixed LOD may be.
  int lodCount() const;
  // The agents the last draw drew as impostors, over every character.
  uint32_t impostorAgents() const;

  // The gpu path keeps the crowd on the GPU (its CPU arrays stand still): brings them up to date,
  // waiting for the GPU (a stall, on demand: before picking, selecting or commanding a group).
  void readBack();
  // The agent the ray hits (a click), or -1; the agents inside the screen rectangle between two
  // corners (normalised device coordinates) of `view_projection`. Call readBack() first.
  int64_t pick(const Ray& ray) const;
  std::vector<uint32_t> agentsInside(const glm::mat4& view_projection, const glm::vec2& ndc_a,
                                     const glm::vec2& ndc_b) const;

  // Selection (agent indices, in selection order).
  void select(const std::vector<uint32_t>& agents, bool add);
  void clearSelection();
  const std::vector<uint32_t>& selection() const { return selection_; }
  bool selected(uint32_t agent) const { return agent < flags_.size() && flags_[agent]; }
  // The agent whose state the panel shows: the first selected, or none.
  std::optional<uint32_t> inspected() const;
  const std::deque<AgentEvent>& inspectedEvents() const { return events_; }
  // How a recent draw drew the inspected agent (not visible when none is inspected): the last
  // draw's on the CPU paths; on the gpu path read at most every kGpuDrawInfoEvery draws and when
  // the inspected agent changes, so up to that many draws old.
  const render::AgentDrawInfo& inspectedDrawInfo();
  // How many times inspectedDrawInfo() read the renderer's lists (the screenshot summary's).
  uint64_t drawInfoReads() const { return draw_info_reads_; }
  uint64_t draws() const { return draws_; }

  // Commands to `group`: walk-to / run-to move it to `target` keeping its formation (each agent
  // goes to target + its offset from the group's centre); the others ignore the target.
  void command(Group group, CommandType type, const glm::vec2& target);
  // Every agent of `group` whose character has a clip named `clip` plays it in a loop (until its
  // next command).
  void playClip(Group group, const std::string& clip);
  void setSpeed(Group group, float speed);

  // Advances the crowd by `seconds` (through the renderer, so the overlay times it); `now` is
  // the viewer's clock, for the event log.
  void update(float seconds, double now);
  // Draws the crowd (tinted by state by the renderer, CrowdRendererDesc::state_tints, so the gpu
  // path tints by its own agents' states; the selection highlighted) into the bound framebuffer.
  Status draw(const render::FrameView& view);

 private:
  CrowdScene(render::Device& device, std::span<const ViewerCharacter* const> characters,
             const render::CrowdRendererDesc& desc);
  template <typename F>
  void forGroup(Group group, F&& f);
  void watchInspected(double now);
  // Agents of character `c` gathered (placements, playback, their crowd indices), for picking.
  void gatherCharacter(uint16_t c, std::vector<Placement>& placements,
                       std::vector<AgentPlayback>& playback, std::vector<uint32_t>& agents) const;

  render::Device* device_;
  std::vector<const ViewerCharacter*> characters_;
  std::vector<float> scales_;  // per character: Placement::scale
  float size_ = 1.0f;
  render::CrowdRendererDesc desc_;
  Crowd crowd_;
  std::unique_ptr<render::MixedCrowdRenderer> renderer_;
  std::vector<uint8_t> flags_;  // 1 = selected, one per agent
  std::vector<uint32_t> selection_;
  std::vector<glm::vec4> tints_;
  // Event log of the inspected agent.
  std::optional<uint32_t> watched_;
  AgentState watched_state_ = AgentState::kIdle;
  uint16_t watched_clip_ = 0;
  std::deque<AgentEvent> events_;
  // The inspect panel's draw info and when it was read (inspectedDrawInfo).
  uint64_t draws_ = 0;
  std::optional<uint32_t> info_agent_;
  uint64_t info_draw_ = 0;
  render::AgentDrawInfo info_;
  uint64_t draw_info_reads_ = 0;
};

}  // namespace throng::viewer
