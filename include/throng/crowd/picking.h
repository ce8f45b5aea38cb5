// Picking agents: the one a ray hits (a click), and the ones inside a screen rectangle (a drag).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/animation_texture.h"
#include "throng/crowd/playback.h"

namespace throng {

// A half-line: origin + t * direction for t >= 0 (direction need not be unit length).
struct Ray {
  glm::vec3 origin{0.0f};
  glm::vec3 direction{0.0f, 0.0f, -1.0f};
};

// The nearest agent whose placed clip bounds (its current clip's bounds box, turned and scaled
// by its Placement, the box CullJob's sphere encloses) `ray` meets; -1 when none does. When
// `distance` is given it receives the ray parameter t of the hit. Sizes: placements ==
// playback; clip indices < clips.size() (agents with others are skipped). O(agents); allocates
// nothing.
int64_t pickAgent(std::span<const BakedClip> clips, std::span<const Placement> placements,
                  std::span<const AgentPlayback> playback, const Ray& ray,
                  float* distance = nullptr);

// Appends to `out`, in agent order, the agents whose placed clip bounds centre lies in front of
// the camera of `view_projection` (world -> clip) and projects inside the rectangle between
// `ndc_a` and `ndc_b` (normalised device coordinates, -1..1, either corner first). Same sizes as
// pickAgent. O(agents).
void agentsInRectangle(std::span<const BakedClip> clips, std::span<const Placement> placements,
                       std::span<const AgentPlayback> playback, const glm::mat4& view_projection,
                       const glm::vec2& ndc_a, const glm::vec2& ndc_b, std::vector<uint32_t>& out);

}  // namespace throng
