// Vertex tangents with the MikkTSpace rules, written from the method's description.
//
// The rules, as implemented here (Mikkelsen 2008; the glTF 2.0 specification asks for them):
// 1. A vertex, for this purpose, is a position, a normal and a uv: corners of triangles that
//    agree in all three are one vertex whatever their index (other streams do not matter).
//    Uvs are taken as (u, -v): MikkTSpace measures v up the image, glTF down it; flipping keeps
//    the tangent and turns the handedness into glTF's (bitangent = cross(N, T) * w points up the
//    image, where a normal texture's green grows).
// 2. Per triangle, the tangent T and bitangent B solve p1 - p0 = du1 T + dv1 B and
//    p2 - p0 = du2 T + dv2 B (the directions of increasing u and v over the triangle). A
//    triangle whose corners are collinear (no area) is degenerate and takes part in nothing
//    below. One whose uvs have no area, or whose T or B vanish, has no frame of its own: it joins
//    whatever group reaches it and adds nothing to the average.
// 3. The handedness of a triangle is the side of its vertex normals that cross(T, B) lies on
//    (+1 with them, -1 against: a mirrored uv chart). For counter-clockwise triangles, glTF's
//    front faces, that is MikkTSpace's sign of the uv area; measured against the normals it also
//    holds for triangles wound the other way.
// 4. Around each vertex, its corners form groups: corners of triangles that share an edge through
//    the vertex and have the same handedness, grown across such edges. Triangles without a frame
//    take the handedness of the first group that reaches them. So a vertex is split where the
//    handedness changes (a mirror seam) and where its fans share no edge.
// 5. Within a group, each corner's triangle tangent (and bitangent) is projected onto the plane
//    of the vertex normal and normalised. A corner's tangent is the normalised sum of the
//    projected tangents of the group's corners within the split angle of its own (tangents and
//    bitangents both; every corner at the default 180 degrees), each weighted by its triangle's
//    angle at the vertex (measured in the normal's plane). w is the group's handedness.
// 6. A corner with no tangent of its own (degenerate triangle, no frame, nothing to sum) takes
//    that of another corner of the same mesh vertex that has one; a vertex with none at all gets
//    a unit vector orthogonal to its normal, w = +1.
// 7. Corners of one mesh vertex that end up with different tangents get copies of the vertex.
#include "throng/offline/tangents.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numbers>
#include <unordered_map>
#include <vector>

#include <fmt/core.h>

namespace throng {
namespace {

constexpr uint32_t kNone = ~0u;

// What welding compares (rule 1): every byte, with -0 made +0 so it matches 0.
struct TangentWeldKey {
  float values[8] = {};  // position, normal, uv
  bool operator==(const TangentWeldKey& o) const {
    return std::memcmp(values, o.values, sizeof(values)) == 0;
  }
};
struct TangentWeldKeyHash {
  size_t operator()(const TangentWeldKey& k) const {
    uint64_t h = 0xcbf29ce484222325ull;
    const auto* bytes = reinterpret_cast<const unsigned char*>(k.values);
    for (size_t i = 0; i < sizeof(k.values); ++i) h = (h ^ bytes[i]) * 0x100000001b3ull;
    return static_cast<size_t>(h);
  }
};

struct Face {
  glm::vec3 tangent{0.0f};    // unit, or zero without a frame
  glm::vec3 bitangent{0.0f};  // unit, or zero without a frame
  bool degenerate = false;
  bool has_frame = false;
  int handedness = 0;  // +1 / -1; 0: not yet known (no frame, no group reached it)
};

// A unit vector orthogonal to `n` (rule 6).
glm::vec3 anyTangent(glm::vec3 n) {
  const glm::vec3 axis = std::abs(n.x) < 0.9f ? glm::vec3(1.0f, 0.0f, 0.0f) : glm::vec3(0, 1, 0);
  return glm::normalize(axis - n * glm::dot(n, axis));
}

glm::vec3 unitOrZero(glm::vec3 v) {
  const float length = glm::length(v);
  return length > 0.0f && std::isfinite(length) ? v / length : glm::vec3(0.0f);
}

glm::vec3 projectOnPlane(glm::vec3 v, glm::vec3 n) {
  return unitOrZero(v - n * glm::dot(n, v));
}

class TangentGenerator {
 public:
  TangentGenerator(const SkinnedMesh& mesh, std::vector<int> uv_set_of_triangle, float cos_split)
      : mesh_(mesh),
        uv_set_(std::move(uv_set_of_triangle)),
        cos_split_(cos_split),
        triangles_(mesh.triangleCount()) {}

  // One tangent per corner (indices order); w = 0 where rule 6 must fill it in.
  std::vector<glm::vec4> run() {
    weld();
    faces();
    adjacency();
    groups();
    std::vector<glm::vec4> corners(3 * triangles_, glm::vec4(0.0f));
    for (const std::vector<uint32_t>& members : members_) average(members, corners);
    return corners;
  }

 private:
  glm::vec2 uv(uint32_t corner) const {
    const int set = uv_set_[corner / 3];
    const std::vector<glm::vec2>& uvs = set == 0 ? mesh_.uvs : mesh_.uvs1;
    if (uvs.empty()) return glm::vec2(0.0f);
    const glm::vec2 u = uvs[mesh_.indices[corner]];
    return glm::vec2(u.x, -u.y);  // rule 1
  }
  glm::vec3 position(uint32_t corner) const { return mesh_.positions[mesh_.indices[corner]]; }
  glm::vec3 normal(uint32_t corner) const { return mesh_.normals[mesh_.indices[corner]]; }
  static uint32_t cornerOf(uint32_t triangle, int k) {
    return 3 * triangle + static_cast<uint32_t>(k);
  }

  void weld() {
    std::unordered_map<TangentWeldKey, uint32_t, TangentWeldKeyHash> ids;
    weld_.resize(3 * triangles_);
    for (uint32_t c = 0; c < weld_.size(); ++c) {
      TangentWeldKey key;
      const glm::vec3 p = position(c);
      const glm::vec3 n = normal(c);
      const glm::vec2 t = uv(c);
      const float values[8] = {p.x, p.y, p.z, n.x, n.y, n.z, t.x, t.y};
      for (int i = 0; i < 8; ++i) key.values[i] = values[i] == 0.0f ? 0.0f : values[i];
      weld_[c] = ids.emplace(key, static_cast<uint32_t>(ids.size())).first->second;
    }
  }

  // Rules 2 and 3.
  void faces() {
    faces_.resize(triangles_);
    for (uint32_t t = 0; t < triangles_; ++t) {
      Face& f = faces_[t];
      const glm::vec3 p0 = position(cornerOf(t, 0));
      const glm::vec3 d1 = position(cornerOf(t, 1)) - p0;
      const glm::vec3 d2 = position(cornerOf(t, 2)) - p0;
      const glm::vec2 uv0 = uv(cornerOf(t, 0));
      const glm::vec2 e1 = uv(cornerOf(t, 1)) - uv0;
      const glm::vec2 e2 = uv(cornerOf(t, 2)) - uv0;
      f.degenerate = !(glm::length(glm::cross(d1, d2)) > 0.0f);
      const float det = e1.x * e2.y - e2.x * e1.y;  // twice the signed uv area
      if (f.degenerate || det == 0.0f) continue;
      // T and B times det; dividing by det (its sign) gives their directions.
      const float sign = det > 0.0f ? 1.0f : -1.0f;
      f.tangent = unitOrZero(sign * (e2.y * d1 - e1.y * d2));
      f.bitangent = unitOrZero(sign * (e1.x * d2 - e2.x * d1));
      f.has_frame = f.tangent != glm::vec3(0.0f) && f.bitangent != glm::vec3(0.0f);
      if (!f.has_frame) continue;
      const glm::vec3 normals =
          normal(cornerOf(t, 0)) + normal(cornerOf(t, 1)) + normal(cornerOf(t, 2));
      f.handedness = glm::dot(glm::cross(f.tangent, f.bitangent), normals) >= 0.0f ? 1 : -1;
    }
  }

  static uint64_t edgeKey(uint32_t a, uint32_t b) { return static_cast<uint64_t>(a) << 32 | b; }

  // neighbour_[3t + k]: the triangle across edge (corner k -> corner k + 1), or kNone.
  void adjacency() {
    std::unordered_map<uint64_t, uint32_t> by_edge;  // directed welded edge -> first triangle
    for (uint32_t t = 0; t < triangles_; ++t) {
      if (faces_[t].degenerate) continue;
      for (int k = 0; k < 3; ++k) {
        by_edge.emplace(edgeKey(weld_[cornerOf(t, k)], weld_[cornerOf(t, (k + 1) % 3)]), t);
      }
    }
    neighbour_.assign(3 * triangles_, kNone);
    for (uint32_t t = 0; t < triangles_; ++t) {
      if (faces_[t].degenerate) continue;
      for (int k = 0; k < 3; ++k) {
        const auto it =
            by_edge.find(edgeKey(weld_[cornerOf(t, (k + 1) % 3)], weld_[cornerOf(t, k)]));
        if (it != by_edge.end() && it->second != t) neighbour_[cornerOf(t, k)] = it->second;
      }
    }
  }

  // The corner of triangle t at welded vertex w, or kNone.
  uint32_t cornerAt(uint32_t t, uint32_t w) const {
    for (int k = 0; k < 3; ++k) {
      if (weld_[cornerOf(t, k)] == w) return cornerOf(t, k);
    }
    return kNone;
  }

  // Rule 4: groups grown from every framed corner not yet in one.
  void groups() {
    group_.assign(3 * triangles_, kNone);
    for (uint32_t t = 0; t < triangles_; ++t) {
      if (!faces_[t].has_frame) continue;
      for (int k = 0; k < 3; ++k) {
        if (group_[cornerOf(t, k)] == kNone) grow(cornerOf(t, k));
      }
    }
  }

  void grow(uint32_t seed) {
    const auto g = static_cast<uint32_t>(members_.size());
    const uint32_t w = weld_[seed];
    const int handedness = faces_[seed / 3].handedness;
    members_.emplace_back();
    std::vector<uint32_t> stack = {seed};
    group_[seed] = g;
    while (!stack.empty()) {
      const uint32_t c = stack.back();
      stack.pop_back();
      members_[g].push_back(c);
      const uint32_t t = c / 3;
      const uint32_t k = c % 3;
      // The two edges through the vertex: (previous corner -> c) and (c -> next corner).
      for (uint32_t across : {neighbour_[3 * t + (k + 2) % 3], neighbour_[c]}) {
        if (across == kNone) continue;
        const uint32_t other = cornerAt(across, w);
        if (other == kNone || group_[other] != kNone) continue;
        Face& f = faces_[across];
        if (f.handedness == 0 && !f.has_frame) f.handedness = handedness;
        if (f.handedness != handedness) continue;
        group_[other] = g;
        stack.push_back(other);
      }
    }
  }

  // The corner's angle, in the plane of the vertex normal.
  float angle(uint32_t c) const {
    const uint32_t t = c / 3;
    const int k = static_cast<int>(c % 3);
    const glm::vec3 n = normal(c);
    const glm::vec3 p = position(c);
    const glm::vec3 a = projectOnPlane(position(cornerOf(t, (k + 1) % 3)) - p, n);
    const glm::vec3 b = projectOnPlane(position(cornerOf(t, (k + 2) % 3)) - p, n);
    if (a == glm::vec3(0.0f) || b == glm::vec3(0.0f)) return 0.0f;
    return std::acos(std::clamp(glm::dot(a, b), -1.0f, 1.0f));
  }

  // Rule 5 for one group.
  void average(const std::vector<uint32_t>& members, std::vector<glm::vec4>& corners) const {
    const size_t m = members.size();
    std::vector<glm::vec3> tangent(m), bitangent(m);
    std::vector<float> weight(m);
    std::vector<bool> free(m);  // similar to every corner: no frame of its own
    const glm::vec3 n = normal(members[0]);
    for (size_t i = 0; i < m; ++i) {
      const Face& f = faces_[members[i] / 3];
      tangent[i] = projectOnPlane(f.tangent, n);
      bitangent[i] = projectOnPlane(f.bitangent, n);
      free[i] = !f.has_frame || tangent[i] == glm::vec3(0.0f) || bitangent[i] == glm::vec3(0.0f);
      weight[i] = free[i] ? 0.0f : angle(members[i]);
    }
    const float w = static_cast<float>(faces_[members[0] / 3].handedness);
    std::map<std::vector<uint32_t>, glm::vec4> by_set;  // equal sets give equal sums
    for (size_t i = 0; i < m; ++i) {
      std::vector<uint32_t> set;
      for (size_t j = 0; j < m; ++j) {
        const bool similar = free[i] || free[j] ||
                             (glm::dot(tangent[i], tangent[j]) >= cos_split_ &&
                              glm::dot(bitangent[i], bitangent[j]) >= cos_split_);
        if (similar) set.push_back(static_cast<uint32_t>(j));
      }
      auto [it, added] = by_set.emplace(std::move(set), glm::vec4(0.0f));
      if (added) {
        glm::vec3 sum(0.0f);
        for (uint32_t j : it->first) sum += weight[j] * tangent[j];
        const glm::vec3 unit = unitOrZero(sum);
        it->second = unit == glm::vec3(0.0f) ? glm::vec4(0.0f) : glm::vec4(unit, w);
      }
      corners[members[i]] = it->second;
    }
  }

  const SkinnedMesh& mesh_;
  std::vector<int> uv_set_;  // per triangle
  float cos_split_;
  uint32_t triangles_;
  std::vector<uint32_t> weld_;                  // per corner: welded vertex
  std::vector<Face> faces_;                     // per triangle
  std::vector<uint32_t> neighbour_;             // per corner: the triangle across its outgoing edge
  std::vector<uint32_t> group_;                 // per corner
  std::vector<std::vector<uint32_t>> members_;  // per group: its corners
};

// The uv set the normal texture of one of `looks` reads (rule: base material first), else 0.
int normalUvSet(std::span<const Material> materials, const SubMesh& sm) {
  if (materials.empty()) return 0;
  std::vector<uint32_t> looks = {sm.material};
  looks.insert(looks.end(), sm.variant_materials.begin(), sm.variant_materials.end());
  for (uint32_t m : looks) {
    const TextureRef& t = materials[m].normal_texture;
    if (t.present()) return t.uv_set;
  }
  return 0;
}

Result<std::vector<int>> uvSetPerTriangle(const SkinnedMesh& mesh,
                                          std::span<const Material> materials) {
  std::vector<int> sets(mesh.triangleCount(), 0);
  const size_t count = std::max<size_t>(materials.size(), 1);
  for (size_t s = 0; s < mesh.submeshes.size(); ++s) {
    const SubMesh& sm = mesh.submeshes[s];
    bool in_range = sm.material < count;
    for (uint32_t v : sm.variant_materials) in_range = in_range && v < count;
    if (!in_range) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("tangents: sub-mesh {} ('{}') names a material outside the {} "
                                "materials",
                                s, sm.name, materials.size()));
    }
    const int set = normalUvSet(materials, sm);
    for (uint32_t t = sm.first_index / 3; t < (sm.first_index + sm.index_count) / 3; ++t) {
      sets[t] = set;
    }
  }
  return sets;
}

Status checkInput(SkinnedMesh& mesh, const TangentOptions& options) {
  if (!(options.split_angle_degrees > 0.0f && options.split_angle_degrees <= 180.0f)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("tangents: split angle {} is outside (0, 180] degrees",
                              options.split_angle_degrees));
  }
  if (!options.keep.empty() &&
      (options.keep.size() != mesh.vertexCount() || mesh.tangents.size() != mesh.vertexCount())) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("tangents: {} keep flags and {} tangents for {} vertices",
                              options.keep.size(), mesh.tangents.size(), mesh.vertexCount()));
  }
  // The tangents are about to be replaced: check everything else.
  std::vector<glm::vec4> tangents = std::move(mesh.tangents);
  const TangentSource source = mesh.tangent_source;
  mesh.tangents.clear();
  mesh.tangent_source = TangentSource::kNone;
  Status s = validateMesh(mesh, std::numeric_limits<uint16_t>::max() + 1, "tangents");
  mesh.tangents = std::move(tangents);
  mesh.tangent_source = source;
  return s;
}

// Rule 6: fills the corners left without a tangent; returns the vertices that got anyTangent.
std::vector<bool> fillCorners(const SkinnedMesh& mesh, std::vector<glm::vec4>& corners) {
  std::vector<uint32_t> donor(mesh.vertexCount(), kNone);  // vertex -> first corner with one
  for (uint32_t c = 0; c < corners.size(); ++c) {
    if (corners[c].w != 0.0f && donor[mesh.indices[c]] == kNone) donor[mesh.indices[c]] = c;
  }
  std::vector<bool> fallback(mesh.vertexCount(), false);
  for (uint32_t c = 0; c < corners.size(); ++c) {
    if (corners[c].w != 0.0f) continue;
    const uint32_t v = mesh.indices[c];
    if (donor[v] != kNone) {
      corners[c] = corners[donor[v]];
    } else {
      corners[c] = glm::vec4(anyTangent(mesh.normals[v]), 1.0f);
      fallback[v] = true;
    }
  }
  return fallback;
}

}  // namespace

Result<TangentReport> generateTangents(SkinnedMesh& mesh, std::span<const Material> materials,
                                       const TangentOptions& options) {
  if (Status s = checkInput(mesh, options); !s.ok()) return s;
  Result<std::vector<int>> uv_sets = uvSetPerTriangle(mesh, materials);
  if (!uv_sets.ok()) return uv_sets.status();
  const float cos_split =
      options.split_angle_degrees >= 180.0f
          ? -2.0f  // every pair is similar, whatever the rounding
          : std::cos(options.split_angle_degrees * std::numbers::pi_v<float> / 180.0f);
  std::vector<glm::vec4> corners =
      TangentGenerator(mesh, std::move(uv_sets).value(), cos_split).run();
  const std::vector<bool> fallback = fillCorners(mesh, corners);

  // Rule 7: each vertex keeps its first corner's tangent; other tangents get copies.
  const size_t n = mesh.vertexCount();
  auto kept = [&](size_t v) { return !options.keep.empty() && options.keep[v] != 0; };
  std::vector<uint32_t> sources(n);
  for (uint32_t v = 0; v < n; ++v) sources[v] = v;
  std::vector<glm::vec4> tangents(n, glm::vec4(0.0f));
  std::vector<bool> assigned(n, false);
  std::multimap<uint32_t, uint32_t> copies;  // vertex -> its copies
  for (uint32_t c = 0; c < corners.size(); ++c) {
    const uint32_t v = mesh.indices[c];
    if (kept(v)) continue;
    if (!assigned[v]) {
      assigned[v] = true;
      tangents[v] = corners[c];
      continue;
    }
    if (tangents[v] == corners[c]) continue;
    uint32_t copy = kNone;
    for (auto [it, end] = copies.equal_range(v); it != end; ++it) {
      if (tangents[it->second] == corners[c]) copy = it->second;
    }
    if (copy == kNone) {
      copy = static_cast<uint32_t>(sources.size());
      sources.push_back(v);
      tangents.push_back(corners[c]);
      copies.emplace(v, copy);
    }
    mesh.indices[c] = copy;
  }
  TangentReport report;
  for (uint32_t v = 0; v < n; ++v) {
    if (kept(v)) {
      tangents[v] = mesh.tangents[v];
    } else if (!assigned[v]) {  // no triangle uses it
      tangents[v] = glm::vec4(anyTangent(mesh.normals[v]), 1.0f);
      ++report.fallback;
    } else if (fallback[v]) {
      ++report.fallback;
    }
  }
  report.split = sources.size() - n;
  report.generated =
      sources.size() -
      (options.keep.empty()
           ? 0
           : static_cast<size_t>(std::count_if(options.keep.begin(), options.keep.end(),
                                               [](uint8_t k) { return k != 0; })));
  if (report.split > 0) {
    SkinnedMesh grown;
    copyVertices(mesh, sources, grown);
    grown.indices = std::move(mesh.indices);
    grown.submeshes = std::move(mesh.submeshes);
    mesh = std::move(grown);
  }
  mesh.tangents = std::move(tangents);
  mesh.tangent_source =
      report.generated == mesh.vertexCount() ? TangentSource::kGenerated : TangentSource::kMixed;
  return report;
}

}  // namespace throng
