// Frustum culling of agents by axis spheres around their clips' bounds.
#include "throng/crowd/culling.h"

#include <cmath>

namespace throng {

AxisSphere clipAxisSphere(const Bounds& b) {
  // The bounds' centre turns on a circle of radius |centre.xz| about the axis.
  const glm::vec3 center = 0.5f * (b.min + b.max);
  const float horizontal = std::sqrt(center.x * center.x + center.z * center.z);
  return {center.y, horizontal + 0.5f * glm::length(b.size())};
}

AxisSphere mergeAxisSpheres(const AxisSphere& a, const AxisSphere& b) {
  const float d = std::abs(b.y - a.y);
  if (d + b.radius <= a.radius) return a;
  if (d + a.radius <= b.radius) return b;
  const float radius = 0.5f * (d + a.radius + b.radius);
  const float y = a.y + (b.y > a.y ? 1.0f : -1.0f) * (radius - a.radius);
  return {y, radius};
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
    AxisSphere local = clipAxisSphere(clips[p.clip].bounds);
    if (p.fade > 0.0f)
      local = mergeAxisSpheres(local, clipAxisSphere(clips[p.previous_clip].bounds));
    if (axisSphereInFrustum(frustum, local, placements[a]))
      visible[count++] = first_agent + static_cast<uint32_t>(a);
  }
  *visible_count = count;
  return true;
}

}  // namespace throng
