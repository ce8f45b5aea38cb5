// The frame's second pass on the CPU-fed paths: each visible agent takes its slot in draw order
// and is played back and packed by its path, in one walk over the agents.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "render/passes/cull_lod_pass.h"
#include "render/passes/pass_support.h"
#include "throng/core/job_system.h"

namespace throng::render {

// Hands each agent the cull + LOD pass kept a slot in draw order (by LOD, then by agent index),
// writes it to lists.order, and calls pack(a, i, l) for agent a at slot i with LOD l: the path's
// playback and packing, inlined (no call through a pointer per agent). Runs in the chunks the
// cull pass laid out, on `jobs`' threads when given: each chunk owns the slots its cursors hand
// out, so `pack` may write slot i's record (and agent a's entries) without locks. Allocates
// nothing.
template <typename Pack>
void forVisibleAgents(AgentLists& lists, size_t agents, JobSystem* jobs, Pack&& pack) {
  const size_t chunk = lists.chunk;
  const size_t lod_count = lists.lod_counts.size();
  forChunks(jobs, agents, chunk, [&](size_t begin, size_t end) {
    uint32_t cursors[kMaxDrawnLods];  // on the stack: chunks' cursors share cache lines
    std::copy_n(lists.chunk_cursors.data() + (begin / chunk) * lod_count, lod_count, cursors);
    for (size_t a = begin; a < end; ++a) {
      const uint8_t l = lists.lod[a];
      if (l == kCulled) continue;
      const uint32_t i = cursors[l]++;
      lists.order[i] = static_cast<uint32_t>(a);
      pack(static_cast<uint32_t>(a), i, static_cast<int>(l));
    }
  });
}

}  // namespace throng::render
