// Crowd: agents driven by commands through a small state machine, producing placements and
// playback.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/attachment.h"
#include "throng/core/job_system.h"
#include "throng/core/status.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/event_crossing.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/playback.h"

namespace throng {

enum class CommandType : uint8_t {
  kIdle,    // stop where you are
  kWalkTo,  // walk to `target`, then idle
  kRunTo,   // run to `target`, then idle
  kAttack,  // play the attack once, then go back to what the agent was doing
  kDie,     // play the death once and stay down; a dead agent ignores every later command
  kPlay,    // play `clip`: once, then back to what the agent was doing (as kAttack), or looped
            // until the next command
};

// A user's (player's) command for one agent. Applied at the start of the next Crowd::update.
struct Command {
  uint32_t agent = 0;
  CommandType type = CommandType::kIdle;
  glm::vec2 target{0.0f};  // world x, z for kWalkTo / kRunTo
  uint16_t clip = 0;       // kPlay: index into the crowd's clips
  bool loop = false;       // kPlay: loop until the next command (true) or play once (false)
};

// Fastest Crowd::setSpeed: past this, a 30 Hz tick skips whole strides of a walk cycle.
inline constexpr float kMaxSpeed = 8.0f;

struct CrowdDesc {
  float cross_fade_seconds = 0.25f;  // a state change blends clips over this long
  float turn_rate = 8.0f;            // radians per second towards the walking direction
};

// Everything the state machine keeps of one agent: what a copy of the crowd simulated elsewhere
// (the GPU-driven render path) holds per agent.
struct AgentRecord {
  Placement placement;
  AgentPlayback playback;
  AgentState state = AgentState::kIdle;
  AgentState resume_state = AgentState::kIdle;  // where an attack or a play-once returns to
  bool play_loop = false;                       // kPlay: looped (true) or once
  glm::vec2 target{0.0f};                       // walk-to / run-to target, world x, z
};

// A change to the set of agents made between two updates, in the order made: what a copy of the
// crowd kept elsewhere replays to stay in step (see Crowd::changes()).
struct AgentChange {
  enum class Kind : uint8_t {
    kAdded,    // agent `agent` (== the agent count before) was added
    kRemoved,  // agent `agent` was removed: the last agent moved into its index
    kSpeed,    // agent `agent`'s speed was set (setSpeed): playback().speed has the value
  };
  Kind kind = Kind::kAdded;
  uint32_t agent = 0;
  float speed = 0.0f;  // kSpeed: the speed set (clamped)
};

// One character of a (mixed) crowd: its package's clips and which clip each state plays.
struct CrowdCharacter {
  std::span<const BakedClip> clips;  // copied by the Crowd
  ClipSet clip_set;                  // indices into `clips`
  size_t mask_count = 0;             // its package's joint masks (Package::masks), for layers
};

// A crowd holds at most this many characters: an agent names its character in 16 bits.
inline constexpr size_t kMaxCrowdCharacters = 65535;

// Structure-of-arrays crowd. update() allocates nothing once commands have been reserved.
class Crowd {
 public:
  // One character: `clips` is copied (durations, loop flags, events); state clips index it.
  // `mask_count`: the package's joint masks (Package::masks), which layers may play on.
  Crowd(std::span<const BakedClip> clips, const ClipSet& clip_set, const CrowdDesc& desc = {},
        size_t mask_count = 0);
  // A mixed crowd: agents of several characters (at most kMaxCrowdCharacters), each with its own
  // clips and ClipSet. Each agent's AgentPlayback clip indices are into its character's clips.
  explicit Crowd(std::span<const CrowdCharacter> characters, const CrowdDesc& desc = {});

  // Adds an idle agent of `character` (< characterCount()) in appearance `variant` (carried for
  // the renderer: 0 the character's own materials, v its material variant v - 1, see
  // render::CrowdFrame::variants); returns its index.
  // `start_time` offsets its clip (seconds).
  uint32_t addAgent(const Placement& placement, float start_time = 0.0f, uint16_t character = 0,
                    uint16_t variant = 0);
  // Removes `agent` (< agentCount()) in O(1): the last agent takes its index, so indices stay
  // dense; queued commands for `agent` are dropped and those for the last agent follow it.
  void removeAgent(uint32_t agent);
  uint32_t agentCount() const { return static_cast<uint32_t>(placements_.size()); }
  uint16_t characterCount() const { return static_cast<uint16_t>(clip_sets_.size()); }
  // Keeps agents 0..count-1 and drops the rest with their queued commands (a no-op when the
  // crowd has no more than `count`). Capacity is kept, so growing back allocates nothing.
  void truncate(uint32_t count);
  // Sets how fast `agent` lives: its clips play at `speed` times their rate and it walks and
  // runs `speed` times as fast (feet stay planted). 1 = normal; clamped to 0..kMaxSpeed.
  // Unknown agents are ignored.
  void setSpeed(uint32_t agent, float speed);

  // Plays `clip` (< its character's clips) on joint mask `mask` (< its character's mask_count)
  // of `agent` over its base clip, from the clip's start: its weight rises from 0 to `weight`
  // (clamped to 0..1) over `fade` seconds, it plays at the agent's speed and loops as `loop`
  // says; a kOnce layer fades out over its last `fade` seconds and ends. A layer already playing
  // is replaced (its fade level carries on, so the weight does not jump). Its events are reported
  // like the base clip's (EventHit::layer). Returns false, changing nothing, for an unknown
  // agent, clip or mask, or a dead agent.
  bool playLayer(uint32_t agent, uint16_t clip, uint8_t mask, float weight = 1.0f,
                 float fade = 0.25f, LayerLoop loop = LayerLoop::kClip);
  // Fades `agent`'s layer out over `fade` seconds (0: at once), then ends it. Unknown agents and
  // agents without a layer are ignored.
  void stopLayer(uint32_t agent, float fade = 0.25f);
  // Which props `agent` shows: bit i shows attachment i (Package::attachments); new agents show
  // kAllAttachments. Unknown agents are ignored.
  void setAttachments(uint32_t agent, uint32_t mask);

  // Queues a command; commands for unknown agents or (kPlay) clips their character lacks are
  // dropped (counted in droppedCommands()).
  void submit(const Command& command);
  // Applies queued commands, then advances every agent by `seconds`: in chunks on `jobs'
  // threads when given (the same result whatever the thread count), else on the calling thread;
  // then collects the animation events crossed (events()) on the calling thread. Allocates only
  // when a tick reports more events than any before.
  void update(float seconds, JobSystem* jobs = nullptr);
  // Advances only the layers by `seconds` (their time at each agent's speed, their fades, the
  // ends of once-layers and stopped ones: the code update() runs for them), and ends the layers
  // of agents with a queued kDie (as applying it would); events() then holds the layers' events
  // crossed, in agent order. For a copy of the crowd simulated elsewhere (the GPU-driven render
  // path), which takes the rest of update()'s work: call it before the copy takes the queued
  // commands. Leaves the queue, the change log and every other array as they are. O(agents).
  void advanceLayers(float seconds);

  std::span<const Placement> placements() const { return placements_; }
  std::span<const AgentPlayback> playback() const { return playback_; }
  std::span<const AgentState> states() const { return states_; }
  // Per agent: its layer (inactive when none) and its visible props (bit i: attachment i).
  // Kept by update() and the calls above only: agent() / setAgent() and the change log leave
  // them out, so a copy of the crowd kept elsewhere reads them here.
  std::span<const AgentLayer> layers() const { return layers_; }
  std::span<const uint32_t> attachments() const { return attachments_; }
  // Agents whose layer is active: 0 lets a copy of the crowd kept elsewhere skip the layers in
  // O(1) (advanceLayers then costs O(commands)).
  uint32_t activeLayerCount() const { return active_layers_; }
  // Changes whenever an agent's visible props change (setAttachments) or agents come or go: a
  // copy kept elsewhere reads attachments() again only when it moved.
  uint64_t attachmentsVersion() const { return attachments_version_; }
  // The events crossed during the last update, by agent then clip (playing, then fading out)
  // then time; each crossing once, loop wraps and cross-fades included (forEachCrossedEvent).
  // The same commands and updates give the same list. Valid until the next update.
  std::span<const EventHit> events() const { return events_; }
  // Per agent: its character and appearance variant (as given to addAgent).
  std::span<const uint16_t> agentCharacters() const { return characters_; }
  std::span<const uint16_t> variants() const { return variants_; }
  // A character's clips (as given to the constructor), for event and clip names.
  std::span<const BakedClip> clips(uint16_t character = 0) const {
    return std::span<const BakedClip>(clips_).subspan(clip_first_[character],
                                                      clip_count_[character]);
  }
  uint32_t droppedCommands() const { return dropped_commands_; }
  // A character's ClipSet (as given to the constructor).
  const ClipSet& clipSet(uint16_t character = 0) const { return clip_sets_[character]; }
  const CrowdDesc& desc() const { return desc_; }

  // Agent `agent` (< agentCount()) whole, and its replacement (a copy simulated elsewhere
  // writing its state back; the record's clips must index its character's clips()).
  AgentRecord agent(uint32_t agent) const;
  void setAgent(uint32_t agent, const AgentRecord& record);

  // For a copy of the crowd simulated elsewhere (the GPU-driven render path), which takes the
  // commands instead of update(): the commands queued since the last update, in order, and the
  // agents added and removed since then. update() and clearCommands() / clearChanges() empty them.
  std::span<const Command> queuedCommands() const { return queue_; }
  void clearCommands() { queue_.clear(); }
  std::span<const AgentChange> changes() const { return changes_; }
  void clearChanges() { changes_.clear(); }

 private:
  void apply(const Command& command);
  // Agents [begin, end) one step on; the events they cross are appended to `events` in agent
  // order.
  void advance(uint32_t begin, uint32_t end, float seconds, std::vector<EventHit>& events);
  // Starts `clip` for `state` (fading from what plays now) unless the agent already loops it.
  void enterState(uint32_t agent, AgentState state, uint16_t clip);
  void enterState(uint32_t agent, AgentState state);  // the ClipSet's clip for `state`
  // Agent `a`'s layer one step on; the events its clip crosses are appended to `events`. True
  // when the layer ended (the caller keeps active_layers_).
  bool advanceLayer(uint32_t a, float seconds, std::vector<EventHit>& events);
  void endLayer(uint32_t agent);  // ends agent's layer, counted

  // Clip `c` of agent `a`: clips_[clip_first_[characters_[a]] + c].
  const BakedClip& clipOf(uint32_t agent, uint16_t clip) const {
    return clips_[clip_first_[characters_[agent]] + clip];
  }

  std::vector<BakedClip> clips_;      // every character's clips, one after the other
  std::vector<uint32_t> clip_first_;  // per character: its first clip in clips_
  std::vector<uint16_t> clip_count_;  // per character: its clip count
  std::vector<ClipSet> clip_sets_;    // per character
  std::vector<size_t> mask_counts_;   // per character
  CrowdDesc desc_;
  std::vector<uint16_t> characters_;  // per agent
  std::vector<uint16_t> variants_;    // per agent
  std::vector<Placement> placements_;
  std::vector<AgentPlayback> playback_;
  std::vector<AgentState> states_;
  std::vector<AgentState> resume_states_;  // where an attack or a play-once returns to
  std::vector<uint8_t> play_loops_;        // kPlay: 1 = looped, 0 = once
  std::vector<glm::vec2> targets_;
  std::vector<AgentLayer> layers_;
  std::vector<uint32_t> attachments_;
  uint32_t active_layers_ = 0;        // agents with an active layer
  uint64_t attachments_version_ = 0;  // bumped by every change to attachments_
  std::vector<Command> queue_;
  std::vector<AgentChange> changes_;
  std::vector<EventHit> events_;
  std::vector<std::vector<EventHit>> chunk_events_;  // update()'s per chunk, reused
  // Per agent, what its last advance played: the spans update() scans for events.
  // 1 while a walking or running agent faces its target (its last turn reached it), so its
  // heading needs no arc tangent; 0 after a new target or a setAgent().
  std::vector<uint8_t> settled_;
  uint32_t dropped_commands_ = 0;
};

}  // namespace throng
