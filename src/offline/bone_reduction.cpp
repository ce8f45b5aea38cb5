// Bone reduction: greedy joint choice by carried weight and motion, re-skinning, error measure.
#include "throng/offline/bone_reduction.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <tuple>

#include <fmt/core.h>

#include "throng/core/pose.h"
#include "throng/core/skinning.h"

namespace throng {
namespace {

// Joint scoring skins every weighted vertex against each of its ancestors in every sampled
// frame; frames beyond this count are strided over to keep the cost bounded on long clips.
constexpr size_t kMaxScoringFrames = 64;
// The swap refinement stops after this many improving swaps (each round tries every pair).
constexpr int kMaxSwapRounds = 64;

// Every sample time of every clip at `fps` (both ends), or one rest-pose "frame" when there are
// no clips: the palettes of those poses, frame-major (frames x joints).
std::vector<JointRows> samplePalettes(const Character& character, float fps, size_t* frames) {
  const Skeleton& skeleton = character.skeleton;
  const size_t joints = static_cast<size_t>(skeleton.jointCount());
  std::vector<JointRows> palettes;
  PoseScratch scratch;
  auto add = [&](const Clip* clip, float time) {
    palettes.resize(palettes.size() + joints);
    evaluatePalette(skeleton, clip, time, scratch,
                    std::span<JointRows>(palettes.data() + palettes.size() - joints, joints));
  };
  for (const Clip& clip : character.clips) {
    const int steps = static_cast<int>(std::ceil(clip.duration() * fps - 1e-4f));
    for (int i = 0; i <= steps; ++i) {
      add(&clip, std::min(clip.start_time + static_cast<float>(i) / fps, clip.end_time));
    }
  }
  if (palettes.empty()) add(nullptr, 0.0f);
  *frames = joints == 0 ? 0 : palettes.size() / joints;
  return palettes;
}

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

}  // namespace

Result<std::vector<uint16_t>> chooseJoints(const Character& character, const SkinnedMesh& mesh,
                                           int joint_count) {
  const Skeleton& skeleton = character.skeleton;
  const int joints = skeleton.jointCount();
  const std::span<const int16_t> parents = skeleton.parents();
  if (joint_count < 1) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("bone reduction: cannot keep {} joints", joint_count));
  }
  std::vector<bool> kept(joints, false);
  int kept_count = 0;
  for (int j = 0; j < joints; ++j) {
    if (parents[j] == kNoParent) {
      kept[j] = true;
      ++kept_count;
    }
  }
  if (kept_count > joint_count) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("bone reduction: the skeleton has {} roots, more than the {} joints "
                              "to keep",
                              kept_count, joint_count));
  }

  // cost[r][k]: estimated deviation when joint r's weights move to its k-th ancestor (k = 0: r).
  size_t frame_count = 0;
  const std::vector<JointRows> palettes =
      samplePalettes(character, kReductionSampleFps, &frame_count);
  const size_t stride =
      std::max<size_t>(1, (frame_count + kMaxScoringFrames - 1) / kMaxScoringFrames);
  std::vector<std::vector<int>> chains(joints);
  for (int j = 0; j < joints; ++j) {
    for (int a = j; a != kNoParent; a = parents[a]) chains[j].push_back(a);
  }
  std::vector<std::vector<double>> cost(joints);
  std::vector<double> weight(joints, 0.0);  // total skin weight bound to each joint
  for (int j = 0; j < joints; ++j) cost[j].assign(chains[j].size(), 0.0);
  std::vector<float> deviation;
  // Per influence (vertex-major, kMaxInfluences slots): its deviation when bound to each ancestor
  // on its joint's chain, stored at influence_offset[..] + k. Drives the worst-vertex refinement.
  std::vector<size_t> influence_offset(mesh.vertexCount() * kMaxInfluences, SIZE_MAX);
  std::vector<float> influence_deviation;
  for (size_t v = 0; v < mesh.vertexCount(); ++v) {
    for (int i = 0; i < kMaxInfluences; ++i) {
      const float w = mesh.weights[v][i];
      const int r = mesh.joints[v][i];
      if (!(w > 0.0f) || r >= joints) continue;
      weight[r] += w;
      deviation.assign(chains[r].size(), 0.0f);
      for (size_t f = 0; f < frame_count; f += stride) {
        const JointRows* pose = palettes.data() + f * joints;
        const glm::vec3 at_r = transformPoint(pose[r], mesh.positions[v]);
        for (size_t k = 1; k < chains[r].size(); ++k) {
          const glm::vec3 at_a = transformPoint(pose[chains[r][k]], mesh.positions[v]);
          deviation[k] = std::max(deviation[k], glm::length(at_r - at_a));
        }
      }
      for (size_t k = 1; k < chains[r].size(); ++k) cost[r][k] += w * deviation[k];
      influence_offset[v * kMaxInfluences + static_cast<size_t>(i)] = influence_deviation.size();
      influence_deviation.insert(influence_deviation.end(), deviation.begin(), deviation.end());
    }
  }
  // Weight under each joint's subtree, the tie-break when no candidate lowers the estimate.
  std::vector<double> subtree_weight = weight;
  for (int j = joints - 1; j >= 0; --j) {
    if (parents[j] != kNoParent) subtree_weight[parents[j]] += subtree_weight[j];
  }
  auto costTo = [&](int r, int ancestor) {
    const auto it = std::find(chains[r].begin(), chains[r].end(), ancestor);
    return cost[r][static_cast<size_t>(it - chains[r].begin())];
  };

  const int target = std::min(joint_count, joints);
  while (kept_count < target) {
    std::vector<int> nearest(joints);
    for (int r = 0; r < joints; ++r) nearest[r] = nearestKept(parents, kept, r);
    int best = -1;
    std::tuple<double, double> best_key{-1.0, -1.0};
    for (int j = 0; j < joints; ++j) {
      if (kept[j]) continue;
      double gain = 0.0;
      for (int r = 0; r < joints; ++r) {
        // r re-binds to j when j is on r's chain below r's current nearest kept ancestor.
        if (kept[r] || nearest[r] != nearest[j]) continue;
        if (std::find(chains[r].begin(), chains[r].end(), j) == chains[r].end()) continue;
        gain += costTo(r, nearest[r]) - costTo(r, j);
      }
      const std::tuple<double, double> key{gain, subtree_weight[j]};
      if (key > best_key) {
        best_key = key;
        best = j;
      }
    }
    kept[best] = true;
    ++kept_count;
  }
  // The greedy pass minimises the summed deviation; the error users see is the worst vertex.
  // Refine by swapping a kept joint for an unkept one while the worst vertex's bound
  // (sum over its influences of weight x deviation to the nearest kept ancestor) drops.
  std::vector<size_t> level(joints);
  auto worstVertex = [&](const std::vector<bool>& keep) {
    for (int r = 0; r < joints; ++r) {
      size_t k = 0;
      while (!keep[chains[r][k]]) ++k;  // roots are always kept
      level[r] = k;
    }
    float worst = 0.0f;
    for (size_t v = 0; v < mesh.vertexCount(); ++v) {
      float bound = 0.0f;
      for (int i = 0; i < kMaxInfluences; ++i) {
        const size_t offset = influence_offset[v * kMaxInfluences + static_cast<size_t>(i)];
        if (offset == SIZE_MAX) continue;
        const int r = mesh.joints[v][i];
        bound += mesh.weights[v][i] * influence_deviation[offset + level[r]];
      }
      worst = std::max(worst, bound);
    }
    return worst;
  };
  float current = worstVertex(kept);
  for (int round = 0; round < kMaxSwapRounds; ++round) {
    int best_out = -1, best_in = -1;
    float best = current;
    for (int out = 0; out < joints; ++out) {
      if (!kept[out] || parents[out] == kNoParent) continue;
      for (int in = 0; in < joints; ++in) {
        if (kept[in]) continue;
        kept[out] = false;
        kept[in] = true;
        const float candidate = worstVertex(kept);
        kept[in] = false;
        kept[out] = true;
        if (candidate < best * (1.0f - 1e-4f)) {
          best = candidate;
          best_out = out;
          best_in = in;
        }
      }
    }
    if (best_out < 0) break;
    kept[best_out] = false;
    kept[best_in] = true;
    current = best;
  }

  std::vector<uint16_t> result;
  for (int j = 0; j < joints; ++j) {
    if (kept[j]) result.push_back(static_cast<uint16_t>(j));
  }
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

float measureReductionError(const Character& character, const SkinnedMesh& full,
                            const SkinnedMesh& reduced, std::span<const uint16_t> palette_joints) {
  assert(full.vertexCount() == reduced.vertexCount());
  const size_t joints = static_cast<size_t>(character.skeleton.jointCount());
  size_t frame_count = 0;
  const std::vector<JointRows> palettes =
      samplePalettes(character, kReductionSampleFps, &frame_count);
  std::vector<JointRows> slots(palette_joints.size());
  std::vector<glm::vec3> a(full.vertexCount()), b(full.vertexCount());
  float worst = 0.0f;
  for (size_t f = 0; f < frame_count; ++f) {
    const std::span<const JointRows> pose(palettes.data() + f * joints, joints);
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = pose[palette_joints[s]];
    [[maybe_unused]] const bool ran_full =
        SkinJob{full.positions, {}, full.joints, full.weights, pose, a, {}}.run();
    [[maybe_unused]] const bool ran_reduced =
        SkinJob{reduced.positions, {}, reduced.joints, reduced.weights, slots, b, {}}.run();
    assert(ran_full && ran_reduced);
    for (size_t v = 0; v < a.size(); ++v) worst = std::max(worst, glm::length(a[v] - b[v]));
  }
  return worst;
}

Result<BoneReduction> reduceBones(const Character& character, const SkinnedMesh& mesh,
                                  int joint_count) {
  Result<std::vector<uint16_t>> chosen = chooseJoints(character, mesh, joint_count);
  if (!chosen.ok()) return chosen.status();
  Result<SkinnedMesh> remapped = remapToPalette(character, mesh, *chosen);
  if (!remapped.ok()) return remapped.status();
  BoneReduction out;
  out.palette_joints = std::move(*chosen);
  out.mesh = std::move(*remapped);
  out.max_error = measureReductionError(character, mesh, out.mesh, out.palette_joints);
  const float size = character.size();
  out.error_fraction = size > 0.0f ? out.max_error / size : 0.0f;
  return out;
}

}  // namespace throng
