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

FrustumLanes frustumLanes(const Frustum& f) {
  constexpr int kPlane[8] = {0, 1, 2, 3, 4, 5, 5, 5};
  FrustumLanes lanes;
  for (int g = 0; g < 2; ++g) {
    const glm::vec4* p[4];
    for (int l = 0; l < 4; ++l) p[l] = &f.planes[kPlane[4 * g + l]];
    lanes.x[g] = simd::set(p[0]->x, p[1]->x, p[2]->x, p[3]->x);
    lanes.y[g] = simd::set(p[0]->y, p[1]->y, p[2]->y, p[3]->y);
    lanes.z[g] = simd::set(p[0]->z, p[1]->z, p[2]->z, p[3]->z);
    lanes.w[g] = simd::set(p[0]->w, p[1]->w, p[2]->w, p[3]->w);
  }
  return lanes;
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
  const FrustumLanes lanes = frustumLanes(frustum);
  uint32_t count = 0;
  for (size_t a = 0; a < placements.size(); ++a) {
    const AgentPlayback& p = playback[a];
    AxisSphere local = clipAxisSphere(clips[p.clip].bounds);
    if (p.fade > 0.0f)
      local = mergeAxisSpheres(local, clipAxisSphere(clips[p.previous_clip].bounds));
    if (axisSphereInFrustum(lanes, local, placements[a]))
      visible[count++] = first_agent + static_cast<uint32_t>(a);
  }
  *visible_count = count;
  return true;
}

}  // namespace throng
