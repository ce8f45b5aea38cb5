// LOD chain builder: simplify, then bone-reduce within the level's error cap, each level from the
// full-detail mesh; drop levels that do not pay for themselves.
#include "throng/offline/lod.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/core.h>

#include "throng/offline/bone_reduction.h"
#include "throng/offline/mesh_simplify.h"

namespace throng {
namespace {

int paletteSize(const MeshLod& lod, int joints) {
  return lod.palette_joints.empty() ? joints : static_cast<int>(lod.palette_joints.size());
}

}  // namespace

LodChainOptions defaultLodChainOptions() {
  LodChainOptions options;
  options.levels = {{1.0f, 0, 0.0f}, {0.5f, 24, 0.03f}, {0.25f, 15, 0.08f}, {0.125f, 10, 0.2f}};
  return options;
}

Result<std::vector<MeshLod>> buildLodChain(const Character& character,
                                           const LodChainOptions& options, LodChainReport* report) {
  if (options.levels.empty()) {
    return Status(ErrorCode::kInvalidArgument, "lod chain: no levels");
  }
  if (!(options.threshold_px > 0.0f) || !(options.projection.viewport_height_px > 0.0f) ||
      !(options.projection.fov_y > 0.0f && options.projection.fov_y < 3.14159f)) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("lod chain: projection (fov {} rad, {} px) or threshold {} px is "
                              "not positive",
                              options.projection.fov_y, options.projection.viewport_height_px,
                              options.threshold_px));
  }
  const int joints = character.skeleton.jointCount();
  const float size = character.size();
  LodChainReport local;
  LodChainReport& rep = report != nullptr ? *report : local;
  rep = LodChainReport{};
  rep.character_size = size;

  // Check every level before the (slow) building.
  float previous_ratio = 1.0f;
  int previous_joints = joints;
  for (size_t i = 0; i < options.levels.size(); ++i) {
    const LodLevel& level = options.levels[i];
    const int x = level.joint_count == 0 ? joints : std::min(level.joint_count, joints);
    if ((i == 0 && (level.triangle_ratio != 1.0f || x != joints)) ||
        !(level.triangle_ratio > 0.0f && level.triangle_ratio <= previous_ratio) ||
        level.joint_count < 0 || x > previous_joints ||
        !(level.max_error >= 0.0f && level.max_error <= 1e6f)) {
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("lod chain: level {} (ratio {}, {} joints, error cap {}) must not add "
                      "detail to the level before, with a ratio in (0, 1] and a non-negative "
                      "cap; level 0 is the full mesh with every joint",
                      i, level.triangle_ratio, level.joint_count, level.max_error));
    }
    previous_ratio = level.triangle_ratio;
    previous_joints = x;
  }

  std::vector<MeshLod> lods;
  std::vector<size_t> level_of_lod;
  for (size_t i = 0; i < options.levels.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    const LodLevel& level = options.levels[i];
    const int x = level.joint_count == 0 ? joints : std::min(level.joint_count, joints);
    LodLevelReport lr;
    lr.level = static_cast<int>(i);
    lr.target_joints = x;

    MeshLod lod;
    SimplifyOptions simplify;
    simplify.triangle_ratio = level.triangle_ratio;
    simplify.max_relative_error = level.max_error;
    Result<SimplifiedMesh> simplified = simplifyMesh(character.mesh, simplify);
    if (!simplified.ok()) return simplified.status();
    lr.target_triangles = simplified->target_triangles;
    lr.sloppy = simplified->sloppy;
    lod.geometric_error = simplified->geometric_error;
    if (x == joints) {
      lod.mesh = std::move(simplified->mesh);
      lod.max_error = lod.p99_error = lod.geometric_error;
    } else {
      // What the cap leaves after simplification goes to bone reduction (model units).
      const float cap = std::max(0.0f, level.max_error * size - lod.geometric_error);
      Result<BoneReduction> reduced = reduceBones(character, simplified->mesh, x, cap);
      if (!reduced.ok()) return reduced.status();
      lr.joints_capped = reduced->capped;
      if (static_cast<int>(reduced->palette_joints.size()) < joints) {
        lod.mesh = std::move(reduced->mesh);
        lod.palette_joints = std::move(reduced->palette_joints);
        lod.skinning_error = reduced->max_error;
      } else {
        lod.mesh = std::move(simplified->mesh);  // every joint kept: palette slots are joints
      }
      lod.max_error = lod.geometric_error + lod.skinning_error;
      lod.p99_error =
          lod.geometric_error + (lod.palette_joints.empty() ? 0.0f : reduced->p99_error);
    }
    lr.triangles = lod.mesh.triangleCount();
    lr.joints = paletteSize(lod, joints);
    lr.max_error = lod.max_error;
    lr.p99_error = lod.p99_error;
    lr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    if (lr.sloppy) {
      rep.warnings.push_back(
          fmt::format("LOD level {}: the edge-collapse simplifier stopped "
                      "short of {} triangles; vertex clustering reached {}",
                      i, lr.target_triangles, lr.triangles));
    }
    if (i > 0 && static_cast<double>(lr.triangles) >
                     static_cast<double>(lr.target_triangles) * (1.0 + kSimplifyTargetSlack)) {
      rep.warnings.push_back(
          fmt::format("LOD level {}: {} triangles, short of the target {} "
                      "(error cap {:.3g}% of the height)",
                      i, lr.triangles, lr.target_triangles, 100.0f * level.max_error));
    }
    if (lr.joints_capped) {
      rep.warnings.push_back(
          fmt::format("LOD level {}: keeps {} joints, not {}: removing more "
                      "would pass its error cap of {:.3g}% of the height",
                      i, lr.joints, x, 100.0f * level.max_error));
    }
    rep.levels.push_back(lr);

    if (!lods.empty()) {
      const MeshLod& before = lods.back();
      const double kept_triangles =
          static_cast<double>(lr.triangles) /
          std::max<double>(1.0, static_cast<double>(before.mesh.triangleCount()));
      const double kept_joints = static_cast<double>(lr.joints) / paletteSize(before, joints);
      if (kept_triangles > 1.0 - kMinLodReduction && kept_joints > 1.0 - kMinLodReduction) {
        rep.warnings.push_back(fmt::format(
            "LOD level {} dropped: {} triangles and {} joints remove less than {:.0f}% of the "
            "previous LOD's {} triangles and {} joints",
            i, lr.triangles, lr.joints, 100.0f * kMinLodReduction, before.mesh.triangleCount(),
            paletteSize(before, joints)));
        continue;
      }
    }
    // A coarser level with no more error makes the finer ones before it useless (never picked).
    while (lods.size() > 1 && lods.back().max_error >= lod.max_error) {
      const size_t dropped = level_of_lod.back();
      rep.warnings.push_back(fmt::format(
          "LOD level {} dropped: level {} is coarser with no larger error ({:.3g}% against "
          "{:.3g}% of the height), so it would never be picked",
          dropped, i, 100.0f * lod.max_error / size, 100.0f * lods.back().max_error / size));
      lods.pop_back();
      level_of_lod.pop_back();
    }
    lods.push_back(std::move(lod));
    level_of_lod.push_back(i);
  }

  // Switch distances: LOD i is used until LOD i+1 is first picked on screen. A distance of 0
  // means "no limit", so a LOD that is never picked (LOD 0 before a LOD without error) gets the
  // smallest positive one.
  for (size_t l = 0; l < lods.size(); ++l) {
    lods[l].max_distance = l + 1 < lods.size()
                               ? std::max(std::numeric_limits<float>::min(),
                                          errorDistance(lods[l + 1].max_error, options.projection,
                                                        options.threshold_px))
                               : 0.0f;
  }
  for (size_t l = 0; l < lods.size(); ++l) {
    LodLevelReport& lr = rep.levels[level_of_lod[l]];
    lr.lod = static_cast<int>(l);
    lr.pick_distance =
        l == 0 ? 0.0f : errorDistance(lods[l].max_error, options.projection, options.threshold_px);
  }
  return lods;
}

}  // namespace throng
