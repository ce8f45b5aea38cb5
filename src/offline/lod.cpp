// LOD chain builder: simplify, then bone-reduce within the level's error cap, each level from the
// full-detail mesh; drop levels that do not pay for themselves.
#include "throng/offline/lod.h"

#include <algorithm>
#include <chrono>
#include <limits>

#include <fmt/core.h>

#include "offline/lod_error.h"
#include "throng/offline/bone_reduction.h"
#include "throng/offline/mesh_simplify.h"

namespace throng {
namespace {

// Bisection steps over the triangle ratio when the target's error passes the cap: the ratio
// found is within 2^-6 of the smallest that fits.
constexpr int kRatioSearchSteps = 6;

// A simplified mesh and its measured error (full skeleton).
struct Simplified {
  SimplifiedMesh mesh;
  LodError error;
};

int paletteSize(const MeshLod& lod, int joints) {
  return lod.palette_joints.empty() ? joints : static_cast<int>(lod.palette_joints.size());
}

// Joints level `level` keeps: its joint_count, capped by the skeleton's (0: every joint).
int levelJoints(const LodLevel& level, int joints) {
  return level.joint_count == 0 ? joints : std::min(level.joint_count, joints);
}

// The chain's projection and threshold, and that it has levels.
Status checkProjection(const LodChainOptions& options) {
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
  return {};
}

// Every level checked before the (slow) building.
Status checkLevels(const LodChainOptions& options, int joints) {
  float previous_ratio = 1.0f;
  int previous_joints = joints;
  for (size_t i = 0; i < options.levels.size(); ++i) {
    const LodLevel& level = options.levels[i];
    const int x = levelJoints(level, joints);
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
  return {};
}

// The full mesh simplified toward `ratio`, with and without the joint borders kept, whichever
// strays less once skinned (on the search frames, or on every frame); a result on target wins
// over one that is not. The full mesh itself (error 0) for a ratio of 1 or more.
Result<Simplified> simplifyToward(const Character& character, const LodErrorMeter& meter,
                                  float ratio, float max_error, bool every_frame) {
  const size_t full_triangles = character.mesh.triangleCount();
  Simplified best;
  best.mesh.mesh = character.mesh;
  best.mesh.target_triangles = full_triangles;
  if (ratio >= 1.0f) return best;
  auto onTarget = [](const SimplifiedMesh& m) {
    return static_cast<double>(m.mesh.triangleCount()) <=
           static_cast<double>(m.target_triangles) * (1.0 + kSimplifyTargetSlack);
  };
  bool found = false;
  for (bool borders : {true, false}) {
    SimplifyOptions simplify;
    simplify.triangle_ratio = ratio;
    simplify.max_relative_error = max_error;
    simplify.keep_joint_borders = borders;
    simplify.measure_error = false;  // the skinned error below is the one that counts
    Result<SimplifiedMesh> tried = simplifyMesh(character.mesh, simplify);
    if (!tried.ok()) return tried.status();
    if (tried->mesh.triangleCount() >= full_triangles) continue;
    const LodError e = meter.measure(tried->mesh, {}, every_frame);
    const bool on_target = onTarget(*tried);
    const bool best_on_target = found && onTarget(best.mesh);
    if (!found || (on_target && !best_on_target) ||
        (on_target == best_on_target && e.max < best.error.max)) {
      best = {std::move(*tried), e};
      found = true;
    }
  }
  return best;
}

// Simplifies toward the level's ratio; when that passes the cap (meshoptimizer caps only its
// bind-pose estimate), searches the smallest reduction back toward the full mesh (error 0) that
// stays within it: on the search frames, then on every frame. `ratio_raised` tells whether the
// cap cost triangles; lr.target_triangles gets the target.
Result<Simplified> simplifyWithinCap(const Character& character, const LodErrorMeter& meter,
                                     const LodLevel& level, float cap, LodLevelReport& lr,
                                     bool& ratio_raised) {
  auto attempt = [&](float ratio, bool every_frame) {
    return simplifyToward(character, meter, ratio, level.max_error, every_frame);
  };
  Result<Simplified> simplified = attempt(level.triangle_ratio, false);
  if (!simplified.ok()) return simplified.status();
  lr.target_triangles = simplified->mesh.target_triangles;
  float lo = level.triangle_ratio, hi = 1.0f;
  if (simplified->error.max > cap) {
    ratio_raised = true;
    Simplified best;  // the full mesh: error 0
    best.mesh.mesh = character.mesh;
    for (int step = 0; step < kRatioSearchSteps; ++step) {
      const float mid = 0.5f * (lo + hi);
      Result<Simplified> tried = attempt(mid, false);
      if (!tried.ok()) return tried.status();
      if (tried->error.max <= cap) {
        hi = mid;
        best = std::move(*tried);
      } else {
        lo = mid;
      }
    }
    best.mesh.target_triangles = lr.target_triangles;
    *simplified = std::move(best);
  }
  // The search frames hold; every frame decides. Past the cap there, reduce less.
  if (simplified->mesh.mesh.triangleCount() < character.mesh.triangleCount()) {
    simplified->error = meter.measure(simplified->mesh.mesh, {}, true);
  }
  while (simplified->error.max > cap) {
    ratio_raised = true;
    hi = 0.5f * (hi + 1.0f);
    simplified = attempt(hi > 0.99f ? 1.0f : hi, true);
    if (!simplified.ok()) return simplified.status();
  }
  return simplified;
}

// Bone reduction of lod.mesh toward `x` joints: its greedy search gets what simplification left
// of the cap; the whole LOD is then measured, and joints come back (the greedy order undone)
// while it passes the cap, on the search frames and then on every frame. Updates `lod` when a
// joint goes.
Status reduceBonesWithinCap(const Character& character, const LodErrorMeter& meter, int x,
                            float cap, MeshLod& lod, LodLevelReport& lr) {
  const int joints = character.skeleton.jointCount();
  Result<BoneReduction> reduced =
      reduceBones(character, lod.mesh, x, std::max(0.0f, cap - lod.geometric_error));
  if (!reduced.ok()) return reduced.status();
  // The greedy search stopped k removals earlier: its removal order, minus the last k.
  std::vector<uint16_t> removal_order = std::move(reduced->removal_order);
  std::vector<uint16_t> palette = reduced->palette_joints;
  SkinnedMesh mesh = std::move(reduced->mesh);
  float skinning_error = reduced->max_error;
  LodError total;
  for (bool every_frame : {false, true}) {
    total = meter.measure(mesh, palette, every_frame);
    while (total.max > cap && !removal_order.empty()) {
      palette.insert(std::upper_bound(palette.begin(), palette.end(), removal_order.back()),
                     removal_order.back());
      removal_order.pop_back();
      if (removal_order.empty()) break;  // every joint: the simplified mesh as it is
      Result<SkinnedMesh> remapped = remapToPalette(character, lod.mesh, palette);
      if (!remapped.ok()) return remapped.status();
      mesh = std::move(*remapped);
      skinning_error = measureReductionError(character, lod.mesh, mesh, palette).max;
      total = meter.measure(mesh, palette, every_frame);
    }
  }
  const int kept = static_cast<int>(palette.size());
  lr.joints_capped = kept > x;
  if (kept < joints) {
    lod.mesh = std::move(mesh);
    lod.palette_joints = std::move(palette);
    lod.skinning_error = skinning_error;
    lod.max_error = total.max;
    lod.p99_error = total.p99;
  }
  return {};
}

// A warning about level `level` of the chain, its subject "level N".
Warning levelWarning(WarningKind kind, size_t level, std::string message) {
  return makeWarning(kind, std::move(message), fmt::format("level {}", level)).with("level", level);
}

// Level `i`'s LOD, simplified then bone-reduced within its cap, from the full mesh; its report
// in `lr` and its warnings in rep.
Result<MeshLod> buildLevel(const Character& character, const LodErrorMeter& meter,
                           const LodLevel& level, size_t i, LodLevelReport& lr,
                           LodChainReport& rep) {
  const int joints = character.skeleton.jointCount();
  const int x = levelJoints(level, joints);
  lr.level = static_cast<int>(i);
  lr.target_joints = x;
  MeshLod lod;
  const float cap = level.max_error * character.size();
  bool ratio_raised = false;
  if (i == 0) {
    lod.mesh = character.mesh;  // the full mesh, exact
    lr.target_triangles = character.mesh.triangleCount();
  } else {
    Result<Simplified> simplified =
        simplifyWithinCap(character, meter, level, cap, lr, ratio_raised);
    if (!simplified.ok()) return simplified.status();
    const LodError error = simplified->error;
    lr.sloppy = simplified->mesh.sloppy;
    lod.geometric_error = error.max;
    lod.mesh = std::move(simplified->mesh.mesh);
    lod.max_error = error.max;
    lod.p99_error = error.p99;
  }
  if (x < joints) {
    if (Status s = reduceBonesWithinCap(character, meter, x, cap, lod, lr); !s.ok()) return s;
  }
  lr.triangles = lod.mesh.triangleCount();
  lr.joints = paletteSize(lod, joints);
  lr.max_error = lod.max_error;
  lr.p99_error = lod.p99_error;
  if (lr.sloppy) {
    rep.warnings.push_back(
        levelWarning(WarningKind::kLodClustered, i,
                     fmt::format("LOD level {}: the edge-collapse simplifier stopped short of {} "
                                 "triangles; vertex clustering reached {}",
                                 i, lr.target_triangles, lr.triangles))
            .with("target_triangles", lr.target_triangles)
            .with("triangles", lr.triangles));
  }
  if (ratio_raised) {
    rep.warnings.push_back(
        levelWarning(WarningKind::kLodTrianglesKept, i,
                     fmt::format("LOD level {}: {} triangles, not {}: fewer would pass its error "
                                 "cap of {:.3g}% of the height once skinned",
                                 i, lr.triangles, lr.target_triangles, 100.0f * level.max_error))
            .with("triangles", lr.triangles)
            .with("target_triangles", lr.target_triangles)
            .with("error_cap", static_cast<double>(level.max_error)));
  } else if (i > 0 && static_cast<double>(lr.triangles) >
                          static_cast<double>(lr.target_triangles) * (1.0 + kSimplifyTargetSlack)) {
    rep.warnings.push_back(
        levelWarning(WarningKind::kLodTrianglesShort, i,
                     fmt::format("LOD level {}: {} triangles, short of the target {} (the mesh's "
                                 "shape, or its error cap of {:.3g}% of the height)",
                                 i, lr.triangles, lr.target_triangles, 100.0f * level.max_error))
            .with("triangles", lr.triangles)
            .with("target_triangles", lr.target_triangles)
            .with("error_cap", static_cast<double>(level.max_error)));
  }
  if (lr.joints_capped) {
    rep.warnings.push_back(
        levelWarning(WarningKind::kLodJointsKept, i,
                     fmt::format("LOD level {}: keeps {} joints, not {}: removing more would pass "
                                 "its error cap of {:.3g}% of the height",
                                 i, lr.joints, x, 100.0f * level.max_error))
            .with("joints", lr.joints)
            .with("target_joints", x)
            .with("error_cap", static_cast<double>(level.max_error)));
  }
  return lod;
}

// The chain so far, and the level each LOD came from.
struct Chain {
  std::vector<MeshLod> lods;
  std::vector<size_t> level_of_lod;
};

// Appends level i's LOD unless it removes too little from the LOD before; a coarser LOD with no
// more error drops the finer ones before it (they would never be picked).
void addToChain(MeshLod lod, size_t i, const LodLevelReport& lr, int joints, float size,
                Chain& chain, LodChainReport& rep) {
  if (!chain.lods.empty()) {
    const MeshLod& before = chain.lods.back();
    const double kept_triangles =
        static_cast<double>(lr.triangles) /
        std::max<double>(1.0, static_cast<double>(before.mesh.triangleCount()));
    const double kept_joints = static_cast<double>(lr.joints) / paletteSize(before, joints);
    if (kept_triangles > 1.0 - kMinLodReduction && kept_joints > 1.0 - kMinLodReduction) {
      rep.warnings.push_back(
          levelWarning(WarningKind::kLodLevelDropped, i,
                       fmt::format("LOD level {} dropped: {} triangles and {} joints remove less "
                                   "than {:.0f}% of the previous LOD's {} triangles and {} joints",
                                   i, lr.triangles, lr.joints, 100.0f * kMinLodReduction,
                                   before.mesh.triangleCount(), paletteSize(before, joints)))
              .with("reason", "too_close")
              .with("triangles", lr.triangles)
              .with("joints", lr.joints));
      return;
    }
  }
  while (chain.lods.size() > 1 && chain.lods.back().max_error >= lod.max_error) {
    const size_t dropped = chain.level_of_lod.back();
    rep.warnings.push_back(
        levelWarning(WarningKind::kLodLevelDropped, dropped,
                     fmt::format("LOD level {} dropped: level {} is coarser with no larger error "
                                 "({:.3g}% against {:.3g}% of the height), so it would never be "
                                 "picked",
                                 dropped, i, 100.0f * lod.max_error / size,
                                 100.0f * chain.lods.back().max_error / size))
            .with("reason", "never_picked")
            .with("coarser_level", i));
    chain.lods.pop_back();
    chain.level_of_lod.pop_back();
  }
  chain.lods.push_back(std::move(lod));
  chain.level_of_lod.push_back(i);
}

// Switch distances, measured to the agent's origin: LOD i is used until LOD i+1 is first picked
// on screen, whose distance is to the agent's nearest point, at most `reach` nearer. A distance
// of 0 means "no limit", so a LOD never used would get the smallest positive one.
void setSwitchDistances(const Character& character, const LodChainOptions& options, Chain& chain,
                        LodChainReport& rep) {
  std::vector<MeshLod>& lods = chain.lods;
  float reach = 0.0f;
  for (const glm::vec3& p : character.mesh.positions) reach = std::max(reach, glm::length(p));
  for (size_t l = 0; l < lods.size(); ++l) {
    lods[l].max_distance =
        l + 1 < lods.size()
            ? std::max(std::numeric_limits<float>::min(),
                       reach + errorDistance(lods[l + 1].max_error, options.projection,
                                             options.threshold_px))
            : 0.0f;
  }
  for (size_t l = 0; l < lods.size(); ++l) {
    LodLevelReport& lr = rep.levels[chain.level_of_lod[l]];
    lr.lod = static_cast<int>(l);
    lr.pick_distance =
        l == 0 ? 0.0f : errorDistance(lods[l].max_error, options.projection, options.threshold_px);
  }
}

}  // namespace

LodChainOptions defaultLodChainOptions() {
  LodChainOptions options;
  options.levels = {{1.0f, 0, 0.0f}, {0.5f, 24, 0.1f}, {0.25f, 15, 0.15f}, {0.125f, 10, 0.25f}};
  return options;
}

Result<std::vector<MeshLod>> buildLodChain(const Character& character,
                                           const LodChainOptions& options, LodChainReport* report) {
  if (Status s = checkProjection(options); !s.ok()) return s;
  const int joints = character.skeleton.jointCount();
  const float size = character.size();
  LodChainReport local;
  LodChainReport& rep = report != nullptr ? *report : local;
  rep = LodChainReport{};
  rep.character_size = size;
  if (Status s = checkLevels(options, joints); !s.ok()) return s;

  const LodErrorMeter meter(character);
  Chain chain;
  for (size_t i = 0; i < options.levels.size(); ++i) {
    const auto start = std::chrono::steady_clock::now();
    LodLevelReport lr;
    Result<MeshLod> lod = buildLevel(character, meter, options.levels[i], i, lr, rep);
    if (!lod.ok()) return lod.status();
    lr.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    rep.levels.push_back(lr);
    addToChain(std::move(lod).value(), i, lr, joints, size, chain, rep);
    if (options.progress) {
      options.progress(static_cast<uint32_t>(i + 1), static_cast<uint32_t>(options.levels.size()));
    }
  }
  setSwitchDistances(character, options, chain, rep);
  return std::move(chain.lods);
}

}  // namespace throng
