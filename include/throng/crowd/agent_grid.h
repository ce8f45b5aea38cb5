// AgentGrid: agents standing on a square grid, row by row (the tools', the web page's and the
// benchmarks' starting crowd).
#pragma once

#include <cstdint>

#include <glm/glm.hpp>

namespace throng {

// Agent i stands at origin + spacing * (i % columns, i / columns) on the ground (world x, z;
// y = 0): rows along +x, filled one after the other towards +z.
struct AgentGrid {
  uint32_t columns = 1;    // agents per row (> 0)
  float spacing = 1.0f;    // world units between neighbours
  glm::vec2 origin{0.0f};  // world x, z of agent 0

  // Agent `agent`'s position (world units).
  glm::vec3 position(uint32_t agent) const {
    return glm::vec3(origin.x + spacing * static_cast<float>(agent % columns), 0.0f,
                     origin.y + spacing * static_cast<float>(agent / columns));
  }
  // Rows that `count` agents fill (the last one maybe part full).
  uint32_t rows(uint32_t count) const { return (count + columns - 1) / columns; }
  // The lowest and highest world x, z that `count` (> 0) agents stand on.
  glm::vec2 low() const { return origin; }
  glm::vec2 high(uint32_t count) const {
    return origin + spacing * glm::vec2(static_cast<float>(columns - 1),
                                        static_cast<float>(rows(count) - 1));
  }
};

// The grid of `count` agents `spacing` world units apart as near a square as can be: the fewest
// columns c with c * c >= count (1 for no agents), the first row at z = x = -spacing * (c - 1) / 2,
// so that a full square is centred on the origin.
AgentGrid squareGrid(uint32_t count, float spacing);

}  // namespace throng
