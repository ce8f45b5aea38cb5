// Warning kinds' names and summaries, and building a warning.
#include "throng/core/warning.h"

#include "throng/core/status.h"

namespace throng {
namespace {

struct KindText {
  const char* name;
  const char* summary;
};

// A switch without default: a kind added without its texts fails the build (-Wswitch).
KindText kindText(WarningKind kind) {
  switch (kind) {
    case WarningKind::kOther:
      return {"other", "other warnings"};
    case WarningKind::kLoaderNote:
      return {"loader_note", "glTF loader notes"};
    case WarningKind::kExtensionIgnored:
      return {"extension_ignored", "extensions ignored"};
    case WarningKind::kImageExtensionUnsupported:
      return {"image_extension_unsupported", "image extensions not supported (fallback images)"};
    case WarningKind::kMatrixApproximated:
      return {"matrix_approximated", "node matrices with shear approximated by TRS"};
    case WarningKind::kJointRenamed:
      return {"joint_renamed", "joints renamed (duplicate names)"};
    case WarningKind::kChannelAnimatedTwice:
      return {"channel_animated_twice", "channels animating a node twice ignored"};
    case WarningKind::kKeyTimesRepeated:
      return {"key_times_repeated", "channels with repeated key times kept as steps"};
    case WarningKind::kWeightsChannelsSkipped:
      return {"weights_channels_skipped", "animations with morph-target weights channels skipped"};
    case WarningKind::kUnsupportedChannelsSkipped:
      return {"unsupported_channels_skipped", "animations with unsupported channels skipped"};
    case WarningKind::kAnimationSkipped:
      return {"animation_skipped", "animations that animate no joint skipped"};
    case WarningKind::kChannelsOutsideSkeleton:
      return {"channels_outside_skeleton", "files with channels outside the skeleton"};
    case WarningKind::kClipRenamed:
      return {"clip_renamed", "clips renamed (names already taken)"};
    case WarningKind::kTextureDropped:
      return {"texture_dropped", "textures dropped"};
    case WarningKind::kImageUnusable:
      return {"image_unusable", "images that cannot be used"};
    case WarningKind::kBaseColorClamped:
      return {"base_color_clamped", "base colours clamped to [0, 1]"};
    case WarningKind::kPrimitiveSkipped:
      return {"primitive_skipped", "point or line primitives skipped"};
    case WarningKind::kColorsClamped:
      return {"colors_clamped", "primitives with vertex colours clamped to [0, 1]"};
    case WarningKind::kSkinBindsDiffer:
      return {"skin_binds_differ", "skins with other inverse bind matrices"};
    case WarningKind::kNormalsRecomputed:
      return {"normals_recomputed", "primitives with normals recomputed"};
    case WarningKind::kInfluenceSetsIgnored:
      return {"influence_sets_ignored", "primitives with influence sets ignored"};
    case WarningKind::kInfluencesTrimmed:
      return {"influences_trimmed", "primitives with vertices of more than 4 influences"};
    case WarningKind::kWeightsRenormalised:
      return {"weights_renormalised", "primitives with weights renormalised"};
    case WarningKind::kUnweightedVertices:
      return {"unweighted_vertices", "primitives with unweighted vertices"};
    case WarningKind::kDegenerateMeshNode:
      return {"degenerate_mesh_node", "meshes on degenerate nodes skipped"};
    case WarningKind::kUnskinnedMeshSkipped:
      return {"unskinned_mesh_skipped", "unskinned meshes skipped"};
    case WarningKind::kMorphTargetsIgnored:
      return {"morph_targets_ignored", "meshes with morph targets ignored"};
    case WarningKind::kImageStoredTwice:
      return {"image_stored_twice", "images stored twice (sRGB colour and linear data)"};
    case WarningKind::kMaterialFactorsClamped:
      return {"material_factors_clamped", "materials with factors clamped to [0, 1]"};
    case WarningKind::kTangentsUnusable:
      return {"tangents_unusable", "primitives whose TANGENT is unusable (generated instead)"};
    case WarningKind::kTangentsGenerated:
      return {"tangents_generated", "tangent generations (MikkTSpace rules)"};
    case WarningKind::kTextureTallerThanWide:
      return {"texture_taller_than_wide", "animation textures taller than their width"};
    case WarningKind::kLodClustered:
      return {"lod_clustered", "LOD levels simplified by vertex clustering"};
    case WarningKind::kLodTrianglesKept:
      return {"lod_triangles_kept", "LOD levels keeping more triangles for their error cap"};
    case WarningKind::kLodTrianglesShort:
      return {"lod_triangles_short", "LOD levels short of their triangle target"};
    case WarningKind::kLodJointsKept:
      return {"lod_joints_kept", "LOD levels keeping more joints for their error cap"};
    case WarningKind::kLodLevelDropped:
      return {"lod_level_dropped", "LOD levels dropped"};
    case WarningKind::kStateClipFallback:
      return {"state_clip_fallback", "states playing another state's clip"};
    case WarningKind::kLodDrawnCoarser:
      return {"lod_drawn_coarser", "LODs drawn with a coarser LOD (uniform budget)"};
    case WarningKind::kNoLodChain:
      return {"no_lod_chain", "inputs without a LOD chain"};
    case WarningKind::kRestPoseOnly:
      return {"rest_pose_only", "inputs without clips playing their rest pose"};
  }
  return {"other", "other warnings"};
}

}  // namespace

const char* warningKindName(WarningKind kind) {
  return kindText(kind).name;
}

const char* warningKindSummary(WarningKind kind) {
  return kindText(kind).summary;
}

Warning& Warning::with(std::string key, double value) {
  details.push_back({std::move(key), WarningValue(value)});
  return *this;
}

Warning& Warning::with(std::string key, std::string_view value) {
  details.push_back({std::move(key), WarningValue(std::string(value))});
  return *this;
}

const WarningValue* Warning::find(std::string_view key) const {
  for (const WarningDetail& d : details) {
    if (d.key == key) return &d.value;
  }
  return nullptr;
}

Warning makeWarning(WarningKind kind, std::string message, std::string subject) {
  Warning w;
  w.kind = kind;
  w.message = std::move(message);
  w.subject = std::move(subject);
  return w;
}

Warning oneLineWarning(Warning warning) {
  warning.message = detail::oneLineMessage(std::move(warning.message));
  warning.subject = detail::oneLineMessage(std::move(warning.subject));
  for (WarningDetail& d : warning.details) {
    if (std::string* text = std::get_if<std::string>(&d.value)) {
      *text = detail::oneLineMessage(std::move(*text));
    }
  }
  return warning;
}

}  // namespace throng
