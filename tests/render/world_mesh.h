// A LOD's mesh as one agent shows it, skinned into the world on the CPU, and rays cast through
// such meshes: which surface a pixel shows and its vertex values there, for render tests that
// check chosen pixels against a reference of their own (none of the library's shaders involved).
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/math.h"
#include "throng/core/mesh.h"

namespace throng::test {

struct WorldMesh {
  const SkinnedMesh* mesh = nullptr;  // its indices and unskinned vertex streams
  std::vector<glm::dvec3> positions;  // world
  std::vector<glm::dvec3> normals;    // world, unit per vertex
  std::vector<glm::dvec4> tangents;   // world xyz (unit), handedness w; empty without tangents
};

// Linear blend skinning of `mesh` by `palette` (world-space JointRows per palette slot, e.g.
// referencePalette): p' = sum_i w_i M_i (p, 1); normals and tangents by the matrices' linear
// parts, normalised per vertex. `displace` (optional) then moves each world position, as a
// user's vertex hook does.
WorldMesh skinToWorld(const SkinnedMesh& mesh, std::span<const JointRows> palette,
                      const std::function<glm::dvec3(const glm::dvec3&)>& displace = {});

// Where a ray meets a mesh: the triangle (its first index in mesh->indices), the barycentric
// weights of its three corners and the world point.
struct SurfaceHit {
  size_t mesh = 0;  // index into the meshes cast against
  uint32_t triangle = 0;
  glm::dvec3 weights{0.0};
  glm::dvec3 point{0.0};
  double distance = 0.0;  // along the ray's unit direction

  // The vertex stream `values` (one per vertex of the hit mesh) interpolated at the hit.
  template <class T>
  T at(const WorldMesh& m, const std::vector<T>& values) const {
    const std::vector<uint32_t>& idx = m.mesh->indices;
    return values[idx[triangle]] * weights.x + values[idx[triangle + 1]] * weights.y +
           values[idx[triangle + 2]] * weights.z;
  }
  // The three corners' vertex indices.
  glm::uvec3 corners(const WorldMesh& m) const {
    const std::vector<uint32_t>& idx = m.mesh->indices;
    return {idx[triangle], idx[triangle + 1], idx[triangle + 2]};
  }
};

// The nearest hit of the ray origin + t direction (t > 0) among `meshes`' triangles. With
// `front_only`, only triangles wound counter-clockwise as seen from the origin count (GL's front
// faces: what a renderer that culls back faces shows).
std::optional<SurfaceHit> castRay(std::span<const WorldMesh> meshes, const glm::dvec3& origin,
                                  const glm::dvec3& direction, bool front_only);

struct PixelRay {
  glm::dvec3 origin{0.0};     // on the near plane
  glm::dvec3 direction{0.0};  // unit, towards the far plane
};
// The ray through the centre of pixel (x, y) (rows top first, as render::Image) of a
// width x height frame seen through `view_projection` (GL clip conventions).
PixelRay pixelRay(const glm::mat4& view_projection, int x, int y, int width, int height);

}  // namespace throng::test
