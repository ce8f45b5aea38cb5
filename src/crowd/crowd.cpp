// The crowd state machine: commands -> states -> clips with cross-fades, and locomotion.
#include "throng/crowd/crowd.h"

#include <algorithm>
#include <cassert>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/core.h>

namespace throng {

// Smallest chunk of agents one thread advances: smaller ones cost more to hand over than they save.
constexpr size_t kMinAgentsPerChunk = 4096;

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
    case AgentState::kPlay:
      return "play";
  }
  return "?";
}

int findClip(std::span<const BakedClip> clips, std::string_view name) {
  for (size_t c = 0; c < clips.size(); ++c) {
    if (clips[c].name == name) return static_cast<int>(c);
  }
  size_t index = 0;
  const auto [end, ec] = std::from_chars(name.data(), name.data() + name.size(), index);
  if (!name.empty() && ec == std::errc() && end == name.data() + name.size() &&
      index < clips.size()) {
    return static_cast<int>(index);
  }
  return -1;
}

std::string clipList(std::span<const BakedClip> clips) {
  std::string list;
  for (size_t c = 0; c < clips.size(); ++c) {
    list += fmt::format("{}{} {}", c == 0 ? "" : ", ", c, clips[c].name);
  }
  return list.empty() ? "none" : list;
}

namespace {

// Words a state's clip name contains (case-insensitive), tried in order.
const std::vector<const char*> kStateWords[kClipSetStates] = {
    {"idle"}, {"walk"}, {"run"}, {"attack", "punch", "slash", "hit"}, {"die", "death"}};

// The first clip whose name holds one of `state`'s words (in word order), or -1.
int findStateClip(std::span<const BakedClip> clips, int state) {
  for (const char* word : kStateWords[state]) {
    for (size_t c = 0; c < clips.size(); ++c) {
      if (containsNoCase(clips[c].name, word)) return static_cast<int>(c);
    }
  }
  return -1;
}

void setLocomotionSpeeds(std::span<const BakedClip> clips, ClipSet& set) {
  if (const float v = rootSpeed(clips[set.state_clip[1]]); v > 0.0f) set.walk_speed = v;
  if (const float v = rootSpeed(clips[set.state_clip[2]]); v > 0.0f) set.run_speed = v;
}

}  // namespace

Result<ClipSet> clipSetByName(std::span<const BakedClip> clips) {
  ClipSet set;
  for (int s = 0; s < kClipSetStates; ++s) {
    const int found = findStateClip(clips, s);
    if (found < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("no clip for the '{}' state (looked for a name containing '{}')",
                                agentStateName(static_cast<AgentState>(s)), kStateWords[s][0]));
    }
    set.state_clip[s] = static_cast<uint16_t>(found);
  }
  setLocomotionSpeeds(clips, set);
  return set;
}

ClipSet clipSetByName(std::span<const BakedClip> clips, uint16_t fallback,
                      std::vector<AgentState>* missing) {
  assert(fallback < clips.size());
  ClipSet set;
  for (int s = 0; s < kClipSetStates; ++s) {
    const int found = findStateClip(clips, s);
    if (found < 0 && missing) missing->push_back(static_cast<AgentState>(s));
    set.state_clip[s] = found < 0 ? fallback : static_cast<uint16_t>(found);
  }
  setLocomotionSpeeds(clips, set);
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
  play_loops_.push_back(0);
  targets_.push_back(glm::vec2(placement.position.x, placement.position.z));
  changes_.push_back({AgentChange::Kind::kAdded, agentCount() - 1});
  return agentCount() - 1;
}

void Crowd::removeAgent(uint32_t agent) {
  assert(agent < agentCount());
  const uint32_t last = agentCount() - 1;
  if (agent != last) {
    placements_[agent] = placements_[last];
    playback_[agent] = playback_[last];
    states_[agent] = states_[last];
    resume_states_[agent] = resume_states_[last];
    play_loops_[agent] = play_loops_[last];
    targets_[agent] = targets_[last];
  }
  placements_.pop_back();
  playback_.pop_back();
  states_.pop_back();
  resume_states_.pop_back();
  play_loops_.pop_back();
  targets_.pop_back();
  // Commands keep their order: drop the removed agent's, rename the moved agent's.
  size_t kept = 0;
  for (const Command& c : queue_) {
    if (c.agent == agent) continue;
    queue_[kept] = c;
    if (c.agent == last) queue_[kept].agent = agent;
    ++kept;
  }
  queue_.resize(kept);
  changes_.push_back({AgentChange::Kind::kRemoved, agent});
}

AgentRecord Crowd::agent(uint32_t agent) const {
  assert(agent < agentCount());
  return {placements_[agent],    playback_[agent],        states_[agent],
          resume_states_[agent], play_loops_[agent] != 0, targets_[agent]};
}

void Crowd::setAgent(uint32_t agent, const AgentRecord& record) {
  assert(agent < agentCount());
  assert(record.playback.clip < clips_.size() && record.playback.previous_clip < clips_.size());
  placements_[agent] = record.placement;
  playback_[agent] = record.playback;
  states_[agent] = record.state;
  resume_states_[agent] = record.resume_state;
  play_loops_[agent] = record.play_loop ? 1 : 0;
  targets_[agent] = record.target;
}

void Crowd::truncate(uint32_t count) {
  if (count >= agentCount()) return;
  // Logged as removals of the last agent (which move nobody), for copies kept elsewhere.
  for (uint32_t a = agentCount(); a > count; --a)
    changes_.push_back({AgentChange::Kind::kRemoved, a - 1});
  placements_.resize(count);
  playback_.resize(count);
  states_.resize(count);
  resume_states_.resize(count);
  play_loops_.resize(count);
  targets_.resize(count);
  std::erase_if(queue_, [count](const Command& c) { return c.agent >= count; });
}

void Crowd::setSpeed(uint32_t agent, float speed) {
  if (agent >= agentCount()) return;
  playback_[agent].speed = std::isfinite(speed) ? std::clamp(speed, 0.0f, kMaxSpeed) : 1.0f;
  changes_.push_back({AgentChange::Kind::kSpeed, agent, playback_[agent].speed});
}

void Crowd::submit(const Command& command) {
  if (command.agent >= agentCount() ||
      (command.type == CommandType::kPlay && command.clip >= clips_.size())) {
    ++dropped_commands_;
    return;
  }
  queue_.push_back(command);
}

void Crowd::enterState(uint32_t agent, AgentState state) {
  assert(state != AgentState::kPlay);
  enterState(agent, state, clip_set_.state_clip[static_cast<int>(state)]);
}

void Crowd::enterState(uint32_t agent, AgentState state, uint16_t clip) {
  AgentPlayback& p = playback_[agent];
  const bool restart =
      state == AgentState::kAttack || state == AgentState::kDead || state == AgentState::kPlay;
  if (clip != p.clip || restart) {
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
      if (state == AgentState::kAttack || (state == AgentState::kPlay && !play_loops_[c.agent])) {
        resume_states_[c.agent] = next;  // finish the swing (or the clip) first
      } else if (state != next) {
        enterState(c.agent, next);
      }
      break;
    }
    case CommandType::kAttack:
      if (state != AgentState::kAttack && state != AgentState::kPlay) {
        resume_states_[c.agent] = state;
      }
      enterState(c.agent, AgentState::kAttack);
      break;
    case CommandType::kDie:
      enterState(c.agent, AgentState::kDead);
      break;
    case CommandType::kPlay:
      // A play-once returns to what the agent was doing; a looped play is left by a command.
      if (state != AgentState::kAttack && state != AgentState::kPlay) {
        resume_states_[c.agent] = state;
      }
      play_loops_[c.agent] = c.loop ? 1 : 0;
      enterState(c.agent, AgentState::kPlay, c.clip);
      break;
  }
}

void Crowd::update(float seconds, JobSystem* jobs) {
  for (const Command& c : queue_) apply(c);
  queue_.clear();
  changes_.clear();
  if (jobs) {
    // Agents advance independently (each touches only its own entries): any chunks, any threads.
    jobs->parallelFor(agentCount(), jobs->chunkFor(agentCount(), kMinAgentsPerChunk),
                      [&](size_t begin, size_t end) {
                        advance(static_cast<uint32_t>(begin), static_cast<uint32_t>(end), seconds);
                      });
  } else {
    advance(0, agentCount(), seconds);
  }
}

void Crowd::advance(uint32_t begin, uint32_t end, float seconds) {
  const float fade_step =
      desc_.cross_fade_seconds > 0.0f ? seconds / desc_.cross_fade_seconds : 1.0f;
  for (uint32_t a = begin; a < end; ++a) {
    AgentPlayback& p = playback_[a];
    p.time += seconds * p.speed;
    p.previous_time += seconds * p.speed;
    p.fade = std::max(0.0f, p.fade - fade_step);

    const AgentState state = states_[a];
    const float duration = clips_[p.clip].duration;
    if (state == AgentState::kPlay && play_loops_[a] && p.time >= duration) {
      // Loop even a clip baked to play once (its own flag would hold the last frame).
      if (!clips_[p.clip].loop) p.time = duration > 0.0f ? std::fmod(p.time, duration) : 0.0f;
    } else if ((state == AgentState::kAttack || state == AgentState::kPlay) && p.time >= duration) {
      enterState(a, resume_states_[a]);
    } else if (state == AgentState::kWalk || state == AgentState::kRun) {
      Placement& pl = placements_[a];
      const glm::vec2 here(pl.position.x, pl.position.z);
      const glm::vec2 to = targets_[a] - here;
      const float distance = glm::length(to);
      const float step = (state == AgentState::kWalk ? clip_set_.walk_speed : clip_set_.run_speed) *
                         seconds * pl.scale * p.speed;
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
