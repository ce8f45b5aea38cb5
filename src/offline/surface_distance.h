// Points on triangle surfaces and how far apart two surfaces are: the correspondences a LOD's
// error is measured through, and the bind-pose geometric error of a simplified mesh.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include <glm/glm.hpp>

namespace throng {

// A point of a triangle list: triangle `triangle` (index of its first index / 3) and the
// barycentric weights of its three corners.
struct SurfacePoint {
  uint32_t triangle = 0;
  glm::vec3 barycentric{1.0f, 0.0f, 0.0f};
};

// Where `point` lies for these positions (which may be posed: the weights carry over).
inline glm::vec3 surfacePosition(const SurfacePoint& point, std::span<const glm::vec3> positions,
                                 std::span<const uint32_t> indices) {
  const size_t t = 3 * static_cast<size_t>(point.triangle);
  return point.barycentric.x * positions[indices[t]] +
         point.barycentric.y * positions[indices[t + 1]] +
         point.barycentric.z * positions[indices[t + 2]];
}

// Samples of a surface: every vertex a triangle uses (once), and each triangle's edge midpoints
// and centroid. Indices must be a triangle list.
std::vector<SurfacePoint> sampleSurface(std::span<const uint32_t> indices, size_t vertex_count);

// Which triangles a point may be matched to: those facing its way (geometric normal within 90
// degrees of `normals[i]`), so a point on one side of a thin gap is never matched to the surface
// across it, and of its part (`point_parts[i] == triangle_parts[t]`), so a point of one piece of
// a mesh made of pieces is never matched to another piece passing close by. Empty spans: no
// such condition. A point no triangle satisfies takes the nearest of all.
struct SurfaceMatch {
  std::span<const glm::vec3> normals;        // one per point
  std::span<const uint32_t> point_parts;     // one per point
  std::span<const uint32_t> triangle_parts;  // one per triangle
};

// For each of `points`, the nearest point of the surface (positions, indices) that `match`
// allows, exact per triangle and found through a uniform grid of the triangles. Requires at
// least one triangle.
std::vector<SurfacePoint> closestSurfacePoints(std::span<const glm::vec3> points,
                                               std::span<const glm::vec3> positions,
                                               std::span<const uint32_t> indices,
                                               const SurfaceMatch& match = {});

// The connected pieces of a triangle list, vertices joined by shared position: the part of each
// vertex (vertices of no triangle get a part of their own), numbered from 0.
std::vector<uint32_t> surfaceParts(std::span<const glm::vec3> positions,
                                   std::span<const uint32_t> indices);

// The symmetric Hausdorff distance between surfaces A and B estimated on sampleSurface's points
// of each: the largest distance from a sample of either to the other surface. Model units; 0
// when either has no triangle.
float surfaceDistance(std::span<const glm::vec3> a_positions, std::span<const uint32_t> a_indices,
                      std::span<const glm::vec3> b_positions, std::span<const uint32_t> b_indices);

// The distance from `point` to the nearest triangle, by brute force (tests, small meshes).
// Infinity when there is no triangle.
float pointSurfaceDistance(const glm::vec3& point, std::span<const glm::vec3> positions,
                           std::span<const uint32_t> indices);

}  // namespace throng
