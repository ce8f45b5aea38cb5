// glTF morph targets: which character targets each mesh node gets, their deltas and weights.
#pragma once

#include <string>
#include <vector>

#include "offline/gltf_read_document.h"
#include "offline/gltf_read_skeleton.h"
#include "throng/core/morph.h"
#include "throng/core/status.h"

namespace throng::gltf {

// A file has few targets per mesh (MorphStressTest: 8, a face rig: 50-100); more is corruption.
inline constexpr size_t kMaxTargetsPerMesh = 1024;

// The character targets of one glTF node: [first, first + count) of SkinnedMesh::morph_targets.
struct NodeMorph {
  int first = 0;
  int count = 0;
};

// Per glTF node, its targets (count 0: none), and the character's targets without deltas yet
// (names, groups, default weights): what readMesh fills and readClips animates.
struct MorphLayout {
  std::vector<NodeMorph> nodes;
  std::vector<MorphTarget> targets;
};

// Every node that readMesh reads (a skinned node, or a mesh node under a skeleton joint) whose
// mesh has targets gets its own set: named by mesh.extras.targetNames (else "target<i>"), grouped
// under the node's name, with the node's weights, else the mesh's, else 0 as defaults. Errors
// (kInvalidData): primitives of one mesh with different target counts, weights of another length,
// more than kMaxTargetsPerMesh targets.
Result<MorphLayout> planMorphTargets(Document& doc, const SkeletonImport& skeleton);

// One target's deltas in a primitive, as read (primitive space), xyz per vertex; a stream the
// target lacks is empty.
struct TargetDeltas {
  std::vector<float> positions;
  std::vector<float> normals;
  std::vector<float> tangents;
};

// Reads every target of `primitive` (POSITION, NORMAL, TANGENT, sparse or not; integer forms
// with KHR_mesh_quantization), each with `vertex_count` elements. Errors name `what`.
Result<std::vector<TargetDeltas>> readTargetDeltas(Document& doc,
                                                   const tinygltf::Primitive& primitive,
                                                   size_t vertex_count, const std::string& what);

// Reads a "weights" channel's sampler into `tracks` (one per target of the node, already sized):
// STEP, LINEAR or CUBICSPLINE, repeated key times kept as steps (stepKeyTimes, warned once),
// values as floats or normalised integers. Errors name `what`.
Status readWeightsChannel(Document& doc, const tinygltf::AnimationSampler& sampler,
                          const std::string& what, std::span<FloatTrack> tracks);

}  // namespace throng::gltf
