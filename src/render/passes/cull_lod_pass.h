// The frame's first pass on the CPU-fed paths: frustum culling with the clips' bounds and the LOD
// pick, per agent, then the counting sort's layout of the visible agents by LOD.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "throng/core/job_system.h"
#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/crowd/culling.h"
#include "throng/crowd/playback.h"
#include "throng/render/crowd_renderer.h"
#include "throng/render/frame_view.h"

namespace throng::render {

// AgentLists::lod's mark of an agent outside the view: one byte holds an agent's LOD or this, so
// a crowd's renderer draws at most kMaxDrawnLods LODs.
inline constexpr uint8_t kCulled = 255;
inline constexpr size_t kMaxDrawnLods = kCulled;

// One frame's visible agents by LOD: written by the cull + LOD pass (lod, the counts and the
// layout) and the playback pass (order). Scratch that grows with the crowd and is reused.
struct AgentLists {
  std::vector<uint8_t> lod;          // by agent: the LOD it is drawn with, or kCulled
  std::vector<uint32_t> order;       // draw order: visible agents by LOD, by index within one
  std::vector<uint32_t> lod_counts;  // per LOD: visible agents
  std::vector<uint32_t> lod_first;   // per LOD: its first slot in `order`
  // Fixed chunks of agents (JobSystem): per chunk and LOD its count, then its first slot.
  std::vector<uint32_t> chunk_cursors;
  size_t chunk = 1;  // agents per chunk
  uint32_t visible = 0;

  // Sized for `lod_count` LODs, nothing visible.
  void reset(size_t lod_count);
  std::span<const uint32_t> visibleOrder() const { return {order.data(), visible}; }
};

// What the pass reads of the character and of the frame's settings.
struct CullLodInput {
  std::span<const AxisSphere> clip_spheres;  // per clip (clipAxisSphere)
  std::span<const MeshLod> lods;             // the LOD rule's limits
  std::span<const uint8_t> drawn_lod;        // LOD picked -> LOD drawn; empty: itself
  float reach = 0.0f;                        // LodView::reach
  int fixed_lod = -1;                        // >= 0: every visible agent with this LOD
  float lod_threshold_pixels = 1.0f;
  int frame_height = 0;  // pixels, when the view does not say (lodViewOf)
};

// Culls `placements`' agents (playing `playback`) against `view`'s frustum (any view: the
// camera's or a light's), picks each visible one's LOD without a sine, cosine, square root or
// division per agent, and lays out the counting sort: lists.lod, lod_counts, lod_first, visible,
// and each chunk's first slot per LOD, the same whatever `jobs`' thread count. The spans are of
// equal length. Times itself into ms.cull (culling and pick) and ms.lod (the layout).
// kInvalidArgument when an agent plays a clip the package lacks. Allocates only when the crowd
// outgrows every frame before.
Status cullAndPickLods(const CullLodInput& in, const FrameView& view,
                       std::span<const Placement> placements,
                       std::span<const AgentPlayback> playback, JobSystem* jobs, AgentLists& lists,
                       CpuPhaseTimes& ms);

}  // namespace throng::render
