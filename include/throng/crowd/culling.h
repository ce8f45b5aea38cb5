// Frustum culling of agents: each agent's clip bounds, placed in the world, against the camera.
#pragma once

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

// The sphere CullJob tests for a clip (centre xyz in character space, radius w): the one around
// its baked bounds. The GPU-driven path uploads the same spheres.
glm::vec4 clipBoundsSphere(const Bounds& bounds);

// Writes the indices of the agents that may be visible to `visible` (in agent order) and their
// count to `*visible_count`. An agent is tested as the bounding sphere of its clip's bounds (and
// of the fading clip's while a cross-fade runs), placed by its Placement: conservative, never
// culls a visible agent. Sizes: placements == playback <= visible; clip indices < clips.size().
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
