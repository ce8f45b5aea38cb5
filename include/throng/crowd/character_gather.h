// Gathering one character's agents of a mixed crowd into contiguous arrays for its renderer.
#pragma once

#include <cstdint>
#include <span>

#include "throng/crowd/playback.h"

namespace throng {

// Copies, in agent order, the placement, playback and tint of every agent whose character is
// `character` into the out spans, and its crowd index into out_agents; *count = how many.
// Inputs have one entry per agent (tints may be empty: no tints gathered); outputs hold at least
// as many entries as agents (out_tints may be empty when tints is). Allocates nothing.
struct CharacterGatherJob {
  uint16_t character = 0;
  std::span<const uint16_t> characters;  // per agent
  std::span<const Placement> placements;
  std::span<const AgentPlayback> playback;
  std::span<const glm::vec4> tints;
  std::span<Placement> out_placements;
  std::span<AgentPlayback> out_playback;
  std::span<glm::vec4> out_tints;
  std::span<uint32_t> out_agents;
  uint32_t* count = nullptr;

  bool validate() const;
  bool run() const;
};

}  // namespace throng
