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

PlaybackClip playbackClip(const BakedClip& clip) {
  PlaybackClip out;
  out.first_frame = clip.first_frame;
  out.last = clip.frame_count > 0 ? clip.frame_count - 1 : 0;
  out.loop = clip.loop;
  out.still = clip.frame_count <= 1 || !(clip.duration > 0.0f) || !(clip.fps > 0.0f);
  if (out.still) return out;
  out.fps = clip.fps;
  out.period = static_cast<double>(clip.duration) * out.fps;
  out.inv_period = 1.0 / out.period;
  return out;
}

FrameSample sampleFrames(const BakedClip& clip, float seconds) {
  return sampleFrames(playbackClip(clip), seconds);
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
  for (size_t i = 0; i < agents.size(); ++i) out[i] = agentFrames(clips, agents[i]);
  return true;
}

}  // namespace throng
