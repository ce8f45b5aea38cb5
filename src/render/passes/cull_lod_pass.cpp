// Culling and the LOD pick over chunks of agents, then the LOD buckets of the counting sort.
#include "render/passes/cull_lod_pass.h"

#include <algorithm>
#include <atomic>

#include <fmt/core.h>

#include "render/passes/pass_support.h"
#include "throng/crowd/lod_select.h"
#include "throng/crowd/lod_sort.h"

namespace throng::render {
namespace {

// The counting sort's layout: agents per LOD, each LOD's first slot, and each chunk's first slot
// per LOD after the earlier chunks' (agents end up by LOD, then by index: a stable sort).
void layOutBuckets(size_t chunks, size_t lod_count, AgentLists& lists) {
  std::fill(lists.lod_counts.begin(), lists.lod_counts.end(), 0u);
  for (size_t c = 0; c < chunks; ++c) {
    for (size_t l = 0; l < lod_count; ++l)
      lists.lod_counts[l] += lists.chunk_cursors[c * lod_count + l];
  }
  lodOffsets(lists.lod_counts, lists.lod_first);
  lists.visible = 0;
  uint32_t next[kMaxDrawnLods];
  for (size_t l = 0; l < lod_count; ++l) {
    lists.visible += lists.lod_counts[l];
    next[l] = lists.lod_first[l];
  }
  for (size_t c = 0; c < chunks; ++c) {
    for (size_t l = 0; l < lod_count; ++l) {
      const uint32_t count = lists.chunk_cursors[c * lod_count + l];
      lists.chunk_cursors[c * lod_count + l] = next[l];
      next[l] += count;
    }
  }
}

}  // namespace

void AgentLists::reset(size_t lod_count) {
  lod_counts.assign(lod_count, 0);
  lod_first.assign(lod_count, 0);
  visible = 0;
}

Status cullAndPickLods(const CullLodInput& in, const FrameView& view,
                       std::span<const Placement> placements,
                       std::span<const AgentPlayback> playback, JobSystem* jobs, AgentLists& lists,
                       CpuPhaseTimes& ms) {
  const size_t n = placements.size();
  growTo(lists.lod, n);
  growTo(lists.order, n);
  // Fixed chunks of agents (JobSystem): each chunk's passes write only the chunk's agents'
  // entries (and, in the playback pass, the slots the chunk's cursors hand out), and the steps
  // across chunks (counts, cursors) run in chunk order, so the output is the same whatever the
  // thread count.
  const size_t chunk = jobs ? jobs->chunkFor(n, kMinAgentsPerChunk) : std::max<size_t>(n, 1);
  const size_t chunks = (n + chunk - 1) / chunk;
  const size_t lod_count = in.lods.size();
  lists.chunk = chunk;
  growTo(lists.chunk_cursors, chunks * lod_count);
  std::fill_n(lists.chunk_cursors.begin(), chunks * lod_count, 0u);

  // lists.lod[a] = the LOD agent a is drawn with, or kCulled.
  PassClock::time_point start = PassClock::now();
  const FrustumLanes frustum = frustumLanes(frustumFromViewProjection(view.view_projection));
  LodView lod_view = lodViewOf(view, in.frame_height, in.lod_threshold_pixels);
  lod_view.reach = in.reach;
  const LodRule rule(in.lods, lod_view);
  const size_t clip_count = in.clip_spheres.size();
  std::atomic<bool> bad_clip = false;
  forChunks(jobs, n, chunk, [&](size_t begin, size_t end) {
    // Counted on the stack, stored once: chunks' counts share cache lines.
    uint32_t counts[kMaxDrawnLods];
    std::fill_n(counts, lod_count, 0u);
    bool bad = false;
    for (size_t a = begin; a < end; ++a) {
      const AgentPlayback& p = playback[a];
      if (p.clip >= clip_count || p.previous_clip >= clip_count) {
        bad = true;
        lists.lod[a] = kCulled;
        continue;
      }
      AxisSphere local = in.clip_spheres[p.clip];
      if (p.fade > 0.0f) local = mergeAxisSpheres(local, in.clip_spheres[p.previous_clip]);
      const Placement& placement = placements[a];
      if (!axisSphereInFrustum(frustum, local, placement)) {
        lists.lod[a] = kCulled;
        continue;
      }
      int l = in.fixed_lod >= 0 ? in.fixed_lod : rule.pick(placement);
      if (!in.drawn_lod.empty()) l = in.drawn_lod[l];
      lists.lod[a] = static_cast<uint8_t>(l);
      ++counts[l];
    }
    std::copy_n(counts, lod_count, lists.chunk_cursors.data() + (begin / chunk) * lod_count);
    if (bad) bad_clip = true;
  });
  if (bad_clip) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("crowd renderer: an agent plays a clip the package lacks (it has {} "
                              "clips)",
                              clip_count));
  }
  ms.cull = millisecondsSince(start);
  start = PassClock::now();
  layOutBuckets(chunks, lod_count, lists);
  ms.lod = millisecondsSince(start);
  return Status::okStatus();
}

}  // namespace throng::render
