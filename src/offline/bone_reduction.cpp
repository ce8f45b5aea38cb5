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
constexpr double kReductionErrorPercentile = 0.99;

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

Status checkChooseJoints(const Skeleton& skeleton, int joint_count, float max_error) {
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
  for (int j = 0; j < skeleton.jointCount(); ++j) roots += skeleton.parents()[j] == kNoParent;
  if (roots > joint_count) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("bone reduction: the skeleton has {} roots, more than the {} joints "
                              "to keep",
                              roots, joint_count));
  }
  return {};
}

// Vertices each joint influences, and the skin weight it carries; the influences of a removed
// joint's vertices are all that a removal changes.
struct JointInfluence {
  std::vector<std::vector<uint32_t>> vertices_of;
  std::vector<double> weight_of;
};

Result<JointInfluence> jointInfluence(const SkinnedMesh& mesh, int joints) {
  JointInfluence influence;
  influence.vertices_of.resize(joints);
  influence.weight_of.assign(joints, 0.0);
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
      std::vector<uint32_t>& vertices = influence.vertices_of[j];
      if (vertices.empty() || vertices.back() != v) vertices.push_back(static_cast<uint32_t>(v));
      influence.weight_of[j] += w;
    }
  }
  return influence;
}

// The greedy search of chooseJoints: joints removed one at a time, each time the one whose
// removal keeps the largest displacement smallest (then the smallest increase, then the least
// weight moved), scored on the search frames.
class GreedyJointSearch {
 public:
  GreedyJointSearch(const SkinnedMesh& mesh, std::span<const int16_t> parents,
                    JointInfluence influence, const std::vector<JointRows>& search,
                    size_t search_frames)
      : mesh_(mesh),
        parents_(parents),
        joints_(static_cast<int>(parents.size())),
        influence_(std::move(influence)),
        displacement_(mesh, joints_),
        search_(search),
        search_frames_(search_frames),
        map_(joints_),
        members_(joints_),
        error_(mesh.vertexCount(), 0.0f),
        candidates_(joints_),
        stamp_(mesh.vertexCount(), 0) {
    for (int j = 0; j < joints_; ++j) {
      map_[j] = j;
      members_[j] = {j};
    }
  }

  // Removes joints until `target` are kept or the next removal would pass `max_error`.
  void run(int target, float max_error) {
    int kept = joints_;
    while (kept > target) {
      std::tuple<float, double, double> best_key;
      const int best = bestCandidate(best_key);
      if (best < 0 || std::get<0>(best_key) > max_error) break;
      remove(best);
      --kept;
    }
  }

  // The cap holds on the search frames; checks it on every frame (`all_frames` palettes,
  // frame-major), undoing the last removals until it holds there too.
  void holdOnEveryFrame(const std::vector<JointRows>& palettes, size_t all_frames,
                        float max_error) {
    for (;;) {
      float exact = 0.0f;
      for (size_t v = 0; v < mesh_.vertexCount() && exact <= max_error; ++v) {
        exact = std::max(exact, displacement_.vertex(v, map_, palettes.data(), all_frames));
      }
      if (exact <= max_error || removed_.empty()) break;
      const int back = removed_.back();
      removed_.pop_back();
      for (int j = 0; j < joints_; ++j) {
        // Joints that mapped past `back` through it map to it again.
        int a = j;
        while (a != kNoParent && a != back && map_[a] != a) a = parents_[a];
        if (a == back) map_[j] = back;
      }
    }
  }

  // The kept joints, ascending.
  std::vector<uint16_t> kept() const {
    std::vector<uint16_t> result;
    for (int j = 0; j < joints_; ++j) {
      if (map_[j] == j) result.push_back(static_cast<uint16_t>(j));
    }
    return result;
  }
  // The removed joints, in removal order.
  const std::vector<int>& removed() const { return removed_; }

 private:
  // A candidate removal, scored once and re-scored only when a removal touched its vertices.
  struct Candidate {
    bool dirty = true;
    float local_max = 0.0f;  // largest new displacement among the vertices it touches
    double increase = 0.0;   // summed increase of those vertices' displacements
    double weight = 0.0;     // skin weight it moves
    std::vector<uint32_t> touched;
    std::vector<float> new_error;
  };

  // The vertices kept joint `c` and the joints mapped to it influence, each once.
  void touchedBy(int c, std::vector<uint32_t>& out) {
    ++stamp_value_;
    out.clear();
    for (int j : members_[c]) {
      for (uint32_t v : influence_.vertices_of[j]) {
        if (stamp_[v] == stamp_value_) continue;
        stamp_[v] = stamp_value_;
        out.push_back(v);
      }
    }
  }

  void score(int c) {
    Candidate& cand = candidates_[c];
    const int ancestor = map_[parents_[c]];
    touchedBy(c, cand.touched);
    for (int j : members_[c]) map_[j] = ancestor;
    cand.new_error.resize(cand.touched.size());
    cand.local_max = 0.0f;
    cand.increase = 0.0;
    cand.weight = 0.0;
    for (int j : members_[c]) cand.weight += influence_.weight_of[j];
    for (size_t i = 0; i < cand.touched.size(); ++i) {
      const uint32_t v = cand.touched[i];
      cand.new_error[i] = displacement_.vertex(v, map_, search_.data(), search_frames_);
      cand.local_max = std::max(cand.local_max, cand.new_error[i]);
      cand.increase += static_cast<double>(cand.new_error[i]) - error_[v];
    }
    for (int j : members_[c]) map_[j] = c;
    cand.dirty = false;
  }

  // The kept non-root joint whose removal scores best, -1 when none is left; `best_key` gets
  // its score.
  int bestCandidate(std::tuple<float, double, double>& best_key) {
    int best = -1;
    for (int c = 0; c < joints_; ++c) {
      if (map_[c] != c || parents_[c] == kNoParent) continue;
      if (candidates_[c].dirty) score(c);
      const Candidate& cand = candidates_[c];
      const std::tuple<float, double, double> key{std::max(worst_, cand.local_max), cand.increase,
                                                  cand.weight};
      if (best < 0 || key < best_key) {
        best = c;
        best_key = key;
      }
    }
    return best;
  }

  // Removes `best`: its members move to its nearest kept ancestor.
  void remove(int best) {
    Candidate& chosen = candidates_[best];
    const int ancestor = map_[parents_[best]];
    for (int j : members_[best]) {
      map_[j] = ancestor;
      members_[ancestor].push_back(j);
    }
    members_[best].clear();
    for (size_t i = 0; i < chosen.touched.size(); ++i)
      error_[chosen.touched[i]] = chosen.new_error[i];
    worst_ = error_.empty() ? 0.0f : *std::max_element(error_.begin(), error_.end());
    // Every kept joint that influences a changed vertex scores differently now.
    for (uint32_t v : chosen.touched) {
      for (int i = 0; i < kMaxInfluences; ++i) {
        if (mesh_.weights[v][i] > 0.0f) candidates_[map_[mesh_.joints[v][i]]].dirty = true;
      }
    }
    candidates_[ancestor].dirty = true;
    removed_.push_back(best);
  }

  const SkinnedMesh& mesh_;
  std::span<const int16_t> parents_;
  int joints_;
  JointInfluence influence_;
  Displacements displacement_;
  const std::vector<JointRows>& search_;  // search palettes, frame-major
  size_t search_frames_;
  std::vector<int> map_;                   // joint -> its nearest kept ancestor (itself when kept)
  std::vector<std::vector<int>> members_;  // kept joint -> joints mapped to it
  std::vector<float> error_;               // per vertex, over the search frames
  float worst_ = 0.0f;
  std::vector<Candidate> candidates_;
  std::vector<uint32_t> stamp_;  // touchedBy's marks
  uint32_t stamp_value_ = 0;
  std::vector<int> removed_;  // in removal order
};

}  // namespace

Result<std::vector<uint16_t>> chooseJoints(const Character& character, const SkinnedMesh& mesh,
                                           int joint_count, float max_error,
                                           std::vector<uint16_t>* removal_order) {
  const Skeleton& skeleton = character.skeleton;
  const int joints = skeleton.jointCount();
  if (Status s = checkChooseJoints(skeleton, joint_count, max_error); !s.ok()) return s;
  Result<JointInfluence> influence = jointInfluence(mesh, joints);
  if (!influence.ok()) return influence.status();
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

  GreedyJointSearch greedy(mesh, skeleton.parents(), std::move(influence).value(), search,
                           search_frames);
  greedy.run(target, max_error);
  if (search_frames < all_frames && std::isfinite(max_error)) {
    greedy.holdOnEveryFrame(palettes, all_frames, max_error);
  }
  if (removal_order != nullptr) {
    removal_order->assign(greedy.removed().begin(), greedy.removed().end());
  }
  return greedy.kept();
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
  out.p99 = percentile(std::move(vertex_error), kReductionErrorPercentile);
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
