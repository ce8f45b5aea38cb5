// Mesh LOD with meshoptimizer's edge-collapse simplifier (Garland & Heckbert quadrics) on a mesh
// welded by position and skin, with vertex clustering (sloppy) as the fallback.
#include "throng/offline/mesh_simplify.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <unordered_map>

#include <fmt/core.h>
#ifndef THRONG_NO_MESHOPTIMIZER
#include <meshoptimizer.h>
#endif

#include "offline/surface_distance.h"

namespace throng {
namespace {

// simplifyWeldKeys and dominantJoint serve the meshoptimizer path only (unused in the web build).

// What welding compares: two vertices weld when every byte of this agrees.
struct SimplifyWeldKey {
  glm::vec3 position;
  glm::u16vec4 joints;  // 0 where the weight is 0, so unused slots never split a weld
  glm::u8vec4 weights;  // rounded to 1/255: float noise in weights never splits a weld
  uint32_t group = 0;   // prop group (SkinnedMesh::attachments): a prop never welds to the body
};
static_assert(sizeof(SimplifyWeldKey) == 28, "weld keys are tightly packed");

[[maybe_unused]] std::vector<SimplifyWeldKey> simplifyWeldKeys(const SkinnedMesh& mesh) {
  std::vector<SimplifyWeldKey> keys(mesh.vertexCount());
  for (size_t v = 0; v < keys.size(); ++v) {
    SimplifyWeldKey& k = keys[v];  // every byte is assigned below (no implicit padding)
    k.position = mesh.positions[v];
    k.group = mesh.attachments.empty() ? 0u : mesh.attachments[v];
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      const bool used = w > 0.0f;
      k.joints[i] = used ? mesh.joints[v][i] : 0;
      k.weights[i] =
          static_cast<uint8_t>(used ? std::lround(std::clamp(w, 0.0f, 1.0f) * 255.0f) : 0);
    }
  }
  return keys;
}

// `range` cut into runs of consecutive triangles of one prop group (SkinnedMesh::attachments, by
// each triangle's first corner); the whole range when the mesh carries no prop.
[[maybe_unused]] std::vector<SubMesh> propGroupRuns(const SkinnedMesh& mesh, const SubMesh& range) {
  if (mesh.attachments.empty() || range.index_count == 0) return {range};
  std::vector<SubMesh> runs;
  for (uint32_t i = 0; i < range.index_count; i += 3) {
    const uint8_t group = mesh.attachments[mesh.indices[range.first_index + i]];
    if (runs.empty() || mesh.attachments[mesh.indices[runs.back().first_index]] != group) {
      runs.push_back({range.name, range.first_index + i, 0, range.material, {}});
    }
    runs.back().index_count += 3;
  }
  return runs;
}

// Connected sets of triangles sharing vertices (not positions): UV charts.
std::vector<uint32_t> charts(const SkinnedMesh& mesh) {
  std::vector<uint32_t> parent(mesh.vertexCount());
  std::iota(parent.begin(), parent.end(), 0u);
  auto find = [&](uint32_t v) {
    while (parent[v] != v) v = parent[v] = parent[parent[v]];
    return v;
  };
  for (size_t i = 0; i + 2 < mesh.indices.size(); i += 3) {
    const uint32_t a = find(mesh.indices[i]);
    for (int c = 1; c < 3; ++c) {
      const uint32_t b = find(mesh.indices[i + c]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  for (uint32_t v = 0; v < parent.size(); ++v) parent[v] = find(v);
  return parent;
}

// Puts the attributes back on triangles whose corners are weld representatives.
class SeamRestorer {
 public:
  SeamRestorer(const SkinnedMesh& mesh, const std::vector<uint32_t>& shadow_of_vertex)
      : chart_(charts(mesh)), used_(mesh.vertexCount(), 0) {
    for (uint32_t v = 0; v < shadow_of_vertex.size(); ++v) {
      by_group_chart_.emplace(key(shadow_of_vertex[v], chart_[v]), v);
      members_[shadow_of_vertex[v]].push_back(v);
    }
  }

  // Marks the vertices the current sub-mesh uses (its source indices).
  void beginSubMesh(const uint32_t* indices, size_t count) {
    ++stamp_;
    for (size_t i = 0; i < count; ++i) used_[indices[i]] = stamp_;
  }

  // Rewrites triangle (a, b, c) of representatives into real vertices of one chart.
  void restore(uint32_t* corners) {
    uint32_t best_chart = 0;
    int best_count = -1;
    for (int c = 0; c < 3; ++c) {
      for (uint32_t v : members_[corners[c]]) {
        if (used_[v] != stamp_) continue;
        int count = 0;
        for (int o = 0; o < 3; ++o) count += by_group_chart_.count(key(corners[o], chart_[v])) != 0;
        if (count > best_count || (count == best_count && chart_[v] < best_chart)) {
          best_count = count;
          best_chart = chart_[v];
        }
      }
    }
    for (int c = 0; c < 3; ++c) {
      const auto it = by_group_chart_.find(key(corners[c], best_chart));
      if (it != by_group_chart_.end()) {
        corners[c] = it->second;
        continue;
      }
      // No vertex of this chart at that position: one of the sub-mesh's own.
      for (uint32_t v : members_[corners[c]]) {
        if (used_[v] == stamp_) {
          corners[c] = v;
          break;
        }
      }
    }
  }

 private:
  static uint64_t key(uint32_t group, uint32_t chart) {
    return static_cast<uint64_t>(group) << 32 | chart;
  }
  std::vector<uint32_t> chart_;
  std::vector<uint32_t> used_;
  uint32_t stamp_ = 0;
  std::unordered_map<uint64_t, uint32_t> by_group_chart_;        // (group, chart) -> first vertex
  std::unordered_map<uint32_t, std::vector<uint32_t>> members_;  // group -> its vertices
};

// The joint with the largest summed weight over a triangle's corners (ties: the lowest).
[[maybe_unused]] uint32_t dominantJoint(const SkinnedMesh& mesh, const uint32_t* corners) {
  uint32_t joints[3 * kMaxInfluences];
  float weights[3 * kMaxInfluences];
  int n = 0;
  for (int c = 0; c < 3; ++c) {
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[corners[c]][i];
      if (!(w > 0.0f)) continue;
      const uint32_t j = mesh.joints[corners[c]][i];
      int k = 0;
      while (k < n && joints[k] != j) ++k;
      if (k == n) {
        joints[n] = j;
        weights[n++] = 0.0f;
      }
      weights[k] += w;
    }
  }
  uint32_t best = 0;
  float best_weight = -1.0f;
  for (int k = 0; k < n; ++k) {
    if (weights[k] > best_weight || (weights[k] == best_weight && joints[k] < best)) {
      best = joints[k];
      best_weight = weights[k];
    }
  }
  return best;
}

Status checkSimplify(const SkinnedMesh& mesh, const SimplifyOptions& options) {
  if (!(options.triangle_ratio > 0.0f && options.triangle_ratio <= 1.0f)) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("simplify: triangle ratio {} is outside (0, 1]", options.triangle_ratio));
  }
  if (!(options.max_relative_error >= 0.0f) || !std::isfinite(options.max_relative_error)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("simplify: error target {} is not a non-negative number",
                              options.max_relative_error));
  }
  // Joint indices are palette slots or skeleton joints depending on the caller: not checked.
  return validateMesh(mesh, std::numeric_limits<uint16_t>::max() + 1, "simplify");
}

#ifndef THRONG_NO_MESHOPTIMIZER

// The mesh welded by position and skin, as the simplifier sees it: only the welded vertices,
// renumbered (it classifies seams by position over every vertex it is given, so unreferenced
// duplicates left in its buffer would lock their positions).
struct WeldedMesh {
  std::vector<uint32_t> indices;         // the mesh's indices, into the welded vertices
  std::vector<uint32_t> representative;  // welded vertex -> the first source vertex of its key
  std::vector<glm::vec3> positions;      // welded vertex -> its position
  std::vector<uint32_t> group_of;        // source vertex -> its representative
};

WeldedMesh weld(const SkinnedMesh& mesh) {
  const size_t vertex_count = mesh.vertexCount();
  const std::vector<SimplifyWeldKey> keys = simplifyWeldKeys(mesh);
  WeldedMesh welded;
  // shadow[i]: the first vertex with index i's key.
  std::vector<uint32_t>& shadow = welded.indices;
  shadow.resize(mesh.indices.size());
  if (!mesh.indices.empty()) {
    meshopt_generateShadowIndexBuffer(shadow.data(), mesh.indices.data(), mesh.indices.size(),
                                      keys.data(), vertex_count, sizeof(SimplifyWeldKey),
                                      sizeof(SimplifyWeldKey));
  }
  welded.group_of.resize(vertex_count);
  std::iota(welded.group_of.begin(), welded.group_of.end(), 0u);
  for (size_t i = 0; i < shadow.size(); ++i) welded.group_of[mesh.indices[i]] = shadow[i];
  std::vector<uint32_t> welded_of(vertex_count, ~0u);  // representative -> welded vertex
  for (uint32_t& index : shadow) {
    if (welded_of[index] == ~0u) {
      welded_of[index] = static_cast<uint32_t>(welded.representative.size());
      welded.representative.push_back(index);
      welded.positions.push_back(mesh.positions[index]);
    }
    index = welded_of[index];
  }
  return welded;
}

const float* weldedPositions(const WeldedMesh& welded) {
  return welded.positions.empty() ? nullptr : &welded.positions[0].x;
}

// Each joint's region of sub-mesh `range` alone, its border locked: no collapse crosses where
// the mesh bends, so joints keep the rings that let them bend. Writes the kept indices to `dst`
// and returns their count; `error` gets the largest region's relative error.
size_t simplifyJointRegions(const SkinnedMesh& mesh, const WeldedMesh& welded, const SubMesh& range,
                            const SimplifyOptions& options, uint32_t* dst, float& error) {
  const uint32_t* source = welded.indices.data() + range.first_index;
  const size_t triangles = range.index_count / 3;
  std::vector<std::vector<uint32_t>> regions;
  std::unordered_map<uint32_t, size_t> region_of_joint;
  for (size_t t = 0; t < triangles; ++t) {
    const uint32_t joint = dominantJoint(mesh, mesh.indices.data() + range.first_index + 3 * t);
    const auto [it, added] = region_of_joint.emplace(joint, regions.size());
    if (added) regions.emplace_back();
    regions[it->second].insert(regions[it->second].end(), source + 3 * t, source + 3 * t + 3);
  }
  size_t count = 0;
  for (const std::vector<uint32_t>& region : regions) {
    const size_t region_target = std::max<size_t>(
        1, static_cast<size_t>(static_cast<double>(region.size() / 3) * options.triangle_ratio));
    float region_error = 0.0f;
    count +=
        meshopt_simplify(dst + count, region.data(), region.size(), weldedPositions(welded),
                         welded.positions.size(), sizeof(glm::vec3), region_target * 3,
                         options.max_relative_error, meshopt_SimplifyLockBorder, &region_error);
    error = std::max(error, region_error);
  }
  return count;
}

// Sub-mesh `range` simplified toward `target` triangles (< its own): by joint regions when
// asked, the whole sub-mesh at once when that leaves too much, vertex clustering when even that
// does (when allowed); the fewest triangles win. Writes welded indices to `simplified` and
// returns their count; `error` gets the relative error of the one kept, `out` its flags.
size_t simplifyRange(const SkinnedMesh& mesh, const WeldedMesh& welded, const SubMesh& range,
                     size_t target, const SimplifyOptions& options,
                     std::vector<uint32_t>& simplified, float& error, SimplifiedMesh& out) {
  const uint32_t* source = welded.indices.data() + range.first_index;
  const float* positions = weldedPositions(welded);
  const size_t welded_count = welded.positions.size();
  auto tooMany = [&](size_t count) {
    return static_cast<double>(count / 3) >
           static_cast<double>(target) * (1.0 + kSimplifyTargetSlack);
  };
  size_t count = 0;
  if (options.keep_joint_borders) {
    count = simplifyJointRegions(mesh, welded, range, options, simplified.data(), error);
  }
  if (!options.keep_joint_borders || tooMany(count)) {
    // Locked borders left too much: the whole sub-mesh at once.
    std::vector<uint32_t> whole(range.index_count);
    float whole_error = 0.0f;
    const size_t whole_count = meshopt_simplify(whole.data(), source, range.index_count, positions,
                                                welded_count, sizeof(glm::vec3), target * 3,
                                                options.max_relative_error, 0, &whole_error);
    if (count == 0 || whole_count < count) {
      simplified.swap(whole);
      count = whole_count;
      error = whole_error;
      out.crossed_joint_borders = options.keep_joint_borders;
    }
  }
  if (options.allow_sloppy && tooMany(count)) {
    std::vector<uint32_t> sloppy(range.index_count);
    float sloppy_error = 0.0f;
    const size_t sloppy_count = meshopt_simplifySloppy(
        sloppy.data(), source, range.index_count, positions, welded_count, sizeof(glm::vec3),
        target * 3, options.max_relative_error, &sloppy_error);
    if (sloppy_count > 0 && sloppy_count < count) {
      simplified.swap(sloppy);
      count = sloppy_count;
      error = sloppy_error;
      out.sloppy = true;
    }
  }
  return count;
}

// out.mesh's vertices: only those `indices` reference (into `mesh`), in first-use order (also
// good for the vertex cache), with the indices remapped to them.
void keepReferencedVertices(const SkinnedMesh& mesh, const std::vector<uint32_t>& indices,
                            SkinnedMesh& m) {
  const size_t vertex_count = mesh.vertexCount();
  std::vector<uint32_t> remap(vertex_count);
  const size_t kept =
      meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), indices.size(), vertex_count);
  std::vector<uint32_t> sources(kept);
  for (uint32_t v = 0; v < vertex_count; ++v) {
    if (remap[v] != ~0u) sources[remap[v]] = v;
  }
  copyVertices(mesh, sources, m);
  m.indices.resize(indices.size());
  for (size_t i = 0; i < indices.size(); ++i) m.indices[i] = remap[indices[i]];
}

#endif

}  // namespace

Result<SimplifiedMesh> simplifyMesh(const SkinnedMesh& mesh, const SimplifyOptions& options) {
  if (Status s = checkSimplify(mesh, options); !s.ok()) return s;
#ifdef THRONG_NO_MESHOPTIMIZER
  // Builds without meshoptimizer (the web build: Debian ships it as a native library only).
  return Status(
      ErrorCode::kUnsupported,
      "simplify: this build of throng has no mesh simplifier (built without meshoptimizer)");
#else
  // Weld: the simplifier sees the vertices welded by position and skin; SeamRestorer puts the
  // attributes back afterwards.
  const WeldedMesh welded = weld(mesh);
  SeamRestorer restorer(mesh, welded.group_of);
  const float scale = welded.positions.empty()
                          ? 0.0f
                          : meshopt_simplifyScale(weldedPositions(welded), welded.positions.size(),
                                                  sizeof(glm::vec3));

  std::vector<SubMesh> ranges = mesh.submeshes;
  if (ranges.empty()) ranges.push_back({"", 0, static_cast<uint32_t>(mesh.indices.size())});

  // Each prop's triangles (a run of one prop group) are simplified on their own, so that
  // clustering never joins a prop to the body or to another prop. The body goes first: a prop may
  // then lose no more than the body's own (relative, whole-mesh) error and is never clustered, so a
  // small prop keeps its shape where the ratio alone would crush it to a few triangles.
  struct Run {
    SubMesh range;
    size_t submesh = 0;
    bool prop = false;
    std::vector<uint32_t> indices;  // welded, simplified
    size_t count = 0;
    float error = 0.0f;
  };
  std::vector<Run> runs;
  for (size_t s = 0; s < ranges.size(); ++s) {
    for (const SubMesh& range : propGroupRuns(mesh, ranges[s])) {
      const bool prop = !mesh.attachments.empty() && range.index_count > 0 &&
                        mesh.attachments[mesh.indices[range.first_index]] != 0;
      runs.push_back({range, s, prop, {}, 0, 0.0f});
    }
  }
  SimplifiedMesh out;
  auto simplifyRun = [&](Run& run, const SimplifyOptions& run_options) {
    const uint32_t* source = welded.indices.data() + run.range.first_index;
    const size_t triangles = run.range.index_count / 3;
    // At least one triangle: a sub-mesh never vanishes.
    const size_t target =
        run_options.triangle_ratio < 1.0f
            ? std::clamp<size_t>(
                  static_cast<size_t>(static_cast<double>(triangles) * run_options.triangle_ratio),
                  1, triangles)
            : triangles;
    out.target_triangles += target;
    run.indices.resize(run.range.index_count);
    run.count = run.range.index_count;
    if (target < triangles) {
      run.count =
          simplifyRange(mesh, welded, run.range, target, run_options, run.indices, run.error, out);
    } else {
      std::copy(source, source + run.range.index_count, run.indices.begin());
    }
  };
  float body_error = 0.0f;
  for (Run& run : runs) {
    if (run.prop) continue;
    simplifyRun(run, options);
    body_error = std::max(body_error, run.error);
  }
  SimplifyOptions prop_options = options;
  prop_options.max_relative_error = std::min(options.max_relative_error, body_error);
  prop_options.allow_sloppy = false;
  for (Run& run : runs) {
    if (run.prop) simplifyRun(run, prop_options);
  }

  std::vector<uint32_t> indices;
  for (size_t s = 0; s < ranges.size(); ++s) {
    SubMesh sub = ranges[s];
    sub.first_index = static_cast<uint32_t>(indices.size());
    for (Run& run : runs) {
      if (run.submesh != s) continue;
      for (size_t i = 0; i < run.count; ++i) run.indices[i] = welded.representative[run.indices[i]];
      restorer.beginSubMesh(mesh.indices.data() + run.range.first_index, run.range.index_count);
      for (size_t t = 0; t + 2 < run.count; t += 3) restorer.restore(run.indices.data() + t);
      out.estimated_error = std::max(out.estimated_error, run.error * scale);
      indices.insert(indices.end(), run.indices.begin(),
                     run.indices.begin() + static_cast<std::ptrdiff_t>(run.count));
    }
    sub.index_count = static_cast<uint32_t>(indices.size()) - sub.first_index;
    out.mesh.submeshes.push_back(sub);
  }
  if (mesh.submeshes.empty()) out.mesh.submeshes.clear();
  keepReferencedVertices(mesh, indices, out.mesh);
  // meshoptimizer's error is an area-weighted distance to the planes around each collapse, which
  // can be several times below the real deviation: measure the real one.
  if (options.measure_error && out.mesh.triangleCount() < mesh.triangleCount()) {
    out.geometric_error =
        surfaceDistance(mesh.positions, mesh.indices, out.mesh.positions, out.mesh.indices);
  }
  return out;
#endif
}

}  // namespace throng
