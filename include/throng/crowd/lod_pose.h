// A LOD's skinned vertices at a clip time, from a package (its baked frames, as the runtime plays
// them) or a character (its keyframes): what `throng pose` writes and the Python module's pose()
// returns.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <glm/glm.hpp>

#include "throng/core/character.h"
#include "throng/core/package.h"
#include "throng/core/status.h"

namespace throng {

struct PoseRequest {
  // The clip: its name, else its decimal index (as findClip); empty: the rest pose.
  std::string clip;
  // Seconds: from the clip's start for a package (looping or holding as playback does), on the
  // file's timeline for a character.
  float time = 0.0f;
  int lod = 0;
  // A layer (crowd/layer_palette.h): clip `layer_clip` (name or index; empty: none) at
  // `layer_time` (seconds as `time`) on the subtree of joint `layer_joint` (by name), blended in
  // by `layer_weight` (0..1).
  std::string layer_clip;
  std::string layer_joint;
  float layer_time = 0.0f;
  float layer_weight = 1.0f;
  // The props shown (bit i: attachment i); hidden props' triangles are left out of the mesh.
  uint32_t attachments = kAllAttachments;
};

struct LodPose {
  // The LOD's mesh, borrowed from the package or the LODs; or, when props are hidden, a copy
  // without their triangles (withVisibleAttachments), owned by `shown`.
  const SkinnedMesh* mesh = nullptr;
  std::shared_ptr<const SkinnedMesh> shown;
  std::vector<glm::vec3> positions;  // model units, one per mesh vertex
  std::vector<glm::vec3> normals;    // one per mesh vertex
  int clip = -1;                     // the clip posed; -1: the rest pose
  int layer_clip = -1;               // the layer's clip; -1: no layer
  size_t joints = 0;                 // the LOD's palette slots
  size_t lod_count = 0;              // LODs the subject has
};

// LOD request.lod of `package` with the palette of its clip at request.time blended from the
// baked frames (sampleFrames + FramePaletteJob, as the instanced shader does; with a layer,
// LayerPaletteJob), its morph animation at the same frames (FrameMorphJob: VAT frames or weighted
// deltas) applied first, skinned by SkinJob. The rest pose (no clip) is the base shape.
// Errors name `source`: kInvalidArgument for a LOD or clip the package lacks ("lod 9: no such LOD
// in hero.throng (4 LODs)", "clip run: no such clip in hero.throng (5 clips)") or a time that is
// not a number, a layer clip or joint it lacks, a layer weight outside 0..1; kInvalidData when the
// clip's frames lie outside the texture.
Result<LodPose> posePackage(const Package& package, const PoseRequest& request,
                            std::string_view source);

// LOD request.lod of `character` with the palette of its keyframed clip at request.time
// (evaluatePalette; a layer's clip likewise, re-rooted and blended as layeredJointRows does), its
// morph targets first blended by the clip's weights there (sampleMorphWeights + MorphJob: the
// keyframes, not baked frames), skinned by SkinJob. LOD 0 is the character's own mesh; LOD i > 0
// is lods[i] (the character's LOD chain, buildLodChain; may be empty when only LOD 0 is asked for,
// then the character has one LOD). Errors as posePackage.
Result<LodPose> poseCharacter(const Character& character, std::span<const MeshLod> lods,
                              const PoseRequest& request, std::string_view source);

}  // namespace throng
