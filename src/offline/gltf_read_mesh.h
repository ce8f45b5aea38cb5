// glTF mesh primitives -> one SkinnedMesh in skeleton model space (skinned and rigid meshes).
#pragma once

#include "offline/gltf_read_document.h"
#include "offline/gltf_read_morph.h"
#include "offline/gltf_read_skeleton.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng::gltf {

// Weights whose sum is further than this from 1 are reported (and renormalised); smaller drift
// is normal for normalised bytes (a few 1/255 steps) and is renormalised silently.
inline constexpr float kWeightSumWarnTolerance = 0.02f;
// JOINTS_n / WEIGHTS_n sets read per vertex: 4 sets = 16 influences, what reduceInfluences merges.
inline constexpr int kMaxInfluenceSets = 4;

// Reads every triangle primitive of every mesh node, then merges the primitives that share a
// material (and variant mapping) into one SubMesh whose `material` and `variant_materials` still
// hold glTF material indices (kNoGltfMaterial: none; readLooks turns them into the character's).
// COLOR_0 and TANGENT are read when present, TEXCOORD_1 when some material of the file samples it.
// TANGENT goes to model space (w flipped by a mirroring transform); when some primitive has it,
// mesh.tangents holds a value for every vertex, (0, 0, 0, 0) for those of primitives without a
// usable one (importGltf generates those; tangent_source is left kNone). Skinned
// nodes keep their positions (glTF bind space; the node's own transform is ignored), unskinned
// nodes in the skeleton are bound rigidly to their joint (positions = inverse(inverse bind) *
// local). Other unskinned meshes are skipped with a warning. Missing normals are computed
// (area-weighted), missing indices generated, strips and fans converted; points and lines are
// skipped with a warning (an error when nothing else is left). Morph targets: the mesh gets
// `morph`'s targets (planMorphTargets), each with deltas for every vertex (zero on the vertices
// of other nodes), carried into model space as the vertices are (positions by the linear part of
// the vertex's transform, normals by its normal matrix and tangents by its linear part, both
// scaled as their base vector is normalised). Warnings go to doc.warnings.
Result<SkinnedMesh> readMesh(Document& doc, const SkeletonImport& skeleton,
                             const MorphLayout& morph);

}  // namespace throng::gltf
