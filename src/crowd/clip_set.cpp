// ClipSet from an explicit map, the name heuristic and the documented fallbacks.
#include "throng/crowd/clip_set.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>

#include <fmt/core.h>

#include "core/number_text.h"

namespace throng {
namespace {

constexpr int kIdle = static_cast<int>(AgentState::kIdle);
constexpr int kWalk = static_cast<int>(AgentState::kWalk);
constexpr int kRun = static_cast<int>(AgentState::kRun);
constexpr int kAttack = static_cast<int>(AgentState::kAttack);
constexpr int kDead = static_cast<int>(AgentState::kDead);

std::string lowered(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string_view trimmed(std::string_view text) {
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
    text.remove_prefix(1);
  }
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) {
    text.remove_suffix(1);
  }
  return text;
}

// How well a clip name matches a heuristic word: 3 equal, 2 starts with it, 1 contains it, 0 not
// (case-insensitive). "Idle_A" beats "Jump_Idle" for idle.
int matchScore(const std::string& name, const char* word) {
  const std::string lower = lowered(name);
  if (lower == word) return 3;
  if (lower.rfind(word, 0) == 0) return 2;
  return lower.find(word) != std::string::npos ? 1 : 0;
}

// The best-matching clip for `words` (earlier words first), -1 when none matches.
int findByWords(std::span<const BakedClip> clips, std::span<const char* const> words) {
  for (const char* word : words) {
    int best = -1;
    int best_score = 0;
    for (size_t c = 0; c < clips.size(); ++c) {
      const int score = matchScore(clips[c].name, word);
      if (score > best_score) {
        best = static_cast<int>(c);
        best_score = score;
      }
    }
    if (best >= 0) return best;
  }
  return -1;
}

// A clip whose root travels less than this fraction of its bounds over the clip walks in place:
// a bobbing or swaying root (a few percent of the figure) is no ground speed.
constexpr float kInPlaceFraction = 0.05f;
// Default locomotion speeds in character heights per second (1.4 and 3.5 m/s for a 1.75 m
// figure), so that characters authored in any unit move at a plausible pace.
constexpr float kWalkHeightsPerSecond = 0.8f;
constexpr float kRunHeightsPerSecond = 2.0f;

// Ground speed of a clip from its root motion: horizontal distance over its duration; 0 when it
// walks in place.
float rootSpeed(const BakedClip& clip) {
  if (clip.root_motion.size() < 2 || !(clip.duration > 0.0f)) return 0.0f;
  const glm::vec3 d = clip.root_motion.back() - clip.root_motion.front();
  const float distance = std::hypot(d.x, d.z);
  if (distance <= kInPlaceFraction * clip.bounds.largestExtent()) return 0.0f;
  const float covered = static_cast<float>(clip.root_motion.size() - 1) / clip.fps;
  return covered > 0.0f ? distance / covered : 0.0f;
}

void pickSpeed(const BakedClip& clip, float map_speed, float height_speed, float* speed,
               SpeedSource* source) {
  if (const float v = rootSpeed(clip); v > 0.0f) {
    *speed = v;
    *source = SpeedSource::kRootMotion;
  } else if (map_speed > 0.0f) {
    *speed = map_speed;
    *source = SpeedSource::kMap;
  } else if (height_speed > 0.0f) {
    *speed = height_speed;
    *source = SpeedSource::kHeight;
  }
}

// Words a state's clip name holds (case-insensitive), tried in order.
const std::vector<const char*> kStateWords[kClipSetStates] = {
    {"idle"}, {"walk"}, {"run"}, {"attack", "punch", "slash", "hit"}, {"die", "death"}};

// The walk and run speeds of `set` (see makeClipSet).
void setSpeeds(std::span<const BakedClip> clips, const ClipMap& map, ClipSet& set) {
  const float height = clips[set.state_clip[kIdle]].bounds.size().y;
  pickSpeed(clips[set.state_clip[kWalk]], map.walk_speed, kWalkHeightsPerSecond * height,
            &set.walk_speed, &set.walk_speed_source);
  pickSpeed(clips[set.state_clip[kRun]], map.run_speed, kRunHeightsPerSecond * height,
            &set.run_speed, &set.run_speed_source);
}

const char* speedSourceName(SpeedSource source) {
  switch (source) {
    case SpeedSource::kRootMotion:
      return "root motion";
    case SpeedSource::kMap:
      return "clip map";
    case SpeedSource::kHeight:
      return "default for its height";
    case SpeedSource::kDefault:
      break;
  }
  return "default";
}

// The map's key for a state ("die" for kDead, as users name the clip's state).
const char* mapKey(int state) {
  return state == kDead ? "die" : agentStateName(static_cast<AgentState>(state));
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

Result<ClipMap> parseClipMap(std::string_view text) {
  ClipMap map;
  size_t start = 0;
  while (start <= text.size()) {
    const size_t comma = std::min(text.find(',', start), text.size());
    const std::string_view entry = trimmed(text.substr(start, comma - start));
    start = comma + 1;
    if (entry.empty()) continue;
    const size_t equals = entry.find('=');
    if (equals == std::string_view::npos) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("clip map entry '{}': expected state=clip", entry));
    }
    const std::string key = lowered(trimmed(entry.substr(0, equals)));
    const std::string_view value = trimmed(entry.substr(equals + 1));
    if (value.empty()) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("clip map entry '{}': no clip after '='", entry));
    }
    if (key == "walk_speed" || key == "run_speed") {
      float speed = 0.0f;
      if (parseFloat(value, speed) != std::errc() || !(speed > 0.0f) || !std::isfinite(speed)) {
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("clip map entry '{}': the speed must be a positive number "
                                  "(world units per second)",
                                  entry));
      }
      (key == "walk_speed" ? map.walk_speed : map.run_speed) = speed;
      continue;
    }
    int state = -1;
    for (int s = 0; s < kClipSetStates; ++s) {
      if (key == mapKey(s) || key == agentStateName(static_cast<AgentState>(s))) state = s;
    }
    if (state < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("clip map entry '{}': unknown state '{}' (states: idle, walk, "
                                "run, attack, die; speeds: walk_speed, run_speed)",
                                entry, key));
    }
    map.state_clip[state] = std::string(value);
  }
  return map;
}

Result<ClipSet> makeClipSet(std::span<const BakedClip> clips, const ClipMap& map,
                            std::vector<Warning>* warnings) {
  if (clips.empty()) {
    return Status(ErrorCode::kInvalidArgument, "no clips: a crowd needs at least one clip");
  }
  // Each fallback: the state, the clip that plays for it, the message.
  auto warn = [&](const char* state, int clip, std::string message) {
    if (warnings == nullptr) return;
    warnings->push_back(
        makeWarning(WarningKind::kStateClipFallback, std::move(message),
                    fmt::format("{} -> '{}'", state, clips[static_cast<size_t>(clip)].name)));
    warnings->back().with("state", state).with("clip", clips[static_cast<size_t>(clip)].name);
  };
  std::array<int, kClipSetStates> found{};
  for (int s = 0; s < kClipSetStates; ++s) {
    if (!map.state_clip[s].empty()) {
      found[s] = findClip(clips, map.state_clip[s]);
      if (found[s] < 0) {
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("clip map: no clip '{}' for the '{}' state (clips: {})",
                                  map.state_clip[s], mapKey(s), clipList(clips)));
      }
    } else {
      found[s] = findByWords(clips, kStateWords[s]);
    }
  }

  ClipSet set;
  if (clips.size() == 1) {
    set.state_clip.fill(0);
    warn("every state", 0, fmt::format("one clip ('{}'): it plays for every state", clips[0].name));
  } else {
    if (found[kIdle] < 0) {
      found[kIdle] = 0;
      warn("idle", 0, fmt::format("no idle clip: the first clip ('{}') idles", clips[0].name));
    }
    for (const auto& [state, other] : {std::pair{kWalk, kRun}, std::pair{kRun, kWalk}}) {
      if (found[state] >= 0) continue;
      const int substitute = found[other] >= 0 ? found[other] : found[kIdle];
      warn(mapKey(state), substitute,
           fmt::format("no {} clip: '{}' plays for it", mapKey(state), clips[substitute].name));
      found[state] = substitute;
    }
    for (const int state : {kAttack, kDead}) {
      if (found[state] >= 0) continue;
      warn(mapKey(state), found[kIdle],
           fmt::format("no {} clip: idle's clip ('{}') plays for it", mapKey(state),
                       clips[found[kIdle]].name));
      found[state] = found[kIdle];
    }
    for (int s = 0; s < kClipSetStates; ++s) set.state_clip[s] = static_cast<uint16_t>(found[s]);
  }
  setSpeeds(clips, map, set);
  return set;
}

Result<ClipSet> clipSetByName(std::span<const BakedClip> clips, std::vector<Warning>* warnings) {
  return makeClipSet(clips, ClipMap{}, warnings);
}

ClipSet clipSetByName(std::span<const BakedClip> clips, uint16_t fallback,
                      std::vector<AgentState>* missing) {
  ClipSet set;
  std::array<int, kClipSetStates> found{};
  for (int s = 0; s < kClipSetStates; ++s) {
    found[s] = findByWords(clips, kStateWords[s]);
    if (found[s] < 0 && missing != nullptr) missing->push_back(static_cast<AgentState>(s));
    set.state_clip[s] = found[s] < 0 ? fallback : static_cast<uint16_t>(found[s]);
  }
  setSpeeds(clips, ClipMap{}, set);
  return set;
}

std::string describeClipSet(const ClipSet& set, std::span<const BakedClip> clips) {
  std::string text;
  for (int s = 0; s < kClipSetStates; ++s) {
    text += fmt::format("{}{}={}", s == 0 ? "" : " ", mapKey(s), clips[set.state_clip[s]].name);
  }
  text += fmt::format("; walk {:.2f}/s ({}), run {:.2f}/s ({})", set.walk_speed,
                      speedSourceName(set.walk_speed_source), set.run_speed,
                      speedSourceName(set.run_speed_source));
  return text;
}

}  // namespace throng
