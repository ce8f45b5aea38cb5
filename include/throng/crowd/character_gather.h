// Gathering one character's agents of a mixed crowd into contiguous arrays for its renderer.
#pragma once

#include <cstdint>
#include <span>

#include "throng/crowd/playback.h"

namespace throng {

// Copies, in agent order, the placement, playback, tint and appearance variant of every agent
// whose character is `character` into the out spans, and its crowd index into out_agents; *count
// = how many. Inputs have one entry per agent (tints and variants may be empty: none gathered);
// outputs hold at least as many entries as agents (out_tints / out_variants may be empty when
// tints / variants are). Allocates nothing.
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
  std::span<const uint16_t> variants;  // per agent (Crowd::variants())
  std::span<uint16_t> out_variants;

  bool validate() const;
  bool run() const;
};

}  // namespace throng
