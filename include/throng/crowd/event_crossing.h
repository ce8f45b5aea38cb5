// Animation events crossed by playback: which of a clip's events lie in a span of playback time.
#pragma once

#include <cmath>
#include <cstdint>

#include "throng/core/animation_texture.h"

namespace throng {

// One event an agent crossed during a Crowd::update.
struct EventHit {
  uint32_t agent = 0;
  uint16_t clip = 0;    // index into the crowd's clips
  uint16_t event = 0;   // index into clips[clip].events
  float weight = 1.0f;  // the clip's blend weight after the update: 1 - fade for the clip
                        // playing, fade for the clip being faded out, layerWeight for a layer
  bool layer = false;   // the agent's layer clip (Crowd::playLayer) crossed it
};

// A tick spanning more passes of a looping clip than this is a stall, not animation: its
// further passes are not reported (so a tiny clip and a long tick cannot flood the report).
inline constexpr int kMaxEventPassesPerUpdate = 64;

// Calls hit(e) for each event e of `clip` at a playback time in [from, to) (seconds since the
// clip started, as AgentPlayback::time). Looping (`loop`, duration > 0): event times repeat every
// duration (an event at the very end is the moment the next pass starts) and each pass is
// reported. Otherwise each event is reported once, an event at the end included. Consecutive
// spans [a, b), [b, c) report every crossing exactly once. Allocates nothing.
template <typename Hit>
void forEachCrossedEvent(const BakedClip& clip, float from, float to, bool loop, Hit&& hit) {
  if (!(to > from) || clip.events.empty()) return;
  const float duration = clip.duration;
  if (!loop || !(duration > 0.0f)) {
    for (size_t e = 0; e < clip.events.size(); ++e) {
      const float t = clip.events[e].time;
      if (t >= from && t < to) hit(static_cast<uint16_t>(e));
    }
    return;
  }
  // One pass before and after the span's own, so that rounding in from / duration never hides
  // a crossing; the [from, to) test decides.
  const float first = std::floor(from / duration) - 1.0f;
  const float last = std::min(std::floor(to / duration) + 1.0f,
                              first + 2.0f + static_cast<float>(kMaxEventPassesPerUpdate));
  for (float pass = first; pass <= last; pass += 1.0f) {
    for (size_t e = 0; e < clip.events.size(); ++e) {
      const float at = pass * duration + clip.events[e].time;
      if (at >= from && at < to) hit(static_cast<uint16_t>(e));
    }
  }
}

}  // namespace throng
