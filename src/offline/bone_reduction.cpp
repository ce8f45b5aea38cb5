// Bone reduction: greedy joint removal by skinned error, re-skinning, error measure.
#include "throng/offline/bone_reduction.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>

#include <fmt/core.h>

#include "offline/lod_error.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

// The percentile of vertices ReductionError::p99 reports.
constexpr double kErrorPercentile = 0.99;

int nearestKept(std::span<const int16_t> parents, const std::vector<bool>& kept, int joint) {
  while (joint != kNoParent && !kept[joint]) joint = parents[joint];
  return joint;
}

Status checkPaletteJoints(const Character& character, std::span<const uint16_t> palette_joints) {
  const Skeleton& skeleton = character.skeleton;
  for (size_t s = 0; s < palette_joints.size(); ++s) {
    if (palette_joints[s] >= skeleton.jointCount() ||
        (s > 0 && palette_joints[s] <= palette_joints[s - 1])) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("bone reduction: palette joint list is not ascending skeleton "
                                "joints at slot {}",
                                s));
    }
  }
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    if (skeleton.parents()[j] == kNoParent &&
        !std::binary_search(palette_joints.begin(), palette_joints.end(), j)) {
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("bone reduction: root joint '{}' is not kept", skeleton.names()[j]));
    }
  }
  return {};
}

// The displacement model of the greedy search: vertex v, with influences (j_i, w_i), skinned by
// the full skeleton and by a reduced one that maps joint j to map[j] (its nearest kept
// ancestor) moves by |sum_i w_i (S_map[j_i](f) - S_j_i(f)) v| at frame f.
class Displacements {
 public:
  Displacements(const SkinnedMesh& mesh, int joints) : mesh_(mesh), joints_(joints) {}

  // Largest displacement of vertex `v` over `frame_count` palettes (frame-major) under `map`.
  float vertex(size_t v, const std::vector<int>& map, const JointRows* palettes,
               size_t frame_count) const {
    const glm::vec3 p = mesh_.positions[v];
    int from[kMaxInfluences], to[kMaxInfluences];
    float weight[kMaxInfluences];
    int moved = 0;
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh_.weights[v][i];
      const int j = mesh_.joints[v][i];
      if (!(w > 0.0f) || map[j] == j) continue;
      from[moved] = j;
      to[moved] = map[j];
      weight[moved++] = w;
    }
    if (moved == 0) return 0.0f;
    float worst = 0.0f;
    for (size_t f = 0; f < frame_count; ++f) {
      const JointRows* pose = palettes + f * static_cast<size_t>(joints_);
      glm::vec3 d(0.0f);
      for (int i = 0; i < moved; ++i) {
        d += weight[i] * (transformPoint(pose[to[i]], p) - transformPoint(pose[from[i]], p));
      }
      worst = std::max(worst, glm::dot(d, d));
    }
    return std::sqrt(worst);
  }

 private:
  const SkinnedMesh& mesh_;
  int joints_;
};

float percentile(std::vector<float> values, double q) {
  if (values.empty()) return 0.0f;
  // The nearest-rank percentile: the smallest value with at least q of the values at or below it.
  const size_t rank = static_cast<size_t>(std::ceil(q * static_cast<double>(values.size())));
  const size_t k = std::min(values.size() - 1, std::max<size_t>(rank, 1) - 1);
  std::nth_element(values.begin(), values.begin() + static_cast<std::ptrdiff_t>(k), values.end());
  return values[k];
}

}  // namespace

Result<std::vector<uint16_t>> chooseJoints(const Character& character, const SkinnedMesh& mesh,
                                           int joint_count, float max_error,
                                           std::vector<uint16_t>* removal_order) {
  const Skeleton& skeleton = character.skeleton;
  const int joints = skeleton.jointCount();
  const std::span<const int16_t> parents = skeleton.parents();
  if (joint_count < 1) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("bone reduction: cannot keep {} joints", joint_count));
  }
  if (!(max_error >= 0.0f)) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("bone reduction: error cap {} is not a non-negative number", max_error));
  }
  int roots = 0;
  for (int j = 0; j < joints; ++j) roots += parents[j] == kNoParent ? 1 : 0;
  if (roots > joint_count) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("bone reduction: the skeleton has {} roots, more than the {} joints "
                              "to keep",
                              roots, joint_count));
  }
  // Vertices each joint influences; the influences of a removed joint's vertices are all that a
  // removal changes.
  std::vector<std::vector<uint32_t>> vertices_of(joints);
  std::vector<double> weight_of(joints, 0.0);
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      if (!(w > 0.0f)) continue;
      const int j = mesh.joints[v][i];
      if (j >= joints) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("bone reduction: vertex {} uses joint {}, the skeleton has {}", v,
                                  j, joints));
      }
      if (vertices_of[j].empty() || vertices_of[j].back() != v) {
        vertices_of[j].push_back(static_cast<uint32_t>(v));
      }
      weight_of[j] += w;
    }
  }
  const int target = std::min(joint_count, joints);

  size_t all_frames = 0;
  const std::vector<JointRows> palettes =
      sampleClipPalettes(character, kReductionSampleFps, &all_frames);
  // The search frames: every frame, or an even stride over them.
  std::vector<JointRows> search;
  const size_t stride = (all_frames + kMaxReductionSearchFrames - 1) / kMaxReductionSearchFrames;
  for (size_t f = 0; f < all_frames; f += std::max<size_t>(stride, 1)) {
    search.insert(search.end(), palettes.begin() + static_cast<std::ptrdiff_t>(f * joints),
                  palettes.begin() + static_cast<std::ptrdiff_t>((f + 1) * joints));
  }
  const size_t search_frames = search.size() / static_cast<size_t>(std::max(joints, 1));

  const Displacements displacement(mesh, joints);
  std::vector<int> map(joints);  // joint -> its nearest kept ancestor (itself when kept)
  std::vector<std::vector<int>> members(joints);  // kept joint -> joints mapped to it
  for (int j = 0; j < joints; ++j) {
    map[j] = j;
    members[j] = {j};
  }
  std::vector<float> error(mesh.vertexCount(), 0.0f);  // per vertex, over the search frames
  float worst = 0.0f;

  // A candidate removal, scored once and re-scored only when a removal touched its vertices.
  struct Candidate {
    bool dirty = true;
    float local_max = 0.0f;  // largest new displacement among the vertices it touches
    double increase = 0.0;   // summed increase of those vertices' displacements
    double weight = 0.0;     // skin weight it moves
    std::vector<uint32_t> touched;
    std::vector<float> new_error;
  };
  std::vector<Candidate> candidates(joints);
  std::vector<uint32_t> stamp(mesh.vertexCount(), 0);
  uint32_t stamp_value = 0;
  auto touchedBy = [&](int c, std::vector<uint32_t>& out) {
    ++stamp_value;
    out.clear();
    for (int j : members[c]) {
      for (uint32_t v : vertices_of[j]) {
        if (stamp[v] == stamp_value) continue;
        stamp[v] = stamp_value;
        out.push_back(v);
      }
    }
  };
  auto score = [&](int c) {
    Candidate& cand = candidates[c];
    const int ancestor = map[parents[c]];
    touchedBy(c, cand.touched);
    for (int j : members[c]) map[j] = ancestor;
    cand.new_error.resize(cand.touched.size());
    cand.local_max = 0.0f;
    cand.increase = 0.0;
    cand.weight = 0.0;
    for (int j : members[c]) cand.weight += weight_of[j];
    for (size_t i = 0; i < cand.touched.size(); ++i) {
      const uint32_t v = cand.touched[i];
      cand.new_error[i] = displacement.vertex(v, map, search.data(), search_frames);
      cand.local_max = std::max(cand.local_max, cand.new_error[i]);
      cand.increase += static_cast<double>(cand.new_error[i]) - error[v];
    }
    for (int j : members[c]) map[j] = c;
    cand.dirty = false;
  };

  std::vector<int> removed;  // in removal order
  int kept = joints;
  while (kept > target) {
    int best = -1;
    std::tuple<float, double, double> best_key;
    for (int c = 0; c < joints; ++c) {
      if (map[c] != c || parents[c] == kNoParent) continue;
      if (candidates[c].dirty) score(c);
      const Candidate& cand = candidates[c];
      const std::tuple<float, double, double> key{std::max(worst, cand.local_max), cand.increase,
                                                  cand.weight};
      if (best < 0 || key < best_key) {
        best = c;
        best_key = key;
      }
    }
    if (best < 0 || std::get<0>(best_key) > max_error) break;
    // Remove `best`: its members move to its nearest kept ancestor.
    Candidate& chosen = candidates[best];
    const int ancestor = map[parents[best]];
    for (int j : members[best]) {
      map[j] = ancestor;
      members[ancestor].push_back(j);
    }
    members[best].clear();
    for (size_t i = 0; i < chosen.touched.size(); ++i)
      error[chosen.touched[i]] = chosen.new_error[i];
    worst = error.empty() ? 0.0f : *std::max_element(error.begin(), error.end());
    // Every kept joint that influences a changed vertex scores differently now.
    for (uint32_t v : chosen.touched) {
      for (int i = 0; i < kMaxInfluences; ++i) {
        if (mesh.weights[v][i] > 0.0f) candidates[map[mesh.joints[v][i]]].dirty = true;
      }
    }
    candidates[ancestor].dirty = true;
    removed.push_back(best);
    --kept;
  }

  // The cap holds on the search frames; check it on every frame, undoing the last removals
  // until it holds there too.
  if (search_frames < all_frames && std::isfinite(max_error)) {
    for (;;) {
      float exact = 0.0f;
      for (size_t v = 0; v < mesh.vertexCount() && exact <= max_error; ++v) {
        exact = std::max(exact, displacement.vertex(v, map, palettes.data(), all_frames));
      }
      if (exact <= max_error || removed.empty()) break;
      const int back = removed.back();
      removed.pop_back();
      for (int j = 0; j < joints; ++j) {
        // Joints that mapped past `back` through it map to it again.
        int a = j;
        while (a != kNoParent && a != back && map[a] != a) a = parents[a];
        if (a == back) map[j] = back;
      }
    }
  }

  std::vector<uint16_t> result;
  for (int j = 0; j < joints; ++j) {
    if (map[j] == j) result.push_back(static_cast<uint16_t>(j));
  }
  if (removal_order != nullptr) removal_order->assign(removed.begin(), removed.end());
  return result;
}

Result<SkinnedMesh> remapToPalette(const Character& character, const SkinnedMesh& mesh,
                                   std::span<const uint16_t> palette_joints) {
  if (Status s = checkPaletteJoints(character, palette_joints); !s.ok()) return s;
  const Skeleton& skeleton = character.skeleton;
  std::vector<bool> kept(skeleton.jointCount(), false);
  std::vector<int> slot_of(skeleton.jointCount(), -1);
  for (size_t s = 0; s < palette_joints.size(); ++s) {
    kept[palette_joints[s]] = true;
    slot_of[palette_joints[s]] = static_cast<int>(s);
  }
  SkinnedMesh out = mesh;
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    Influence influences[kMaxInfluences];
    int count = 0;
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      if (!(w > 0.0f)) continue;
      const int joint = mesh.joints[v][i];
      if (joint >= skeleton.jointCount()) {
        return Status(ErrorCode::kInvalidData,
                      fmt::format("bone reduction: vertex {} uses joint {}, the skeleton has {}", v,
                                  joint, skeleton.jointCount()));
      }
      influences[count++] = {slot_of[nearestKept(skeleton.parents(), kept, joint)], w};
    }
    if (!reduceInfluences(influences, count, out.joints[v], out.weights[v])) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("bone reduction: vertex {} has no positive weight", v));
    }
  }
  return out;
}

ReductionError measureReductionError(const Character& character, const SkinnedMesh& full,
                                     const SkinnedMesh& reduced,
                                     std::span<const uint16_t> palette_joints) {
  assert(full.vertexCount() == reduced.vertexCount());
  const size_t joints = static_cast<size_t>(character.skeleton.jointCount());
  size_t frame_count = 0;
  const std::vector<JointRows> palettes =
      sampleClipPalettes(character, kReductionSampleFps, &frame_count);
  std::vector<JointRows> slots(palette_joints.size());
  std::vector<glm::vec3> a(full.vertexCount()), b(full.vertexCount());
  std::vector<float> vertex_error(full.vertexCount(), 0.0f);
  for (size_t f = 0; f < frame_count; ++f) {
    const std::span<const JointRows> pose(palettes.data() + f * joints, joints);
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = pose[palette_joints[s]];
    [[maybe_unused]] const bool ran_full =
        SkinJob{full.positions, {}, full.joints, full.weights, pose, a, {}}.run();
    [[maybe_unused]] const bool ran_reduced =
        SkinJob{reduced.positions, {}, reduced.joints, reduced.weights, slots, b, {}}.run();
    assert(ran_full && ran_reduced);
    for (size_t v = 0; v < a.size(); ++v) {
      vertex_error[v] = std::max(vertex_error[v], glm::length(a[v] - b[v]));
    }
  }
  ReductionError out;
  for (float e : vertex_error) out.max = std::max(out.max, e);
  out.p99 = percentile(std::move(vertex_error), kErrorPercentile);
  return out;
}

Result<BoneReduction> reduceBones(const Character& character, const SkinnedMesh& mesh,
                                  int joint_count, float max_error) {
  std::vector<uint16_t> removal_order;
  Result<std::vector<uint16_t>> chosen =
      chooseJoints(character, mesh, joint_count, max_error, &removal_order);
  if (!chosen.ok()) return chosen.status();
  Result<SkinnedMesh> remapped = remapToPalette(character, mesh, *chosen);
  if (!remapped.ok()) return remapped.status();
  BoneReduction out;
  out.capped =
      static_cast<int>(chosen->size()) > std::min(joint_count, character.skeleton.jointCount());
  out.palette_joints = std::move(*chosen);
  out.removal_order = std::move(removal_order);
  out.mesh = std::move(*remapped);
  const ReductionError error = measureReductionError(character, mesh, out.mesh, out.palette_joints);
  out.max_error = error.max;
  out.p99_error = error.p99;
  const float size = character.size();
  out.error_fraction = size > 0.0f ? out.max_error / size : 0.0f;
  return out;
}

}  // namespace throng
