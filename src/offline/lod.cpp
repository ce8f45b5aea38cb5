// LOD chain builder: simplify, then bone-reduce, each level from the full-detail mesh.
#include "throng/offline/lod.h"

#include <algorithm>

#include <fmt/core.h>

#include "throng/offline/bone_reduction.h"
#include "throng/offline/mesh_simplify.h"

namespace throng {

LodChainOptions defaultLodChainOptions() {
  LodChainOptions options;
  options.levels = {{1.0f, 0, 10.0f}, {0.5f, 24, 25.0f}, {0.25f, 15, 60.0f}, {0.125f, 10, 0.0f}};
  return options;
}

Result<std::vector<MeshLod>> buildLodChain(const Character& character,
                                           const LodChainOptions& options) {
  if (options.levels.empty()) {
    return Status(ErrorCode::kInvalidArgument, "lod chain: no levels");
  }
  const int joints = character.skeleton.jointCount();
  const float size = character.size();
  std::vector<MeshLod> lods;
  float previous_ratio = 1.0f;
  int previous_joints = joints;
  float previous_distance = 0.0f;
  for (size_t i = 0; i < options.levels.size(); ++i) {
    const LodLevel& level = options.levels[i];
    const float ratio = level.triangle_ratio == 0.0f ? 1.0f : level.triangle_ratio;
    const int x = level.joint_count == 0 ? joints : std::min(level.joint_count, joints);
    const bool last = i + 1 == options.levels.size();
    if ((i == 0 && (ratio != 1.0f || x != joints)) || ratio > previous_ratio ||
        x > previous_joints || level.max_distance_in_sizes < 0.0f ||
        (level.max_distance_in_sizes == 0.0f) != last ||
        (i > 0 && !last && level.max_distance_in_sizes <= previous_distance)) {
      return Status(
          ErrorCode::kInvalidArgument,
          fmt::format("lod chain: level {} (ratio {}, {} joints, distance {}) must not "
                      "add detail nor come nearer than the level before; level 0 is "
                      "the full mesh and only the last is unlimited",
                      i, level.triangle_ratio, level.joint_count, level.max_distance_in_sizes));
    }
    previous_ratio = ratio;
    previous_joints = x;
    previous_distance = level.max_distance_in_sizes;

    MeshLod lod;
    lod.max_distance = level.max_distance_in_sizes * size;
    Result<SimplifiedMesh> simplified =
        simplifyMesh(character.mesh, {ratio, options.max_relative_error});
    if (!simplified.ok()) return simplified.status();
    lod.geometric_error = simplified->geometric_error;
    if (x == joints) {
      lod.mesh = std::move(simplified->mesh);
    } else {
      Result<BoneReduction> reduced = reduceBones(character, simplified->mesh, x);
      if (!reduced.ok()) return reduced.status();
      lod.mesh = std::move(reduced->mesh);
      lod.palette_joints = std::move(reduced->palette_joints);
      lod.skinning_error = reduced->max_error;
    }
    lods.push_back(std::move(lod));
  }
  return lods;
}

}  // namespace throng
