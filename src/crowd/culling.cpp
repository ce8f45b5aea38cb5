// Frustum culling of agents by the bounding spheres of their clips' bounds.
#include "throng/crowd/culling.h"

#include <cmath>

namespace throng {
namespace {

struct Sphere {
  glm::vec3 center;
  float radius;
};

Sphere boundingSphere(const Bounds& b) {
  const glm::vec4 s = clipBoundsSphere(b);
  return {glm::vec3(s), s.w};
}

// The sphere around both spheres.
Sphere merge(const Sphere& a, const Sphere& b) {
  const float d = glm::length(b.center - a.center);
  if (d + b.radius <= a.radius) return a;
  if (d + a.radius <= b.radius) return b;
  const float radius = 0.5f * (d + a.radius + b.radius);
  const glm::vec3 center = a.center + (b.center - a.center) * ((radius - a.radius) / d);
  return {center, radius};
}

}  // namespace

glm::vec4 clipBoundsSphere(const Bounds& b) {
  return glm::vec4(0.5f * (b.min + b.max), 0.5f * glm::length(b.size()));
}

Frustum frustumFromViewProjection(const glm::mat4& m) {
  // Rows of the matrix (glm is column-major: m[column][row]).
  glm::vec4 row[4];
  for (int r = 0; r < 4; ++r) row[r] = glm::vec4(m[0][r], m[1][r], m[2][r], m[3][r]);
  Frustum f;
  f.planes[0] = row[3] + row[0];
  f.planes[1] = row[3] - row[0];
  f.planes[2] = row[3] + row[1];
  f.planes[3] = row[3] - row[1];
  f.planes[4] = row[3] + row[2];
  f.planes[5] = row[3] - row[2];
  for (glm::vec4& p : f.planes) {
    const float length = glm::length(glm::vec3(p));
    if (length > 0.0f) p /= length;
  }
  return f;
}

bool CullJob::validate() const {
  if (placements.size() != playback.size() || visible.size() < placements.size() ||
      visible_count == nullptr) {
    return false;
  }
  for (const AgentPlayback& p : playback) {
    if (p.clip >= clips.size() || p.previous_clip >= clips.size()) return false;
  }
  return true;
}

bool CullJob::run() const {
  if (!validate()) return false;
  uint32_t count = 0;
  for (size_t a = 0; a < placements.size(); ++a) {
    const AgentPlayback& p = playback[a];
    Sphere local = boundingSphere(clips[p.clip].bounds);
    if (p.fade > 0.0f) local = merge(local, boundingSphere(clips[p.previous_clip].bounds));
    const Placement& pl = placements[a];
    const float c = std::cos(pl.heading), s = std::sin(pl.heading);
    // placementMatrix: translate * rotate about +Y * scale.
    const glm::vec3 turned(c * local.center.x + s * local.center.z, local.center.y,
                           -s * local.center.x + c * local.center.z);
    const glm::vec3 center = pl.position + pl.scale * turned;
    const float radius = std::abs(pl.scale) * local.radius;
    bool inside = true;
    for (const glm::vec4& plane : frustum.planes) {
      if (glm::dot(glm::vec3(plane), center) + plane.w < -radius) {
        inside = false;
        break;
      }
    }
    if (inside) visible[count++] = first_agent + static_cast<uint32_t>(a);
  }
  *visible_count = count;
  return true;
}

}  // namespace throng
