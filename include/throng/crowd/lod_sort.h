// Grouping agents by LOD (a counting sort) so a renderer draws each LOD's agents together.
#pragma once

#include <cstdint>
#include <span>

namespace throng {

// first[l] = counts[0] + ... + counts[l - 1]: where LOD l's agents start in the sorted order.
// Sizes: first.size() == counts.size(). Allocates nothing.
void lodOffsets(std::span<const uint32_t> counts, std::span<uint32_t> first);

// The scatter half of a counting sort: order[cursor[lod[i]]++] = agents[i]. With cursor =
// lodOffsets(counts of every agent) the order groups agents by LOD, keeping their order within a
// LOD (stable). A chunk of agents can run alone with its own cursor (the offsets plus the counts
// of the chunks before it). Sizes: lod == agents; every lod[i] < cursor.size(). run() stops and
// returns false when a cursor runs past order's end (counts that do not match). Allocates nothing.
struct LodSortJob {
  std::span<const uint32_t> agents;
  std::span<const uint8_t> lod;
  std::span<uint32_t> cursor;  // in/out: the next slot of each LOD
  std::span<uint32_t> order;   // out: agent indices grouped by LOD

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
