// Frustum culling of agents: each agent's clip bounds, placed in the world, against the camera.
#pragma once

#include <cmath>
#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
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

// True when the agent at `placement` whose clip has the axis sphere `local` may be visible.
inline bool axisSphereInFrustum(const Frustum& frustum, const AxisSphere& local,
                                const Placement& placement) {
  const glm::vec3 center(placement.position.x, placement.position.y + placement.scale * local.y,
                         placement.position.z);
  const float radius = std::abs(placement.scale) * local.radius;
  for (const glm::vec4& plane : frustum.planes) {
    if (plane.x * center.x + plane.y * center.y + plane.z * center.z + plane.w < -radius)
      return false;
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
