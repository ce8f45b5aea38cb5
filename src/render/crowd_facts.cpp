// A crowd renderer's checks of its package and desc, and the facts its passes read.
#include "render/crowd_facts.h"

#include "throng/crowd/layer_palette.h"

#include <algorithm>

#include <fmt/core.h>

#include "render/material_draws.h"
#include "render/passes/cull_lod_pass.h"
#include "throng/crowd/lod_select.h"

namespace throng::render {
namespace {

// Default shadow radius against the character's bind-pose footprint, and its bounds in heights
// (a T-pose's arms make the footprint wide; a thin mesh still casts a visible shadow).
constexpr float kShadowFootprintScale = 0.8f;
constexpr float kMinShadowRadius = 0.15f;
constexpr float kMaxShadowRadius = 0.35f;

Status checkDesc(const Package& package, const CrowdRendererDesc& desc, const std::string& source) {
  if (static_cast<int>(desc.path) >= kRenderPathCount) {
    return Status(
        ErrorCode::kInvalidArgument,
        fmt::format("crowd renderer: render path {} does not exist", static_cast<int>(desc.path)));
  }
  if (package.lods.empty() || package.clips.empty()) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: a crowd needs at least one LOD and one clip ({} LODs, {} "
                              "clips)",
                              source, package.lods.size(), package.clips.size()));
  }
  if (package.lods.size() > kMaxDrawnLods) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} LODs, more than the {} a crowd can pick from", source,
                              package.lods.size(), kMaxDrawnLods));
  }
  // The impostor is the LOD past the meshes when it is drawn.
  const size_t lods = package.lods.size() + (desc.impostors && !package.impostor.empty() ? 1 : 0);
  if (desc.fixed_lod && (*desc.fixed_lod < 0 || *desc.fixed_lod >= static_cast<int>(lods))) {
    return Status(ErrorCode::kInvalidArgument,
                  fmt::format("{}: LOD {} asked for; the package has LODs 0..{}", source,
                              *desc.fixed_lod, lods - 1));
  }
  return Status::okStatus();
}

}  // namespace

Status gatherCrowdFacts(const Package& package, const CrowdRendererDesc& desc, CrowdFacts& out) {
  out.source = package.source.empty() ? "package" : package.source;
  if (Status s = checkDesc(package, desc, out.source); !s.ok()) return s;
  out.clips = package.clips;
  out.mask_ranges.clear();
  for (const JointMask& mask : package.masks)
    out.mask_ranges.push_back(jointRange(package.skeleton, mask.root));
  out.pivots = package.masks.empty() ? std::vector<glm::vec3>() : jointPivots(package.skeleton);
  for (const BakedClip& clip : out.clips) {
    out.clip_spheres.push_back(clipAxisSphere(clip.bounds));
    out.playback_clips.push_back(playbackClip(clip));
  }
  const Bounds bind = computeBounds(package.lods[0].mesh.positions);
  out.character_height = std::max(bind.size().y, 1e-3f);
  out.character_footprint =
      std::clamp(0.5f * kShadowFootprintScale * std::max(bind.size().x, bind.size().z),
                 kMinShadowRadius * out.character_height, kMaxShadowRadius * out.character_height);
  const int skeleton_joints = package.skeleton.jointCount();
  for (const MeshLod& lod : package.lods) {
    LodDrawInfo info;
    info.drawn_lod = static_cast<int>(out.lod_info.size());
    info.error = lod.max_error;
    info.joints =
        lod.palette_joints.empty() ? skeleton_joints : static_cast<int>(lod.palette_joints.size());
    info.triangles = lod.mesh.triangleCount();
    std::vector<uint32_t> grouped;
    info.materials =
        static_cast<int>(groupIndicesByMaterial(lod.mesh, package.materials, grouped)->size());
    out.lod_info.push_back(info);
    MeshLod limits = lod;  // everything the LOD rule may read, but not the mesh
    limits.mesh = {};
    out.lods.push_back(std::move(limits));
  }
  out.reach = lodReach(package.lods);
  return Status::okStatus();
}

void appendImpostorLod(const Package& package, CrowdFacts& out) {
  const Impostor& impostor = package.impostor;
  out.impostor_lod = static_cast<int>(out.lods.size());
  LodDrawInfo info;
  info.drawn_lod = out.impostor_lod;
  info.error = impostor.max_error;
  info.triangles = 2;
  info.materials = 1;
  out.lod_info.push_back(info);
  MeshLod limits;
  limits.max_error = impostor.max_error;
  out.lods.push_back(std::move(limits));
  if (!out.drawn_lod.empty()) out.drawn_lod.push_back(static_cast<uint8_t>(out.impostor_lod));
  out.impostor_reason = fmt::format(
      "drawn as LOD {} (error {:.3g} model units), {}x{} views, {} frames, {}x{} texel tiles",
      out.impostor_lod, impostor.max_error, impostor.azimuths, impostor.elevations,
      impostor.frameCount(), impostor.tile_width, impostor.tile_height);
}

}  // namespace throng::render
