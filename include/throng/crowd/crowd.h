// Crowd: agents driven by commands through a small state machine, producing placements and
// playback.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/status.h"
#include "throng/crowd/playback.h"

namespace throng {

enum class AgentState : uint8_t { kIdle, kWalk, kRun, kAttack, kDead };
inline constexpr int kAgentStateCount = 5;
const char* agentStateName(AgentState state);

enum class CommandType : uint8_t {
  kIdle,    // stop where you are
  kWalkTo,  // walk to `target`, then idle
  kRunTo,   // run to `target`, then idle
  kAttack,  // play the attack once, then go back to what the agent was doing
  kDie,     // play the death once and stay down; a dead agent ignores every later command
};

// A user's (player's) command for one agent. Applied at the start of the next Crowd::update.
struct Command {
  uint32_t agent = 0;
  CommandType type = CommandType::kIdle;
  glm::vec2 target{0.0f};  // world x, z for kWalkTo / kRunTo
};

// Which clip each state plays, and how fast locomotion moves (world units per second).
struct ClipSet {
  std::array<uint16_t, kAgentStateCount> state_clip{};
  float walk_speed = 1.4f;
  float run_speed = 3.5f;
};

// Finds the clips for each state by name (case-insensitive substrings: idle; walk; run; attack,
// punch, slash or hit; die or death). Locomotion speeds come from the clips' root motion when
// they have any. Errors (kInvalidArgument) name the state without a clip.
Result<ClipSet> clipSetByName(std::span<const BakedClip> clips);

struct CrowdDesc {
  float cross_fade_seconds = 0.25f;  // a state change blends clips over this long
  float turn_rate = 8.0f;            // radians per second towards the walking direction
};

// Structure-of-arrays crowd. update() allocates nothing once commands have been reserved.
class Crowd {
 public:
  // `clips` is copied (durations and loop flags); state clips index it.
  Crowd(std::span<const BakedClip> clips, const ClipSet& clip_set, const CrowdDesc& desc = {});

  // Adds an idle agent; returns its index. `start_time` offsets its clip (seconds).
  uint32_t addAgent(const Placement& placement, float start_time = 0.0f);
  uint32_t agentCount() const { return static_cast<uint32_t>(placements_.size()); }

  // Queues a command; commands for unknown agents are dropped (counted in droppedCommands()).
  void submit(const Command& command);
  // Applies queued commands, then advances every agent by `seconds`.
  void update(float seconds);

  std::span<const Placement> placements() const { return placements_; }
  std::span<const AgentPlayback> playback() const { return playback_; }
  std::span<const AgentState> states() const { return states_; }
  uint32_t droppedCommands() const { return dropped_commands_; }

 private:
  void apply(const Command& command);
  void enterState(uint32_t agent, AgentState state);

  std::vector<BakedClip> clips_;
  ClipSet clip_set_;
  CrowdDesc desc_;
  std::vector<Placement> placements_;
  std::vector<AgentPlayback> playback_;
  std::vector<AgentState> states_;
  std::vector<AgentState> resume_states_;  // where an attack returns to
  std::vector<glm::vec2> targets_;
  std::vector<Command> queue_;
  uint32_t dropped_commands_ = 0;
};

}  // namespace throng
