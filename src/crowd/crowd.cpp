// The crowd state machine: commands -> states -> clips with cross-fades, and locomotion.
#include "throng/crowd/crowd.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <cmath>

namespace throng {

// Smallest chunk of agents one thread advances: smaller ones cost more to hand over than they save.
constexpr size_t kMinAgentsPerChunk = 4096;

namespace {

constexpr float kPi = 3.14159265358979f;

float wrapAngle(float a) {
  while (a > kPi) a -= 2 * kPi;
  while (a < -kPi) a += 2 * kPi;
  return a;
}

}  // namespace

Crowd::Crowd(std::span<const BakedClip> clips, const ClipSet& clip_set, const CrowdDesc& desc,
             size_t mask_count)
    : Crowd(
          std::span<const CrowdCharacter>(std::array{CrowdCharacter{clips, clip_set, mask_count}}),
          desc) {}

Crowd::Crowd(std::span<const CrowdCharacter> characters, const CrowdDesc& desc) : desc_(desc) {
  assert(characters.size() <= kMaxCrowdCharacters);
  for (const CrowdCharacter& character : characters) {
    clip_first_.push_back(static_cast<uint32_t>(clips_.size()));
    clip_count_.push_back(static_cast<uint16_t>(character.clips.size()));
    clip_sets_.push_back(character.clip_set);
    mask_counts_.push_back(character.mask_count);
    clips_.insert(clips_.end(), character.clips.begin(), character.clips.end());
    for ([[maybe_unused]] uint16_t c : character.clip_set.state_clip) {
      assert(c < character.clips.size());
    }
  }
}

uint32_t Crowd::addAgent(const Placement& placement, float start_time, uint16_t character,
                         uint16_t variant) {
  assert(character < characterCount());
  AgentPlayback p;
  p.clip = p.previous_clip = clip_sets_[character].state_clip[static_cast<int>(AgentState::kIdle)];
  characters_.push_back(character);
  variants_.push_back(variant);
  settled_.push_back(0);
  p.time = p.previous_time = start_time;
  placements_.push_back(placement);
  playback_.push_back(p);
  states_.push_back(AgentState::kIdle);
  resume_states_.push_back(AgentState::kIdle);
  play_loops_.push_back(0);
  targets_.push_back(glm::vec2(placement.position.x, placement.position.z));
  layers_.push_back({});
  attachments_.push_back(kAllAttachments);
  ++attachments_version_;
  changes_.push_back({AgentChange::Kind::kAdded, agentCount() - 1});
  return agentCount() - 1;
}

void Crowd::removeAgent(uint32_t agent) {
  assert(agent < agentCount());
  const uint32_t last = agentCount() - 1;
  if (layers_[agent].active) --active_layers_;
  ++attachments_version_;
  if (agent != last) {
    placements_[agent] = placements_[last];
    playback_[agent] = playback_[last];
    states_[agent] = states_[last];
    resume_states_[agent] = resume_states_[last];
    play_loops_[agent] = play_loops_[last];
    targets_[agent] = targets_[last];
    layers_[agent] = layers_[last];
    attachments_[agent] = attachments_[last];
    settled_[agent] = settled_[last];
    characters_[agent] = characters_[last];
    variants_[agent] = variants_[last];
  }
  placements_.pop_back();
  playback_.pop_back();
  states_.pop_back();
  resume_states_.pop_back();
  play_loops_.pop_back();
  targets_.pop_back();
  layers_.pop_back();
  attachments_.pop_back();
  settled_.pop_back();
  characters_.pop_back();
  variants_.pop_back();
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
  settled_[agent] = 0;
}

void Crowd::truncate(uint32_t count) {
  if (count >= agentCount()) return;
  // Logged as removals of the last agent (which move nobody), for copies kept elsewhere.
  for (uint32_t a = agentCount(); a > count; --a)
    changes_.push_back({AgentChange::Kind::kRemoved, a - 1});
  for (uint32_t a = count; a < agentCount(); ++a) active_layers_ -= layers_[a].active ? 1 : 0;
  ++attachments_version_;
  placements_.resize(count);
  playback_.resize(count);
  states_.resize(count);
  resume_states_.resize(count);
  play_loops_.resize(count);
  targets_.resize(count);
  layers_.resize(count);
  attachments_.resize(count);
  characters_.resize(count);
  variants_.resize(count);
  settled_.resize(count);
  std::erase_if(queue_, [count](const Command& c) { return c.agent >= count; });
  std::erase_if(events_, [count](const EventHit& e) { return e.agent >= count; });
}

void Crowd::setSpeed(uint32_t agent, float speed) {
  if (agent >= agentCount()) return;
  playback_[agent].speed = std::isfinite(speed) ? std::clamp(speed, 0.0f, kMaxSpeed) : 1.0f;
  changes_.push_back({AgentChange::Kind::kSpeed, agent, playback_[agent].speed});
}

bool Crowd::playLayer(uint32_t agent, uint16_t clip, uint8_t mask, float weight, float fade,
                      LayerLoop loop) {
  if (agent >= agentCount() || clip >= clip_count_[characters_[agent]] ||
      mask >= mask_counts_[characters_[agent]] || states_[agent] == AgentState::kDead) {
    return false;
  }
  AgentLayer& layer = layers_[agent];
  const bool clip_loops = clipOf(agent, clip).loop;
  if (!layer.active) ++active_layers_;
  layer.level = layer.active ? layer.level : 0.0f;
  layer.active = true;
  layer.stopping = false;
  layer.clip = clip;
  layer.mask = mask;
  layer.time = 0.0f;
  layer.weight = std::isfinite(weight) ? std::clamp(weight, 0.0f, 1.0f) : 1.0f;
  layer.fade_seconds = std::isfinite(fade) ? std::max(fade, 0.0f) : 0.0f;
  layer.loop = loop == LayerLoop::kLoop || (loop == LayerLoop::kClip && clip_loops);
  if (layer.fade_seconds == 0.0f) layer.level = 1.0f;
  return true;
}

void Crowd::stopLayer(uint32_t agent, float fade) {
  if (agent >= agentCount() || !layers_[agent].active) return;
  AgentLayer& layer = layers_[agent];
  layer.stopping = true;
  layer.fade_seconds = std::isfinite(fade) ? std::max(fade, 0.0f) : 0.0f;
  if (layer.fade_seconds == 0.0f) endLayer(agent);
}

void Crowd::endLayer(uint32_t agent) {
  if (layers_[agent].active) --active_layers_;
  layers_[agent] = AgentLayer{};
}

void Crowd::setAttachments(uint32_t agent, uint32_t mask) {
  if (agent >= agentCount()) return;
  if (attachments_[agent] != (mask & kAllAttachments)) ++attachments_version_;
  attachments_[agent] = mask & kAllAttachments;
}

bool Crowd::advanceLayer(uint32_t a, float seconds, std::vector<EventHit>& events) {
  AgentLayer& layer = layers_[a];
  const BakedClip& clip = clipOf(a, layer.clip);
  const float before = layer.time;
  layer.time += seconds * playback_[a].speed;
  const float step = layer.fade_seconds > 0.0f ? seconds / layer.fade_seconds : 1.0f;
  layer.level = std::clamp(layer.level + (layer.stopping ? -step : step), 0.0f, 1.0f);
  const float duration = clip.duration;
  if (!layer.loop) {
    // A layer played once is gone at its end, faded out over its last fade seconds.
    const float left = duration - layer.time;
    if (layer.fade_seconds > 0.0f) {
      layer.level = std::min(layer.level, std::max(left / layer.fade_seconds, 0.0f));
    }
  }
  const float weight = layerWeight(layer);
  const uint16_t played = layer.clip;
  forEachCrossedEvent(clip, before, layer.time, layer.loop, [&](uint16_t e) {
    events.push_back({a, played, e, weight, true});
  });
  if (layer.loop && !clip.loop && layer.time >= duration) {
    // Loop even a clip baked to play once (its own flag would hold the last frame).
    layer.time = duration > 0.0f ? std::fmod(layer.time, duration) : 0.0f;
  }
  if ((layer.stopping && layer.level <= 0.0f) || (!layer.loop && layer.time >= duration)) {
    layer = AgentLayer{};  // the caller counts it out (advance runs on several threads)
    return true;
  }
  return false;
}

void Crowd::submit(const Command& command) {
  if (command.agent >= agentCount() || (command.type == CommandType::kPlay &&
                                        command.clip >= clip_count_[characters_[command.agent]])) {
    ++dropped_commands_;
    return;
  }
  queue_.push_back(command);
}

void Crowd::enterState(uint32_t agent, AgentState state) {
  assert(state != AgentState::kPlay);
  enterState(agent, state, clip_sets_[characters_[agent]].state_clip[static_cast<int>(state)]);
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
      settled_[c.agent] = 0;
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
      endLayer(c.agent);  // the dead wave no more
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
  // Agents advance independently (each touches only its own entries), and each chunk lists its
  // agents' events; the lists are joined in chunk order: the same events in agent order whatever
  // the thread count.
  const size_t n = agentCount();
  const size_t chunk = jobs ? jobs->chunkFor(n, kMinAgentsPerChunk) : std::max<size_t>(n, 1);
  const size_t chunks = (n + chunk - 1) / chunk;
  if (chunk_events_.size() < chunks) chunk_events_.resize(chunks);
  const auto run = [&](size_t begin, size_t end) {
    std::vector<EventHit>& events = chunk_events_[begin / chunk];
    events.clear();
    advance(static_cast<uint32_t>(begin), static_cast<uint32_t>(end), seconds, events);
  };
  if (jobs) {
    jobs->parallelFor(n, chunk, run);
  } else if (n > 0) {
    run(0, n);
  }
  events_.clear();
  for (size_t c = 0; c < chunks; ++c)
    events_.insert(events_.end(), chunk_events_[c].begin(), chunk_events_[c].end());
  // Layers that ended in the chunks (on several threads) are counted out here, in the O(agents)
  // update, and only while some layer played.
  if (active_layers_ > 0) {
    uint32_t active = 0;
    for (const AgentLayer& layer : layers_) active += layer.active ? 1 : 0;
    active_layers_ = active;
  }
}

void Crowd::advanceLayers(float seconds) {
  for (const Command& c : queue_) {
    if (c.type == CommandType::kDie) endLayer(c.agent);  // as apply() does
  }
  events_.clear();
  if (active_layers_ == 0) return;  // O(commands) while no layer plays
  const uint32_t n = agentCount();
  for (uint32_t a = 0; a < n; ++a) {
    if (layers_[a].active && advanceLayer(a, seconds, events_)) --active_layers_;
  }
}

void Crowd::advance(uint32_t begin, uint32_t end, float seconds, std::vector<EventHit>& events) {
  const float fade_step =
      desc_.cross_fade_seconds > 0.0f ? seconds / desc_.cross_fade_seconds : 1.0f;
  for (uint32_t a = begin; a < end; ++a) {
    AgentPlayback& p = playback_[a];
    const float time_before = p.time;
    const float previous_before = p.previous_time;
    const float fade_before = p.fade;
    p.time += seconds * p.speed;
    p.previous_time += seconds * p.speed;
    p.fade = std::max(0.0f, p.fade - fade_step);

    const AgentState state = states_[a];
    // The events crossed this step, found before any state change below restarts a clip: the
    // playing clip's (looping as it plays: a looped kPlay loops even a clamped clip), and the
    // fading one's while it shows.
    const BakedClip& playing = clipOf(a, p.clip);
    const uint16_t playing_clip = p.clip;
    const float weight = 1.0f - p.fade;
    forEachCrossedEvent(playing, time_before, p.time,
                        playing.loop || (state == AgentState::kPlay && play_loops_[a]),
                        [&](uint16_t e) {
                          events.push_back({a, playing_clip, e, weight});
                        });
    if (fade_before > 0.0f) {
      const uint16_t faded = p.previous_clip;
      const BakedClip& clip = clipOf(a, faded);
      const float faded_weight = p.fade;
      forEachCrossedEvent(clip, previous_before, p.previous_time, clip.loop, [&](uint16_t e) {
        events.push_back({a, faded, e, faded_weight});
      });
    }
    if (layers_[a].active) advanceLayer(a, seconds, events);
    const float duration = playing.duration;
    if (state == AgentState::kPlay && play_loops_[a] && p.time >= duration) {
      // Loop even a clip baked to play once (its own flag would hold the last frame).
      if (!playing.loop) p.time = duration > 0.0f ? std::fmod(p.time, duration) : 0.0f;
    } else if ((state == AgentState::kAttack || state == AgentState::kPlay) && p.time >= duration) {
      enterState(a, resume_states_[a]);
    } else if (state == AgentState::kWalk || state == AgentState::kRun) {
      Placement& pl = placements_[a];
      const glm::vec2 here(pl.position.x, pl.position.z);
      const glm::vec2 to = targets_[a] - here;
      const float distance = glm::length(to);
      const ClipSet& set = clip_sets_[characters_[a]];
      const float step = (state == AgentState::kWalk ? set.walk_speed : set.run_speed) * seconds *
                         pl.scale * p.speed;
      if (distance <= step) {
        pl.position.x = targets_[a].x;
        pl.position.z = targets_[a].y;
        enterState(a, AgentState::kIdle);
      } else {
        // Heading 0 faces +Z; turn at a bounded rate. An agent that faced its target after the
        // last step still does (it moves straight at it): no arc tangent until it is given
        // another target.
        if (!settled_[a]) {
          const float wanted = std::atan2(to.x, to.y);
          const float turn = wrapAngle(wanted - pl.heading);
          const float max_turn = desc_.turn_rate * seconds;
          pl.heading = wrapAngle(pl.heading + std::clamp(turn, -max_turn, max_turn));
          settled_[a] = std::abs(turn) <= max_turn ? 1 : 0;
        }
        const glm::vec2 dir = to / distance;
        pl.position.x += dir.x * step;
        pl.position.z += dir.y * step;
      }
    }
  }
}

}  // namespace throng
