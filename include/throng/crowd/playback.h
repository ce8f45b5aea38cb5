// Playback: turning each agent's (clip, time, speed, loop) into animation-texture frame pairs.
#pragma once

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

// Frame pair for `seconds` of playback of `clip`: looping clips wrap from their last stored frame
// back to their first; clamped clips hold their last frame.
FrameSample sampleFrames(const BakedClip& clip, float seconds);

// out[i] = frames of agents[i]. Sizes equal; clip indices < clips.size(). Allocates nothing.
struct PlaybackJob {
  std::span<const BakedClip> clips;
  std::span<const AgentPlayback> agents;
  std::span<InstanceFrames> out;

  bool validate() const;
  bool run() const;
};

}  // namespace throng
