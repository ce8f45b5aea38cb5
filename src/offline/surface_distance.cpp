// Nearest points on triangle surfaces through a uniform grid of triangles (point-triangle
// distance after Ericson, Real-Time Collision Detection, 5.1.5), and the sampled Hausdorff
// distance built on them.
#include "offline/surface_distance.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>
#include <unordered_map>
#include <vector>

namespace throng {
namespace {

// Grid cells per axis at most: enough for meshes of a few hundred thousand triangles.
constexpr int kMaxGridCells = 64;

// Barycentric weights of the point of triangle (a, b, c) nearest to p.
glm::vec3 closestBarycentric(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b,
                             const glm::vec3& c) {
  const glm::vec3 ab = b - a, ac = c - a, ap = p - a;
  const float d1 = glm::dot(ab, ap), d2 = glm::dot(ac, ap);
  if (d1 <= 0.0f && d2 <= 0.0f) return {1.0f, 0.0f, 0.0f};
  const glm::vec3 bp = p - b;
  const float d3 = glm::dot(ab, bp), d4 = glm::dot(ac, bp);
  if (d3 >= 0.0f && d4 <= d3) return {0.0f, 1.0f, 0.0f};
  const float vc = d1 * d4 - d3 * d2;
  if (vc <= 0.0f && d1 >= 0.0f && d3 <= 0.0f) {
    const float v = d1 / (d1 - d3);
    return {1.0f - v, v, 0.0f};
  }
  const glm::vec3 cp = p - c;
  const float d5 = glm::dot(ab, cp), d6 = glm::dot(ac, cp);
  if (d6 >= 0.0f && d5 <= d6) return {0.0f, 0.0f, 1.0f};
  const float vb = d5 * d2 - d1 * d6;
  if (vb <= 0.0f && d2 >= 0.0f && d6 <= 0.0f) {
    const float w = d2 / (d2 - d6);
    return {1.0f - w, 0.0f, w};
  }
  const float va = d3 * d6 - d5 * d4;
  if (va <= 0.0f && (d4 - d3) >= 0.0f && (d5 - d6) >= 0.0f) {
    const float w = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    return {0.0f, 1.0f - w, w};
  }
  const float denom = 1.0f / (va + vb + vc);
  const float v = vb * denom, w = vc * denom;
  return {1.0f - v - w, v, w};
}

float pointTriangleDistance(const glm::vec3& p, const glm::vec3& a, const glm::vec3& b,
                            const glm::vec3& c) {
  const glm::vec3 w = closestBarycentric(p, a, b, c);
  return glm::distance(p, w.x * a + w.y * b + w.z * c);
}

// Triangles bucketed by the cells their bounds overlap.
class TriangleGrid {
 public:
  static constexpr uint32_t kNone = ~0u;  // nearest() found no triangle (all facing away)

  TriangleGrid(std::span<const glm::vec3> positions, std::span<const uint32_t> indices)
      : positions_(positions), indices_(indices), seen_(indices.size() / 3, 0) {
    const size_t triangles = indices.size() / 3;
    lo_ = glm::vec3(std::numeric_limits<float>::max());
    glm::vec3 hi(std::numeric_limits<float>::lowest());
    for (uint32_t i : indices) {
      lo_ = glm::min(lo_, positions[i]);
      hi = glm::max(hi, positions[i]);
    }
    // About two triangles per cell along a surface: cells ~ triangles^(1/2) per axis, capped.
    const int per_axis =
        std::clamp(static_cast<int>(std::sqrt(static_cast<double>(triangles))), 1, kMaxGridCells);
    const glm::vec3 extent = glm::max(hi - lo_, glm::vec3(1e-6f));
    cell_ = glm::max(extent / static_cast<float>(per_axis), glm::vec3(1e-6f));
    for (int a = 0; a < 3; ++a) {
      dims_[a] = std::clamp(static_cast<int>(std::ceil(extent[a] / cell_[a])), 1, kMaxGridCells);
    }
    cells_.resize(static_cast<size_t>(dims_[0]) * dims_[1] * dims_[2]);
    for (size_t t = 0; t < triangles; ++t) {
      const glm::vec3 &a = positions[indices[3 * t]], &b = positions[indices[3 * t + 1]],
                      &c = positions[indices[3 * t + 2]];
      const glm::ivec3 from = cellOf(glm::min(a, glm::min(b, c)));
      const glm::ivec3 to = cellOf(glm::max(a, glm::max(b, c)));
      for (int z = from.z; z <= to.z; ++z) {
        for (int y = from.y; y <= to.y; ++y) {
          for (int x = from.x; x <= to.x; ++x)
            cells_[index(x, y, z)].push_back(static_cast<uint32_t>(t));
        }
      }
    }
  }

  // The nearest point of the surface to `p`: shells of cells around p's cell, until no
  // unvisited cell can hold anything nearer.
  // `facing` and `part` (when given) restrict the triangles, as SurfaceMatch says.
  SurfacePoint nearest(const glm::vec3& p, const glm::vec3* facing = nullptr,
                       const uint32_t* part = nullptr,
                       std::span<const uint32_t> triangle_parts = {}) {
    ++stamp_;
    float best = std::numeric_limits<float>::infinity();
    SurfacePoint found{kNone, glm::vec3(1.0f, 0.0f, 0.0f)};
    const glm::ivec3 centre = cellOf(p);
    const float step = std::min(cell_.x, std::min(cell_.y, cell_.z));
    // How far p lies outside the grid: every cell is at least that far.
    const glm::vec3 hi = lo_ + cell_ * glm::vec3(dims_[0], dims_[1], dims_[2]);
    const float outside = glm::length(glm::max(glm::max(lo_ - p, p - hi), glm::vec3(0.0f)));
    const int max_shell = std::max(dims_[0], std::max(dims_[1], dims_[2]));
    for (int k = 0; k <= max_shell; ++k) {
      for (int z = centre.z - k; z <= centre.z + k; ++z) {
        for (int y = centre.y - k; y <= centre.y + k; ++y) {
          for (int x = centre.x - k; x <= centre.x + k; ++x) {
            const int ring = std::max(std::abs(x - centre.x),
                                      std::max(std::abs(y - centre.y), std::abs(z - centre.z)));
            if (ring != k || x < 0 || y < 0 || z < 0 || x >= dims_[0] || y >= dims_[1] ||
                z >= dims_[2]) {
              continue;
            }
            for (uint32_t t : cells_[index(x, y, z)]) {
              if (seen_[t] == stamp_) continue;
              seen_[t] = stamp_;
              const glm::vec3& a = positions_[indices_[3 * t]];
              const glm::vec3& b = positions_[indices_[3 * t + 1]];
              const glm::vec3& c = positions_[indices_[3 * t + 2]];
              if (facing != nullptr && glm::dot(glm::cross(b - a, c - a), *facing) <= 0.0f) {
                continue;
              }
              if (part != nullptr && triangle_parts[t] != *part) continue;
              const glm::vec3 w = closestBarycentric(p, a, b, c);
              const float d = glm::distance(p, w.x * a + w.y * b + w.z * c);
              if (d < best) {
                best = d;
                found = {t, w};
              }
            }
          }
        }
      }
      // Cells of shell k + 1 lie at least k cells (and `outside`) away from p.
      if (best <= std::max(outside, static_cast<float>(k) * step)) break;
    }
    return found;
  }

 private:
  glm::ivec3 cellOf(const glm::vec3& p) const {
    glm::ivec3 c;
    for (int a = 0; a < 3; ++a) {
      c[a] = std::clamp(static_cast<int>(std::floor((p[a] - lo_[a]) / cell_[a])), 0, dims_[a] - 1);
    }
    return c;
  }
  size_t index(int x, int y, int z) const {
    return (static_cast<size_t>(z) * dims_[1] + y) * dims_[0] + x;
  }

  std::span<const glm::vec3> positions_;
  std::span<const uint32_t> indices_;
  glm::vec3 lo_{0.0f}, cell_{1.0f};
  int dims_[3] = {1, 1, 1};
  std::vector<std::vector<uint32_t>> cells_;
  std::vector<uint32_t> seen_;
  uint32_t stamp_ = 0;
};

// The largest distance from the samples of surface `from` to surface `to`.
float oneSided(std::span<const glm::vec3> from_positions, std::span<const uint32_t> from_indices,
               std::span<const glm::vec3> to_positions, std::span<const uint32_t> to_indices) {
  std::vector<glm::vec3> points;
  for (const SurfacePoint& s : sampleSurface(from_indices, from_positions.size())) {
    points.push_back(surfacePosition(s, from_positions, from_indices));
  }
  const std::vector<SurfacePoint> nearest = closestSurfacePoints(points, to_positions, to_indices);
  float worst = 0.0f;
  for (size_t i = 0; i < points.size(); ++i) {
    worst = std::max(
        worst, glm::distance(points[i], surfacePosition(nearest[i], to_positions, to_indices)));
  }
  return worst;
}

}  // namespace

std::vector<SurfacePoint> sampleSurface(std::span<const uint32_t> indices, size_t vertex_count) {
  std::vector<SurfacePoint> out;
  std::vector<bool> done(vertex_count, false);
  const float third = 1.0f / 3.0f;
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const uint32_t triangle = static_cast<uint32_t>(t / 3);
    for (int corner = 0; corner < 3; ++corner) {
      if (done[indices[t + corner]]) continue;
      done[indices[t + corner]] = true;
      glm::vec3 w(0.0f);
      w[corner] = 1.0f;
      out.push_back({triangle, w});
    }
    out.push_back({triangle, {0.5f, 0.5f, 0.0f}});
    out.push_back({triangle, {0.0f, 0.5f, 0.5f}});
    out.push_back({triangle, {0.5f, 0.0f, 0.5f}});
    out.push_back({triangle, {third, third, third}});
  }
  return out;
}

std::vector<SurfacePoint> closestSurfacePoints(std::span<const glm::vec3> points,
                                               std::span<const glm::vec3> positions,
                                               std::span<const uint32_t> indices,
                                               const SurfaceMatch& match) {
  assert(indices.size() >= 3);
  assert(match.normals.empty() || match.normals.size() == points.size());
  assert(match.point_parts.empty() == match.triangle_parts.empty());
  assert(match.point_parts.empty() || (match.point_parts.size() == points.size() &&
                                       match.triangle_parts.size() == indices.size() / 3));
  TriangleGrid grid(positions, indices);
  std::vector<SurfacePoint> out(points.size());
  for (size_t i = 0; i < points.size(); ++i) {
    const glm::vec3* facing = match.normals.empty() ? nullptr : &match.normals[i];
    const uint32_t* part = match.point_parts.empty() ? nullptr : &match.point_parts[i];
    out[i] = grid.nearest(points[i], facing, part, match.triangle_parts);
    if (out[i].triangle == TriangleGrid::kNone && part != nullptr) {
      out[i] = grid.nearest(points[i], facing);
    }
    if (out[i].triangle == TriangleGrid::kNone) out[i] = grid.nearest(points[i]);
  }
  return out;
}

std::vector<uint32_t> surfaceParts(std::span<const glm::vec3> positions,
                                   std::span<const uint32_t> indices) {
  // Vertices at one position are one vertex here (exact float equality: split copies).
  // Each vertex maps to the first vertex with the same position bytes (no meshoptimizer: the web
  // build has none).
  struct PositionBits {
    uint32_t x, y, z;
    bool operator==(const PositionBits&) const = default;
  };
  struct PositionHash {
    size_t operator()(const PositionBits& p) const {
      return (size_t{p.x} * 73856093u) ^ (size_t{p.y} * 19349663u) ^ (size_t{p.z} * 83492791u);
    }
  };
  std::unordered_map<PositionBits, uint32_t, PositionHash> first_at;
  first_at.reserve(positions.size());
  std::vector<uint32_t> welded(positions.size());
  for (size_t v = 0; v < positions.size(); ++v) {
    PositionBits bits;
    std::memcpy(&bits, &positions[v], sizeof(bits));
    welded[v] = first_at.try_emplace(bits, static_cast<uint32_t>(v)).first->second;
  }
  std::vector<uint32_t> parent(positions.size());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    const uint32_t a = find(welded[indices[t]]);
    for (int c = 1; c < 3; ++c) {
      const uint32_t b = find(welded[indices[t + c]]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  std::vector<uint32_t> part(positions.size()), number(positions.size(), ~0u);
  uint32_t next = 0;
  for (size_t v = 0; v < positions.size(); ++v) {
    const uint32_t root = find(welded[v]);
    if (number[root] == ~0u) number[root] = next++;
    part[v] = number[root];
  }
  return part;
}

float surfaceDistance(std::span<const glm::vec3> a_positions, std::span<const uint32_t> a_indices,
                      std::span<const glm::vec3> b_positions, std::span<const uint32_t> b_indices) {
  if (a_indices.size() < 3 || b_indices.size() < 3) return 0.0f;
  return std::max(oneSided(a_positions, a_indices, b_positions, b_indices),
                  oneSided(b_positions, b_indices, a_positions, a_indices));
}

float pointSurfaceDistance(const glm::vec3& point, std::span<const glm::vec3> positions,
                           std::span<const uint32_t> indices) {
  float best = std::numeric_limits<float>::infinity();
  for (size_t t = 0; t + 2 < indices.size(); t += 3) {
    best =
        std::min(best, pointTriangleDistance(point, positions[indices[t]],
                                             positions[indices[t + 1]], positions[indices[t + 2]]));
  }
  return best;
}

}  // namespace throng
