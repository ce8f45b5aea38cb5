// Counting sort of agents by LOD.
#include "throng/crowd/lod_sort.h"

#include <cassert>

namespace throng {

void lodOffsets(std::span<const uint32_t> counts, std::span<uint32_t> first) {
  assert(first.size() == counts.size());
  uint32_t sum = 0;
  for (size_t l = 0; l < counts.size(); ++l) {
    first[l] = sum;
    sum += counts[l];
  }
}

bool LodSortJob::validate() const {
  if (lod.size() != agents.size()) return false;
  for (uint8_t l : lod) {
    if (l >= cursor.size()) return false;
  }
  return true;
}

bool LodSortJob::run() const {
  if (!validate()) return false;
  for (size_t i = 0; i < agents.size(); ++i) {
    const uint32_t slot = cursor[lod[i]]++;
    if (slot >= order.size()) return false;  // cursors that overrun: a caller's counting bug
    order[slot] = agents[i];
  }
  return true;
}

}  // namespace throng
