// Layers: a second clip an agent plays on a joint mask over its base clip, with its own time,
// loop and fade in and out.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
#include "throng/core/attachment.h"
#include "throng/crowd/playback.h"

namespace throng {

// Whether a layer's clip loops.
enum class LayerLoop : uint8_t {
  kClip,  // as the clip was baked (BakedClip::loop)
  kLoop,  // repeats, even a clip baked to play once, until stopLayer
  kOnce,  // plays through once, fading out over its last fade seconds, then ends
};

// One agent's layer. Its weight on screen is layerWeight(): `weight` times the fade level.
struct AgentLayer {
  bool active = false;
  bool loop = true;       // resolved from LayerLoop when it started
  bool stopping = false;  // fading out (stopLayer), then inactive
  uint8_t mask = 0;       // index into the character's masks (Package::masks)
  uint16_t clip = 0;      // index into the character's clips
  float time = 0.0f;      // playback seconds into the clip (advanced by dt * the agent's speed)
  float weight = 1.0f;    // 0..1, the weight at full fade-in
  float level = 0.0f;     // 0..1, the fade: rises over fade_seconds, falls when stopping
  float fade_seconds = 0.0f;
};

// The layer's weight on screen: weight * level while active, else 0 (clamped to 0..1).
inline float layerWeight(const AgentLayer& layer) {
  if (!layer.active) return 0.0f;
  const float w = layer.weight * layer.level;
  return w > 0.0f ? std::min(w, 1.0f) : 0.0f;
}

// What a renderer needs of an agent's layer: the layer clip's frame pair, its weight, and the
// mask's joints (jointRange of the mask's root). weight 0: no layer (draw the base pose).
struct LayerSample {
  FrameSample frames;
  float weight = 0.0f;
  JointRange range;
};

// The sample of `layer` for a character whose clips are `clips` and mask ranges `ranges` (one per
// Package::masks entry, jointRange of its root). An inactive layer, or a clip or mask out of
// range, gives weight 0. A looping layer wraps its time even over a clip baked to play once.
LayerSample layerSample(std::span<const BakedClip> clips, std::span<const JointRange> ranges,
                        const AgentLayer& layer);

}  // namespace throng
