// Layers: an agent's layer state to the frames and weight a renderer draws.
#include "throng/crowd/layer.h"

#include <cmath>

namespace throng {

LayerSample layerSample(std::span<const BakedClip> clips, std::span<const JointRange> ranges,
                        const AgentLayer& layer) {
  LayerSample out;
  const float weight = layerWeight(layer);
  if (!(weight > 0.0f) || layer.clip >= clips.size() || layer.mask >= ranges.size()) return out;
  const BakedClip& clip = clips[layer.clip];
  float time = layer.time;
  // A clip baked to play once still loops as a looping layer (its own flag would hold the end).
  if (layer.loop && !clip.loop && clip.duration > 0.0f && time >= clip.duration) {
    time = std::fmod(time, clip.duration);
  }
  out.frames = sampleFrames(clip, time);
  out.weight = weight;
  out.range = ranges[layer.mask];
  return out;
}

}  // namespace throng
