// The square grid's columns, found in integers (a float square root rounds past some squares).
#include "throng/crowd/agent_grid.h"

namespace throng {

AgentGrid squareGrid(uint32_t count, float spacing) {
  uint32_t columns = 1;
  while (uint64_t{columns} * columns < count) ++columns;
  AgentGrid grid;
  grid.columns = columns;
  grid.spacing = spacing;
  const float half = 0.5f * spacing * static_cast<float>(columns - 1);
  grid.origin = glm::vec2(-half);
  return grid;
}

}  // namespace throng
