// CPU skinning into the world and ray casts against the skinned triangles (Moller-Trumbore).
#include "render/world_mesh.h"

#include <cmath>
#include <limits>

namespace throng::test {

WorldMesh skinToWorld(const SkinnedMesh& mesh, std::span<const JointRows> palette,
                      const std::function<glm::dvec3(const glm::dvec3&)>& displace) {
  WorldMesh out;
  out.mesh = &mesh;
  const size_t n = mesh.vertexCount();
  out.positions.resize(n);
  out.normals.resize(n);
  if (!mesh.tangents.empty()) out.tangents.resize(n);
  for (size_t v = 0; v < n; ++v) {
    glm::dmat4 blended(0.0);
    for (int i = 0; i < kMaxInfluences; ++i) {
      const double w = mesh.weights[v][i];
      if (w == 0.0) continue;
      blended += w * glm::dmat4(unpackRows(palette[mesh.joints[v][i]]));
    }
    const glm::dmat3 linear(blended);
    glm::dvec3 p = glm::dvec3(blended * glm::dvec4(glm::dvec3(mesh.positions[v]), 1.0));
    if (displace) p = displace(p);
    out.positions[v] = p;
    out.normals[v] = glm::normalize(linear * glm::dvec3(mesh.normals[v]));
    if (!mesh.tangents.empty()) {
      const glm::dvec4 t(mesh.tangents[v]);
      out.tangents[v] = glm::dvec4(glm::normalize(linear * glm::dvec3(t)), t.w);
    }
  }
  return out;
}

std::optional<SurfaceHit> castRay(std::span<const WorldMesh> meshes, const glm::dvec3& origin,
                                  const glm::dvec3& direction, bool front_only) {
  const glm::dvec3 d = glm::normalize(direction);
  std::optional<SurfaceHit> best;
  for (size_t m = 0; m < meshes.size(); ++m) {
    const WorldMesh& wm = meshes[m];
    const std::vector<uint32_t>& idx = wm.mesh->indices;
    for (uint32_t t = 0; t + 2 < idx.size(); t += 3) {
      const glm::dvec3 p0 = wm.positions[idx[t]], p1 = wm.positions[idx[t + 1]],
                       p2 = wm.positions[idx[t + 2]];
      const glm::dvec3 e1 = p1 - p0, e2 = p2 - p0;
      // Counter-clockwise as seen from the origin: the winding's normal faces the ray.
      if (front_only && glm::dot(glm::cross(e1, e2), d) >= 0.0) continue;
      const glm::dvec3 q = glm::cross(d, e2);
      const double det = glm::dot(e1, q);
      if (std::abs(det) < 1e-14) continue;
      const glm::dvec3 s = origin - p0;
      const double u = glm::dot(s, q) / det;
      if (u < 0.0 || u > 1.0) continue;
      const glm::dvec3 r = glm::cross(s, e1);
      const double v = glm::dot(d, r) / det;
      if (v < 0.0 || u + v > 1.0) continue;
      const double dist = glm::dot(e2, r) / det;
      if (dist <= 0.0 || (best && dist >= best->distance)) continue;
      best = SurfaceHit{m, t, glm::dvec3(1.0 - u - v, u, v), origin + dist * d, dist};
    }
  }
  return best;
}

PixelRay pixelRay(const glm::mat4& view_projection, int x, int y, int width, int height) {
  const glm::dmat4 inverse = glm::inverse(glm::dmat4(view_projection));
  const double nx = 2.0 * (x + 0.5) / width - 1.0;
  const double ny = 1.0 - 2.0 * (y + 0.5) / height;
  glm::dvec4 near_point = inverse * glm::dvec4(nx, ny, -1.0, 1.0);
  glm::dvec4 far_point = inverse * glm::dvec4(nx, ny, 1.0, 1.0);
  near_point /= near_point.w;
  far_point /= far_point.w;
  return {glm::dvec3(near_point), glm::normalize(glm::dvec3(far_point - near_point))};
}

}  // namespace throng::test
