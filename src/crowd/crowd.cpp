// The crowd state machine: commands -> states -> clips with cross-fades, and locomotion.
#include "throng/crowd/crowd.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <cmath>

#include <fmt/core.h>

namespace throng {
namespace {

constexpr float kPi = 3.14159265358979f;

bool containsNoCase(const std::string& text, const char* word) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower.find(word) != std::string::npos;
}

// Ground speed of a clip from its root motion: horizontal distance over its duration.
float rootSpeed(const BakedClip& clip) {
  if (clip.root_motion.size() < 2 || !(clip.duration > 0.0f)) return 0.0f;
  const glm::vec3 d = clip.root_motion.back() - clip.root_motion.front();
  const float covered = static_cast<float>(clip.root_motion.size() - 1) / clip.fps;
  return covered > 0.0f ? std::hypot(d.x, d.z) / covered : 0.0f;
}

float wrapAngle(float a) {
  while (a > kPi) a -= 2 * kPi;
  while (a < -kPi) a += 2 * kPi;
  return a;
}

}  // namespace

const char* agentStateName(AgentState state) {
  switch (state) {
    case AgentState::kIdle:
      return "idle";
    case AgentState::kWalk:
      return "walk";
    case AgentState::kRun:
      return "run";
    case AgentState::kAttack:
      return "attack";
    case AgentState::kDead:
      return "dead";
  }
  return "?";
}

Result<ClipSet> clipSetByName(std::span<const BakedClip> clips) {
  static const std::vector<const char*> kWords[kAgentStateCount] = {
      {"idle"}, {"walk"}, {"run"}, {"attack", "punch", "slash", "hit"}, {"die", "death"}};
  ClipSet set;
  for (int s = 0; s < kAgentStateCount; ++s) {
    int found = -1;
    for (const char* word : kWords[s]) {
      for (size_t c = 0; c < clips.size() && found < 0; ++c) {
        if (containsNoCase(clips[c].name, word)) found = static_cast<int>(c);
      }
      if (found >= 0) break;
    }
    if (found < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("no clip for the '{}' state (looked for a name containing '{}')",
                                agentStateName(static_cast<AgentState>(s)), kWords[s][0]));
    }
    set.state_clip[s] = static_cast<uint16_t>(found);
  }
  if (const float v = rootSpeed(clips[set.state_clip[1]]); v > 0.0f) set.walk_speed = v;
  if (const float v = rootSpeed(clips[set.state_clip[2]]); v > 0.0f) set.run_speed = v;
  return set;
}

Crowd::Crowd(std::span<const BakedClip> clips, const ClipSet& clip_set, const CrowdDesc& desc)
    : clips_(clips.begin(), clips.end()), clip_set_(clip_set), desc_(desc) {
  for ([[maybe_unused]] uint16_t c : clip_set_.state_clip) assert(c < clips_.size());
}

uint32_t Crowd::addAgent(const Placement& placement, float start_time) {
  AgentPlayback p;
  p.clip = p.previous_clip = clip_set_.state_clip[static_cast<int>(AgentState::kIdle)];
  p.time = p.previous_time = start_time;
  placements_.push_back(placement);
  playback_.push_back(p);
  states_.push_back(AgentState::kIdle);
  resume_states_.push_back(AgentState::kIdle);
  targets_.push_back(glm::vec2(placement.position.x, placement.position.z));
  return agentCount() - 1;
}

void Crowd::submit(const Command& command) {
  if (command.agent >= agentCount()) {
    ++dropped_commands_;
    return;
  }
  queue_.push_back(command);
}

void Crowd::enterState(uint32_t agent, AgentState state) {
  AgentPlayback& p = playback_[agent];
  const uint16_t clip = clip_set_.state_clip[static_cast<int>(state)];
  const bool one_shot = state == AgentState::kAttack || state == AgentState::kDead;
  if (clip != p.clip || one_shot) {
    // Fade out of whatever is on screen now: if a fade was under way, the current clip wins.
    p.previous_clip = p.clip;
    p.previous_time = p.time;
    p.fade = 1.0f;
    p.clip = clip;
    p.time = 0.0f;
  }
  states_[agent] = state;
}

void Crowd::apply(const Command& c) {
  const AgentState state = states_[c.agent];
  if (state == AgentState::kDead) return;
  switch (c.type) {
    case CommandType::kIdle:
      enterState(c.agent, AgentState::kIdle);
      break;
    case CommandType::kWalkTo:
    case CommandType::kRunTo: {
      targets_[c.agent] = c.target;
      const AgentState next = c.type == CommandType::kWalkTo ? AgentState::kWalk : AgentState::kRun;
      if (state == AgentState::kAttack) {
        resume_states_[c.agent] = next;  // finish the swing first
      } else if (state != next) {
        enterState(c.agent, next);
      }
      break;
    }
    case CommandType::kAttack:
      if (state != AgentState::kAttack) resume_states_[c.agent] = state;
      enterState(c.agent, AgentState::kAttack);
      break;
    case CommandType::kDie:
      enterState(c.agent, AgentState::kDead);
      break;
  }
}

void Crowd::update(float seconds) {
  for (const Command& c : queue_) apply(c);
  queue_.clear();
  const float fade_step =
      desc_.cross_fade_seconds > 0.0f ? seconds / desc_.cross_fade_seconds : 1.0f;
  for (uint32_t a = 0; a < agentCount(); ++a) {
    AgentPlayback& p = playback_[a];
    p.time += seconds * p.speed;
    p.previous_time += seconds * p.speed;
    p.fade = std::max(0.0f, p.fade - fade_step);

    const AgentState state = states_[a];
    if (state == AgentState::kAttack && p.time >= clips_[p.clip].duration) {
      enterState(a, resume_states_[a]);
    } else if (state == AgentState::kWalk || state == AgentState::kRun) {
      Placement& pl = placements_[a];
      const glm::vec2 here(pl.position.x, pl.position.z);
      const glm::vec2 to = targets_[a] - here;
      const float distance = glm::length(to);
      const float step = (state == AgentState::kWalk ? clip_set_.walk_speed : clip_set_.run_speed) *
                         seconds * pl.scale;
      if (distance <= step) {
        pl.position.x = targets_[a].x;
        pl.position.z = targets_[a].y;
        enterState(a, AgentState::kIdle);
      } else {
        // Heading 0 faces +Z; turn at a bounded rate, move along the current heading's blend.
        const float wanted = std::atan2(to.x, to.y);
        const float turn = wrapAngle(wanted - pl.heading);
        const float max_turn = desc_.turn_rate * seconds;
        pl.heading = wrapAngle(pl.heading + std::clamp(turn, -max_turn, max_turn));
        const glm::vec2 dir = to / distance;
        pl.position.x += dir.x * step;
        pl.position.z += dir.y * step;
      }
    }
  }
}

}  // namespace throng
