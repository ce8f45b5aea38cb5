// Picking: ray against each agent's bounds box in its model space (slab test), and projection of
// each box's centre for rectangles.
#include "throng/crowd/picking.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace throng {
namespace {

// World -> model space of an agent: the inverse of placementMatrix (translate * rotate about +Y
// by heading * uniform scale), applied to a point (w = 1) or a direction (w = 0).
glm::vec3 toModel(const Placement& p, const glm::vec3& v, bool point) {
  const glm::vec3 d = point ? v - p.position : v;
  const float c = std::cos(p.heading), s = std::sin(p.heading);
  // Rotation by -heading about +Y.
  const glm::vec3 turned(c * d.x - s * d.z, d.y, s * d.x + c * d.z);
  return turned / p.scale;
}

glm::vec3 toWorld(const Placement& p, const glm::vec3& m) {
  const float c = std::cos(p.heading), s = std::sin(p.heading);
  const glm::vec3 turned(c * m.x + s * m.z, m.y, -s * m.x + c * m.z);
  return p.position + p.scale * turned;
}

// Entry parameter of the ray into the box (slab test, Kay & Kajiya 1986), or < 0 when it misses.
float rayBox(const glm::vec3& origin, const glm::vec3& direction, const Bounds& box) {
  float near_t = 0.0f;
  float far_t = std::numeric_limits<float>::max();
  for (int axis = 0; axis < 3; ++axis) {
    if (std::abs(direction[axis]) < 1e-12f) {
      if (origin[axis] < box.min[axis] || origin[axis] > box.max[axis]) return -1.0f;
      continue;
    }
    const float inverse = 1.0f / direction[axis];
    float t0 = (box.min[axis] - origin[axis]) * inverse;
    float t1 = (box.max[axis] - origin[axis]) * inverse;
    if (t0 > t1) std::swap(t0, t1);
    near_t = std::max(near_t, t0);
    far_t = std::min(far_t, t1);
    if (near_t > far_t) return -1.0f;
  }
  return near_t;
}

}  // namespace

int64_t pickAgent(std::span<const BakedClip> clips, std::span<const Placement> placements,
                  std::span<const AgentPlayback> playback, const Ray& ray, float* distance) {
  int64_t best = -1;
  float best_t = std::numeric_limits<float>::max();
  const size_t n = std::min(placements.size(), playback.size());
  for (size_t a = 0; a < n; ++a) {
    const Placement& p = placements[a];
    if (playback[a].clip >= clips.size() || !(std::abs(p.scale) > 0.0f)) continue;
    // t is the same in both spaces: the map is affine and the direction is mapped with it.
    const float t = rayBox(toModel(p, ray.origin, true), toModel(p, ray.direction, false),
                           clips[playback[a].clip].bounds);
    if (t >= 0.0f && t < best_t) {
      best_t = t;
      best = static_cast<int64_t>(a);
    }
  }
  if (distance && best >= 0) *distance = best_t;
  return best;
}

void agentsInRectangle(std::span<const BakedClip> clips, std::span<const Placement> placements,
                       std::span<const AgentPlayback> playback, const glm::mat4& view_projection,
                       const glm::vec2& ndc_a, const glm::vec2& ndc_b, std::vector<uint32_t>& out) {
  const glm::vec2 low = glm::min(ndc_a, ndc_b);
  const glm::vec2 high = glm::max(ndc_a, ndc_b);
  const size_t n = std::min(placements.size(), playback.size());
  for (size_t a = 0; a < n; ++a) {
    if (playback[a].clip >= clips.size()) continue;
    const Bounds& box = clips[playback[a].clip].bounds;
    const glm::vec3 center = toWorld(placements[a], 0.5f * (box.min + box.max));
    const glm::vec4 clip = view_projection * glm::vec4(center, 1.0f);
    if (!(clip.w > 0.0f)) continue;  // behind the camera
    const glm::vec2 ndc = glm::vec2(clip) / clip.w;
    if (ndc.x >= low.x && ndc.x <= high.x && ndc.y >= low.y && ndc.y <= high.y) {
      out.push_back(static_cast<uint32_t>(a));
    }
  }
}

}  // namespace throng
