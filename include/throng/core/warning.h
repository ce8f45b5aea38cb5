// Warnings as data: what import, bake, LOD building, clip sets and the renderers found that is not
// an error, each with a stable kind, its facts and its one-line message.
#pragma once

#include <concepts>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace throng {

// What a warning is about. The names warningKindName gives are stable (scripts match them);
// kinds are only ever added.
enum class WarningKind : uint16_t {
  kOther,
  // glTF import (docs/import.md)
  kLoaderNote,                  // tinygltf's own warning text
  kExtensionIgnored,            // a used extension throng ignores
  kImageExtensionUnsupported,   // a used image extension throng cannot decode
  kMatrixApproximated,          // a node matrix with shear or a projective part, read as TRS
  kJointRenamed,                // a joint name used twice; the repeat gets "#<node>"
  kChannelAnimatedTwice,        // two channels on one node and path; the first is kept
  kKeyTimesRepeated,            // a channel's repeated key times, kept as steps
  kWeightsChannelsSkipped,      // morph-target "weights" channels of an animation
  kUnsupportedChannelsSkipped,  // channels with other targets (KHR_animation_pointer, ...)
  kAnimationSkipped,            // an animation that drives no joint
  kChannelsOutsideSkeleton,     // channels on nodes that are not joints
  kClipRenamed,                 // a clip of a --clips-from file whose name was taken
  kTextureDropped,              // a material texture that cannot be used
  kImageUnusable,               // an image that cannot be decoded
  kBaseColorClamped,            // baseColorFactor outside [0, 1]
  kPrimitiveSkipped,            // points or lines
  kColorsClamped,               // COLOR_0 outside [0, 1]
  kSkinBindsDiffer,             // a second skin's inverse bind matrices differ from the first's
  kNormalsRecomputed,           // zero-length normals
  kInfluenceSetsIgnored,        // JOINTS_n / WEIGHTS_n beyond what is read
  kInfluencesTrimmed,           // more than 4 influences per vertex
  kWeightsRenormalised,         // weights that do not sum to 1
  kUnweightedVertices,          // vertices without weight, bound to the skin's first joint
  kDegenerateMeshNode,          // a rigid mesh on a joint with a degenerate transform: skipped
  kUnskinnedMeshSkipped,        // a mesh with no skin and no skeleton node above it
  kMorphTargetsIgnored,         // a mesh's morph targets (its base shape is imported)
  kImageStoredTwice,            // an image read as sRGB colour and as linear data
  kMaterialFactorsClamped,      // metallic, roughness, occlusion or emissive factors outside [0, 1]
  kTangentsUnusable,            // a primitive's TANGENT that is not a unit direction with w +-1
  kTangentsGenerated,           // tangents made by the MikkTSpace rules (no usable TANGENT)
  // Bake
  kTextureTallerThanWide,  // the animation texture is higher than its maximum width
  // LOD chain (docs/lods.md)
  kLodClustered,       // the simplifier fell back to vertex clustering
  kLodTrianglesKept,   // the error cap kept more triangles than the level's target
  kLodTrianglesShort,  // simplification stopped short of the target
  kLodJointsKept,      // the error cap kept more joints than the level's target
  kLodLevelDropped,    // a level too close to the previous one, or never picked
  // Crowd
  kStateClipFallback,  // a state without a clip of its own plays another (makeClipSet)
  // Render
  kLodDrawnCoarser,  // a LOD over the uniform budget is drawn with a coarser one
  // Crowd inputs of the tools (a glTF file baked in memory)
  kNoLodChain,    // the LOD chain could not be built: every agent draws LOD 0
  kRestPoseOnly,  // a character without clips plays its rest pose
};

// "joint_renamed", "weights_channels_skipped", ...: the stable name of `kind` (snake_case).
const char* warningKindName(WarningKind kind);
// What N warnings of `kind` are, to follow a count: "joints renamed (duplicate names)".
const char* warningKindSummary(WarningKind kind);

// A fact of a warning: a whole number (an index, a count), a number or a text (a name, a file).
using WarningValue = std::variant<int64_t, double, std::string>;

struct WarningDetail {
  std::string key;  // snake_case: "file", "node", "joint", "animation", "count", ...
  WarningValue value;
};

struct Warning {
  WarningKind kind = WarningKind::kOther;
  // One line naming the file and the place (docs/import.md, docs/lods.md quote these); as
  // printed when the warning is shown on its own.
  std::string message;
  // What it is about in a few words ("Hips -> Hips#7", "'Walk' (3)", "level 2"): the example a
  // line that groups the warnings of one kind shows.
  std::string subject;
  std::vector<WarningDetail> details;  // in the order added; keys unique

  // Appends a detail (integers of any type, floating-point numbers, text); returns *this.
  template <std::integral T>
  Warning& with(std::string key, T value) {
    details.push_back({std::move(key), WarningValue(static_cast<int64_t>(value))});
    return *this;
  }
  Warning& with(std::string key, double value);
  Warning& with(std::string key, std::string_view value);
  Warning& with(std::string key, const char* value) {
    return with(std::move(key), std::string_view(value));
  }
  Warning& with(std::string key, const std::string& value) {
    return with(std::move(key), std::string_view(value));
  }
  // The detail named `key`, or null.
  const WarningValue* find(std::string_view key) const;
};

// A warning of `kind` with its message and subject (no details yet).
Warning makeWarning(WarningKind kind, std::string message, std::string subject);

// `warning` with its message, subject and text details on one line of bounded length
// (detail::oneLineMessage): for warnings that quote names from a file.
Warning oneLineWarning(Warning warning);

}  // namespace throng
