// ClipSet: which clip each crowd state plays, as data (an explicit map or the name heuristic).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"

namespace throng {

enum class AgentState : uint8_t { kIdle, kWalk, kRun, kAttack, kDead, kPlay };
inline constexpr int kAgentStateCount = 6;
// The states whose clip the ClipSet names: all but kPlay, whose clip its command names.
inline constexpr int kClipSetStates = 5;
// "idle", "walk", "run", "attack", "dead", "play".
const char* agentStateName(AgentState state);

// Where a locomotion speed came from: the clip's root motion, the ClipMap, the idle clip's
// height (0.8 heights per second walking, 2 running), or ClipSet's constants (no height known).
enum class SpeedSource : uint8_t { kDefault, kRootMotion, kMap, kHeight };

// Which clip each state plays, and how fast locomotion moves (world units per second).
struct ClipSet {
  std::array<uint16_t, kClipSetStates> state_clip{};
  float walk_speed = 1.4f;
  float run_speed = 3.5f;
  SpeedSource walk_speed_source = SpeedSource::kDefault;
  SpeedSource run_speed_source = SpeedSource::kDefault;
};

// An explicit state -> clip map. A state left empty is found by name (see makeClipSet).
struct ClipMap {
  // Clip name (exact) or decimal index per state, in AgentState order (idle .. dead); "" = none.
  std::array<std::string, kClipSetStates> state_clip;
  // Locomotion speeds (world units per second) for walk / run clips without root motion; 0 = the
  // ClipSet defaults.
  float walk_speed = 0.0f;
  float run_speed = 0.0f;
};

// Parses "idle=Survey,walk=Walk,run=Run,walk_speed=1.2": comma-separated key=value pairs, keys
// idle, walk, run, attack, die (or dead), walk_speed, run_speed. Errors (kInvalidArgument) quote
// the bad entry. Clip names are checked later, by makeClipSet.
Result<ClipMap> parseClipMap(std::string_view text);

// The ClipSet for `clips`: each state's clip from `map`, else from the name heuristic
// (case-insensitive substrings: idle; walk; run; attack, punch, slash or hit; die or death),
// else by these fallbacks, each reported in `warnings` (may be null), never as an error:
//   - a single clip plays for every state;
//   - no idle clip: the first clip idles;
//   - no walk clip: the run clip walks, and the other way round; neither: idle's clip;
//   - no attack or die clip: idle's clip.
// Locomotion speeds come from the walk / run clips' root motion (a root that travels under 5% of
// the clip's bounds is in place), else from the map, else from the idle clip's height (see
// SpeedSource), else ClipSet's defaults. Errors (kInvalidArgument): no clips at all, or a map
// naming a clip `clips` lacks.
Result<ClipSet> makeClipSet(std::span<const BakedClip> clips, const ClipMap& map,
                            std::vector<Warning>* warnings = nullptr);
// makeClipSet with an empty map.
Result<ClipSet> clipSetByName(std::span<const BakedClip> clips,
                              std::vector<Warning>* warnings = nullptr);

// The name heuristic alone, never failing (for showing any character): a state whose name
// matches no clip plays clip `fallback` (< clips.size()) and is appended to `missing` when
// given; speeds as makeClipSet.
ClipSet clipSetByName(std::span<const BakedClip> clips, uint16_t fallback,
                      std::vector<AgentState>* missing);

// "idle=Idle walk=Walk run=Run attack=Punch die=Death; walk 1.40/s (root motion), run 3.50/s
// (default)": a ClipSet for messages. Requires its clip indices < clips.size().
std::string describeClipSet(const ClipSet& set, std::span<const BakedClip> clips);

// Index of the clip named `name`, else of clip number `name` when it is a decimal index; -1 when
// neither. Allocates nothing.
int findClip(std::span<const BakedClip> clips, std::string_view name);
// "0 idle, 1 walk, 2 run" (or "none"): the clips, for messages.
std::string clipList(std::span<const BakedClip> clips);

}  // namespace throng
