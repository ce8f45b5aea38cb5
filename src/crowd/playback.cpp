// Playback: (clip, time, speed, loop) -> animation-texture frame pairs and blend factors.
#include "throng/crowd/playback.h"

#include <algorithm>
#include <cmath>

#include <glm/gtc/matrix_transform.hpp>

namespace throng {

glm::mat4 placementMatrix(const Placement& placement) {
  glm::mat4 m = glm::translate(glm::mat4(1.0f), placement.position);
  m = glm::rotate(m, placement.heading, glm::vec3(0.0f, 1.0f, 0.0f));
  return glm::scale(m, glm::vec3(placement.scale));
}

FrameSample sampleFrames(const BakedClip& clip, float seconds) {
  FrameSample sample;
  sample.frame_a = sample.frame_b = clip.first_frame;
  if (clip.frame_count <= 1 || !(clip.duration > 0.0f) || !(clip.fps > 0.0f)) return sample;
  // Doubles: a crowd may play for hours, and float seconds * fps loses the fraction early.
  const double fps = clip.fps;
  const double time = std::isfinite(seconds) ? static_cast<double>(seconds) : 0.0;
  const uint32_t last = clip.frame_count - 1;
  uint32_t a = 0, b = 0;
  double blend = 0.0;
  if (clip.loop) {
    // One cycle spans duration * fps frame steps (== frame_count for a whole number of frames);
    // the step from the last stored frame back to frame 0 covers whatever is left of the cycle.
    const double period = static_cast<double>(clip.duration) * fps;
    double position = std::fmod(time * fps, period);
    if (position < 0.0) position += period;
    a = std::min(static_cast<uint32_t>(position), last);
    b = a == last ? 0 : a + 1;
    const double step = a == last ? period - static_cast<double>(last) : 1.0;
    blend = step > 0.0 ? (position - static_cast<double>(a)) / step : 0.0;
  } else {
    const double position = std::clamp(time * fps, 0.0, static_cast<double>(last));
    a = std::min(static_cast<uint32_t>(position), last);
    b = std::min(a + 1, last);
    blend = position - static_cast<double>(a);
  }
  sample.frame_a = clip.first_frame + a;
  sample.frame_b = clip.first_frame + b;
  sample.blend = std::clamp(static_cast<float>(blend), 0.0f, 1.0f);
  return sample;
}

bool PlaybackJob::validate() const {
  if (agents.size() != out.size()) return false;
  for (const AgentPlayback& agent : agents) {
    if (agent.clip >= clips.size() || agent.previous_clip >= clips.size()) return false;
  }
  return true;
}

bool PlaybackJob::run() const {
  if (!validate()) return false;
  for (size_t i = 0; i < agents.size(); ++i) {
    const AgentPlayback& agent = agents[i];
    InstanceFrames& frames = out[i];
    frames.primary = sampleFrames(clips[agent.clip], agent.time);
    // NaN fails both comparisons and ends up at 0: no fade.
    const float fade = agent.fade > 0.0f ? std::min(agent.fade, 1.0f) : 0.0f;
    if (fade > 0.0f) {
      frames.secondary = sampleFrames(clips[agent.previous_clip], agent.previous_time);
    } else {
      frames.secondary = frames.primary;  // harmless to blend in: the same pose
    }
    frames.fade = fade;
  }
  return true;
}

}  // namespace throng
