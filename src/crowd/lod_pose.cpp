// Posing a LOD: the palette from baked frames or keyframes, the LOD's slots, the CPU skinner.
#include "throng/crowd/lod_pose.h"

#include <algorithm>
#include <cmath>

#include <fmt/core.h>

#include "throng/core/morph.h"
#include "throng/core/pose.h"
#include "throng/core/skinning.h"
#include "throng/crowd/clip_set.h"
#include "throng/crowd/frame_morph.h"
#include "throng/crowd/frame_palette.h"
#include "throng/crowd/layer_palette.h"
#include "throng/crowd/playback.h"

namespace throng {
namespace {

Status badArgument(std::string message) {
  return Status(ErrorCode::kInvalidArgument, std::move(message));
}

Status checkRequest(const PoseRequest& request, size_t lod_count, std::string_view source) {
  if (!std::isfinite(request.time)) {
    return badArgument(fmt::format("time {} is not a number of seconds", request.time));
  }
  if (request.lod < 0 || static_cast<size_t>(request.lod) >= lod_count) {
    return badArgument(
        fmt::format("lod {}: no such LOD in {} ({} LOD{}; {})", request.lod, source, lod_count,
                    lod_count == 1 ? "" : "s",
                    lod_count == 1 ? "0 only" : fmt::format("0 to {}", lod_count - 1)));
  }
  return {};
}

// "clip run: no such clip in hero.glb (clips: 0 idle, 1 walk)"; `clips` has a name per clip.
template <typename ClipT>
Status noSuchClip(const PoseRequest& request, std::span<const ClipT> clips, std::string_view source,
                  const char* flag = "clip") {
  std::string list;
  for (size_t c = 0; c < clips.size(); ++c) {
    list += fmt::format("{}{} {}", c == 0 ? "" : ", ", c, clips[c].name);
  }
  return badArgument(fmt::format("{} {}: no such clip in {} (clips: {})", flag, request.clip,
                                 source, list.empty() ? "none" : list));
}

// The layer's joint range and weight, checked against the request. `clip_index` comes from the
// caller's clip lookup (-1: none found).
Result<JointRange> layerRange(const PoseRequest& request, const Skeleton& skeleton,
                              std::string_view source) {
  if (!(request.layer_weight >= 0.0f && request.layer_weight <= 1.0f)) {
    return badArgument(
        fmt::format("layer-weight {}: must be a number in 0..1", request.layer_weight));
  }
  if (!std::isfinite(request.layer_time)) {
    return badArgument(fmt::format("layer-time {} is not a number of seconds", request.layer_time));
  }
  const int joint = skeleton.findJoint(request.layer_joint);
  if (joint < 0) {
    return badArgument(fmt::format("layer {}@{}: no joint '{}' in {} ({})", request.layer_clip,
                                   request.layer_joint, request.layer_joint, source,
                                   jointNameHint(skeleton, request.layer_joint)));
  }
  return jointRange(skeleton, static_cast<uint16_t>(joint));
}

// Hides the props the request leaves out: out.mesh becomes a copy without their triangles.
void hideAttachments(const PoseRequest& request, LodPose& out) {
  if (out.mesh->attachments.empty() || request.attachments == kAllAttachments) return;
  out.shown =
      std::make_shared<const SkinnedMesh>(withVisibleAttachments(*out.mesh, request.attachments));
  out.mesh = out.shown.get();
}

// Skins `out.mesh` with `palette` (one entry per skeleton joint): a bone-reduced LOD's palette
// slots stand for the skeleton joints `palette_joints` names. `positions` and `normals` are the
// mesh's own or its morphed ones (one per vertex).
Status skin(std::span<const uint16_t> palette_joints, std::span<const JointRows> palette,
            std::span<const glm::vec3> positions, std::span<const glm::vec3> normals,
            std::string_view source, LodPose& out) {
  std::vector<JointRows> slots(palette.begin(), palette.end());
  if (!palette_joints.empty()) {
    slots.resize(palette_joints.size());
    for (size_t s = 0; s < slots.size(); ++s) slots[s] = palette[palette_joints[s]];
  }
  const SkinnedMesh& mesh = *out.mesh;
  out.joints = slots.size();
  out.positions.resize(mesh.vertexCount());
  out.normals.resize(mesh.normals.empty() ? 0 : mesh.vertexCount());
  const SkinJob job{positions, normals,       mesh.joints, mesh.weights,
                    slots,     out.positions, out.normals};
  if (!job.run()) {
    return Status(ErrorCode::kInvalidData,
                  fmt::format("{}: the mesh does not fit its skeleton", source));
  }
  return {};
}

}  // namespace

Result<LodPose> posePackage(const Package& package, const PoseRequest& request,
                            std::string_view source) {
  if (Status s = checkRequest(request, package.lods.size(), source); !s.ok()) return s;
  LodPose out;
  out.lod_count = package.lods.size();
  const MeshLod& lod = package.lods[static_cast<size_t>(request.lod)];
  out.mesh = &lod.mesh;
  std::vector<JointRows> palette(static_cast<size_t>(package.skeleton.jointCount()));
  std::vector<glm::vec3> positions = lod.mesh.positions;
  std::vector<glm::vec3> normals = lod.mesh.normals;
  if (request.clip.empty()) {  // the rest pose: the base shape, as the file's rest
    PoseScratch scratch;
    evaluatePalette(package.skeleton, nullptr, 0.0f, scratch, palette);
  } else {
    out.clip = findClip(package.clips, request.clip);
    if (out.clip < 0) return noSuchClip(request, std::span<const BakedClip>(package.clips), source);
    const BakedClip& clip = package.clips[static_cast<size_t>(out.clip)];
    InstanceFrames frames;
    frames.primary = sampleFrames(clip, request.time);
    frames.secondary = frames.primary;
    LayerSample layer;
    if (!request.layer_clip.empty()) {
      out.layer_clip = findClip(package.clips, request.layer_clip);
      if (out.layer_clip < 0) {
        PoseRequest named = request;
        named.clip = request.layer_clip;
        return noSuchClip(named, std::span<const BakedClip>(package.clips), source, "layer");
      }
      Result<JointRange> range = layerRange(request, package.skeleton, source);
      if (!range.ok()) return range.status();
      layer.frames =
          sampleFrames(package.clips[static_cast<size_t>(out.layer_clip)], request.layer_time);
      layer.weight = request.layer_weight;
      layer.range = *range;
    }
    const std::vector<glm::vec3> pivots = jointPivots(package.skeleton);
    if (!LayerPaletteJob{&package.animation, frames, layer, pivots, palette}.run()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: clip '{}' frames lie outside the texture", source, clip.name));
    }
    if (package.morph.kind != MorphBakeKind::kNone &&
        !FrameMorphJob{&package, static_cast<uint32_t>(request.lod), frames, positions, normals}
             .run()) {
      return Status(
          ErrorCode::kInvalidData,
          fmt::format("{}: the morph animation does not fit LOD {}", source, request.lod));
    }
  }
  hideAttachments(request, out);
  if (Status s = skin(lod.palette_joints, palette, positions, normals, source, out); !s.ok()) {
    return s;
  }
  return out;
}

Result<LodPose> poseCharacter(const Character& character, std::span<const MeshLod> lods,
                              const PoseRequest& request, std::string_view source) {
  if (Status s = checkRequest(request, std::max<size_t>(1, lods.size()), source); !s.ok()) {
    return s;
  }
  LodPose out;
  out.lod_count = std::max<size_t>(1, lods.size());
  std::span<const uint16_t> palette_joints;
  out.mesh = &character.mesh;
  if (request.lod > 0) {
    const MeshLod& lod = lods[static_cast<size_t>(request.lod)];
    out.mesh = &lod.mesh;
    palette_joints = lod.palette_joints;
  }
  const Clip* clip = nullptr;
  if (!request.clip.empty()) {
    out.clip = character.findClip(request.clip);
    if (out.clip < 0) return noSuchClip(request, std::span<const Clip>(character.clips), source);
    clip = &character.clips[static_cast<size_t>(out.clip)];
  }
  PoseScratch scratch;
  std::vector<JointRows> palette(static_cast<size_t>(character.skeleton.jointCount()));
  evaluatePalette(character.skeleton, clip, request.time, scratch, palette);
  if (!request.layer_clip.empty()) {
    out.layer_clip = character.findClip(request.layer_clip);
    if (out.layer_clip < 0) {
      PoseRequest named = request;
      named.clip = request.layer_clip;
      return noSuchClip(named, std::span<const Clip>(character.clips), source, "layer");
    }
    Result<JointRange> range = layerRange(request, character.skeleton, source);
    if (!range.ok()) return range.status();
    std::vector<JointRows> layer(palette.size());
    evaluatePalette(character.skeleton, &character.clips[static_cast<size_t>(out.layer_clip)],
                    request.layer_time, scratch, layer);
    applyLayerPalette(palette, layer, *range, request.layer_weight,
                      jointPivots(character.skeleton));
  }
  // Morph first, then skin (glTF 2.0); a LOD of the chain has its vertices' targets.
  const SkinnedMesh& mesh = *out.mesh;
  std::vector<glm::vec3> positions = mesh.positions;
  std::vector<glm::vec3> normals = mesh.normals;
  if (!mesh.morph_targets.empty()) {
    std::vector<float> weights(character.mesh.morph_targets.size());
    sampleMorphWeights(character.mesh.morph_targets, clip, request.time, weights);
    if (!MorphJob{
            mesh.morph_targets, weights, mesh.positions, mesh.normals, {}, positions, normals, {}}
             .run()) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: the morph targets do not fit the mesh", source));
    }
  }
  hideAttachments(request, out);
  if (Status s = skin(palette_joints, palette, positions, normals, source, out); !s.ok()) {
    return s;
  }
  return out;
}

}  // namespace throng
