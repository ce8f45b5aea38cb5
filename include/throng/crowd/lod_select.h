// LOD selection for a crowd: the level of detail of each agent to draw, through the one LOD rule.
#pragma once

#include <cstdint>
#include <span>

#include "throng/core/lod_projection.h"
#include "throng/core/package.h"
#include "throng/crowd/playback.h"

namespace throng {

// LOD indices are stored in one byte per agent, so a package may have at most this many LODs.
inline constexpr size_t kMaxLodLevels = 256;

// What the LOD rule sees of the camera: where it is and how large a model unit appears on screen.
struct LodView {
  glm::vec3 eye{0.0f};           // camera position, world units
  float fov_y = 0.0f;            // vertical field of view, radians (0: not a perspective camera)
  float viewport_height = 0.0f;  // pixels the frame is drawn at
  float threshold_pixels = kDefaultLodThresholdPx;
  // Model units: how far the character reaches from its origin (its bind mesh's farthest vertex,
  // CrowdRenderer sets it from LOD 0). The rule measures to the agent's nearest point, this much
  // nearer than its origin (scaled by Placement::scale); 0 measures to the origin.
  float reach = 0.0f;
};

// LodView::reach of a character whose LOD chain is `lods`: the distance (model units) from its
// origin to the farthest vertex of LOD 0's bind mesh (0 for an empty chain or a LOD 0 without its
// mesh). Every front end measures the LOD rule with it (CrowdRenderer, drawMergedCrowd).
float lodReach(std::span<const MeshLod> lods);

// The LOD of a character standing at `placement`, seen from `view`: the single place every render
// path applies the LOD rule (crowd/lod_pick.h). A perspective view (fov_y, viewport_height and
// threshold_pixels > 0) uses pickLodScreenSpace at the distance to the agent's nearest point
// (view.reach); any other view pickLod at the distance to its origin. Requires a non-empty `lods`.
// Allocates nothing.
int agentLod(std::span<const MeshLod> lods, const LodView& view, const Placement& placement);

// agentLod's rule prepared for one view: pick() compares the agent's squared distance with
// per-LOD limits worked out here once, so a crowd's LOD pick costs no square root, tangent or
// division per agent. Same answers as agentLod up to float rounding at the switch distances
// (agentLod is this class). Requires a non-empty `lods` (at most kMaxLodLevels); allocates nothing.
class LodRule {
 public:
  LodRule(std::span<const MeshLod> lods, const LodView& view);
  int pick(const Placement& placement) const {
    const glm::vec3 d = placement.position - eye_;
    const float distance_sq = d.x * d.x + d.y * d.y + d.z * d.z;
    // modelDistance: a positive scale divides the distance (so it multiplies the limits).
    const float scale = placement.scale > 0.0f ? placement.scale : 1.0f;
    const float scale_sq = scale * scale;
    if (screen_space_) {
      for (int i = count_ - 1; i > 0; --i) {
        if (distance_sq >= scale_sq * limit_sq_[i]) return i;
      }
      return 0;
    }
    for (int i = 0; i < count_; ++i) {
      if (distance_sq <= scale_sq * limit_sq_[i]) return i;
    }
    return count_ - 1;
  }

  // Whether the rule is the screen-space one (a perspective view), and from which squared distance
  // to the agent's origin (model units, at scale 1, reach included) it picks LOD `lod` there (0:
  // always): the impostor's cross-fade band ends at the impostor's (render's impostor_renderer.h).
  bool screenSpace() const { return screen_space_; }
  float pickDistanceSq(int lod) const { return limit_sq_[lod]; }

 private:
  glm::vec3 eye_{0.0f};
  int count_ = 0;
  bool screen_space_ = false;
  // Screen space: LOD i (>= 1) from this squared distance to the origin on (model units, reach
  // included; 0: always). Otherwise LOD i up to this squared distance (infinite: no limit; -1:
  // never).
  float limit_sq_[kMaxLodLevels];  // the first count_ are set
};

// For each agent index agents[i]: lod[i] = agentLod(...) (or fixed_lod when >= 0), remapped
// through drawn_lod when given (a renderer that draws a LOD with another one, see
// MergedLodInfo::drawn_lod), and ++counts[lod[i]]. `counts` is added to, not cleared, so chunks of
// one frame can each count into their own array or share one. Sizes: lod == agents; counts ==
// lods (or more); drawn_lod empty or == lods; agents index placements; lods.size() <=
// kMaxLodLevels; fixed_lod < lods.size(). Allocates nothing; any chunk of agents can run alone.
struct LodSelectJob {
  std::span<const MeshLod> lods;
  LodView view;
  std::span<const Placement> placements;  // every agent of the crowd
  std::span<const uint32_t> agents;       // the agents to pick for (e.g. CullJob's visible ones)
  std::span<const uint8_t> drawn_lod;     // optional: LOD picked -> LOD drawn
  int fixed_lod = -1;                     // >= 0: every agent gets this LOD, the rule is skipped
  std::span<uint8_t> lod;                 // out: one per agents entry
  std::span<uint32_t> counts;             // in/out: agents per LOD

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
