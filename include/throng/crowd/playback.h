// Playback: turning each agent's (clip, time, speed, loop) into animation-texture frame pairs.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"

namespace throng {

// Where a character stands: world position, heading (radians about +Y, 0 faces +Z), uniform scale.
struct Placement {
  glm::vec3 position{0.0f};
  float heading = 0.0f;
  float scale = 1.0f;
};
glm::mat4 placementMatrix(const Placement& placement);

// Two texture frames and the blend between them: pose = mix(frame_a, frame_b, blend).
struct FrameSample {
  uint32_t frame_a = 0;
  uint32_t frame_b = 0;
  float blend = 0.0f;
};

// One agent's animation for a frame: the current clip, and the clip it fades from.
struct AgentPlayback {
  uint16_t clip = 0;  // index into the package's clips
  // Playback seconds into the clip: whoever advances it adds dt * speed (Crowd::update does), so
  // PlaybackJob reads it as is and never scales it by speed again.
  float time = 0.0f;
  float speed = 1.0f;          // playback rate, applied when time is advanced
  uint16_t previous_clip = 0;  // clip being faded out
  float previous_time = 0.0f;  // its playback seconds (advanced like time)
  float fade = 0.0f;           // weight of the previous clip, 1 -> 0 over the cross-fade
};

// What a renderer needs per agent: the primary frame pair, the fading clip's pair and its weight.
struct InstanceFrames {
  FrameSample primary;
  FrameSample secondary;
  float fade = 0.0f;
};

// What sampleFrames needs of a clip, worked out once (a reciprocal instead of a division per
// call): loops over many agents keep one per clip.
struct PlaybackClip {
  uint32_t first_frame = 0;
  uint32_t last = 0;  // frame_count - 1
  bool loop = false;
  bool still = true;  // one frame, or no duration or fps: always first_frame
  double fps = 0.0;
  double period = 0.0;  // frame steps of one cycle: duration * fps
  double inv_period = 0.0;
};
PlaybackClip playbackClip(const BakedClip& clip);

// Frame pair for `seconds` of playback of `clip`: looping clips wrap from their last stored frame
// back to their first; clamped clips hold their last frame. Doubles: a crowd may play for hours,
// and float seconds * fps loses the fraction early. Built from scalars, one result per return:
// a result assembled field by field in memory and copied on as a whole stalled on store
// forwarding (this runs per agent per frame).
inline FrameSample sampleFrames(const PlaybackClip& clip, float seconds) {
  if (clip.still) return FrameSample{clip.first_frame, clip.first_frame, 0.0f};
  const double time = std::isfinite(seconds) ? static_cast<double>(seconds) : 0.0;
  const uint32_t last = clip.last;
  uint32_t a = 0, b = 0;
  double blend = 0.0;
  if (clip.loop) {
    // One cycle spans `period` frame steps (== frame_count for a whole number of frames); the
    // step from the last stored frame back to frame 0 covers whatever is left of the cycle.
    const double period = clip.period;
    double position = time * clip.fps;
    if (!(position >= 0.0 && position < period)) {
      // Whole cycles off by truncation (not std::fmod), then a cycle either way for rounding.
      const double cycles = position * clip.inv_period;
      position = std::abs(cycles) < 4.0e15
                     ? position - period * static_cast<double>(static_cast<int64_t>(cycles))
                     : 0.0;
      if (position < 0.0) position += period;
      if (!(position < period)) position -= period;
      if (!(position >= 0.0 && position < period)) position = 0.0;
    }
    a = std::min(static_cast<uint32_t>(position), last);
    b = a == last ? 0 : a + 1;
    blend = position - static_cast<double>(a);
    if (a == last) {
      const double step = period - static_cast<double>(last);  // what is left of the cycle
      blend = step > 0.0 ? blend / step : 0.0;
    }
  } else {
    const double position = std::clamp(time * clip.fps, 0.0, static_cast<double>(last));
    a = std::min(static_cast<uint32_t>(position), last);
    b = std::min(a + 1, last);
    blend = position - static_cast<double>(a);
  }
  return FrameSample{clip.first_frame + a, clip.first_frame + b,
                     std::clamp(static_cast<float>(blend), 0.0f, 1.0f)};
}
FrameSample sampleFrames(const BakedClip& clip, float seconds);

// An agent's frames, handed to fn(primary, secondary, fade) and its result returned: its clip's
// pair, the fading clip's pair (the primary pair itself when not fading: harmless to blend in,
// the same pose) and the fade clamped to 0..1 (NaN: 0). Clip indices must be < clips.size();
// `Clip` is BakedClip or PlaybackClip. Hot loops take the pairs by reference from here: a copy
// of a pair (its two frame words moved as one) stalled on store forwarding.
template <typename Clip, typename Fn>
inline decltype(auto) withAgentFrames(std::span<const Clip> clips, const AgentPlayback& agent,
                                      Fn&& fn) {
  // NaN fails both comparisons and ends up at 0: no fade.
  const float fade = agent.fade > 0.0f ? std::min(agent.fade, 1.0f) : 0.0f;
  const FrameSample primary = sampleFrames(clips[agent.clip], agent.time);
  if (fade > 0.0f) {
    const FrameSample secondary = sampleFrames(clips[agent.previous_clip], agent.previous_time);
    return fn(primary, secondary, fade);
  }
  return fn(primary, primary, fade);
}

// withAgentFrames' frames as one value.
template <typename Clip>
inline InstanceFrames agentFrames(std::span<const Clip> clips, const AgentPlayback& agent) {
  return withAgentFrames(clips, agent,
                         [](const FrameSample& primary, const FrameSample& secondary, float fade) {
                           return InstanceFrames{primary, secondary, fade};
                         });
}

// out[i] = agentFrames(clips, agents[i]). Sizes equal; clip indices < clips.size(). Allocates
// nothing.
struct PlaybackJob {
  std::span<const BakedClip> clips;
  std::span<const AgentPlayback> agents;
  std::span<InstanceFrames> out;

  bool validate() const;
  bool run() const;
};

}  // namespace throng
