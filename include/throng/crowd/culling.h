// Frustum culling of agents: each agent's clip bounds, placed in the world, against the camera.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
#include "throng/core/simd.h"
#include "throng/crowd/playback.h"

namespace throng {

// Six planes (x, y, z, w) with inside meaning dot(xyz, p) + w >= 0; left, right, bottom, top,
// near, far. Normalised, so plane distances are in world units.
struct Frustum {
  glm::vec4 planes[6];
};

// Planes of a world -> clip matrix (Gribb & Hartmann, "Fast extraction of viewing frustum planes
// from the world-view-projection matrix", 2001), for OpenGL's clip volume -w <= x, y, z <= w.
Frustum frustumFromViewProjection(const glm::mat4& view_projection);

// A clip's culling sphere, centred on the character's vertical axis (character space: centre (0,
// y, 0)) and large enough for its baked bounds turned to any heading, so that culling an agent
// needs no sine or cosine of its heading. The GPU-driven path uploads the same spheres.
struct AxisSphere {
  float y = 0.0f;
  float radius = 0.0f;
};
AxisSphere clipAxisSphere(const Bounds& bounds);
// The axis sphere around both (a cross-fade shows two clips).
AxisSphere mergeAxisSpheres(const AxisSphere& a, const AxisSphere& b);

// The frustum's planes as lanes (planes 0-3, then 4, 5 and 5 again twice) for testing one sphere
// against all six in a few vector operations.
struct FrustumLanes {
  simd::F4 x[2], y[2], z[2], w[2];
};
FrustumLanes frustumLanes(const Frustum& frustum);

// True when the agent at `placement` whose clip has the axis sphere `local` may be visible:
// its sphere is not wholly outside any plane (the same float operations per plane as a scalar
// dot product, so the same answer). Allocates nothing.
inline bool axisSphereInFrustum(const FrustumLanes& frustum, const AxisSphere& local,
                                const Placement& placement) {
  using namespace simd;
  const F4 x = splat(placement.position.x);
  const F4 y = splat(placement.position.y + placement.scale * local.y);
  const F4 z = splat(placement.position.z);
  const F4 outside = splat(-std::abs(placement.scale) * local.radius);
  for (int g = 0; g < 2; ++g) {
    const F4 d = frustum.x[g] * x + frustum.y[g] * y + frustum.z[g] * z + frustum.w[g];
    if (laneBits(greater(outside, d)) != 0) return false;
  }
  return true;
}

// Writes the indices of the agents that may be visible to `visible` (in agent order) and their
// count to `*visible_count`. An agent is tested as its clip's axis sphere (and the fading clip's
// merged in while a cross-fade runs), placed by its Placement: conservative, never culls a
// visible agent. Sizes: placements == playback <= visible; clip indices < clips.size().
// Allocates nothing. A chunk of a crowd (placements and playback of agents [first, first + n))
// runs alone with first_agent = first: the indices it writes are the crowd's.
struct CullJob {
  std::span<const BakedClip> clips;
  std::span<const Placement> placements;
  std::span<const AgentPlayback> playback;
  Frustum frustum;
  std::span<uint32_t> visible;
  uint32_t* visible_count = nullptr;
  uint32_t first_agent = 0;  // added to every index written

  bool validate() const;
  bool run() const;
};

}  // namespace throng
