// glTF node hierarchy checks and the import skeleton: skin joints plus their ancestor nodes.
#pragma once

#include <string>
#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/math.h"
#include "throng/core/skeleton.h"
#include "throng/core/status.h"

namespace throng::gltf {

// The validated node forest at rest: one entry per glTF node.
struct NodeTree {
  std::vector<int> parents;       // -1 for roots
  std::vector<Transform> locals;  // TRS; `matrix` nodes decomposed
  std::vector<glm::mat4> worlds;  // rest world matrix (exact local matrices multiplied)
};

// Checks every node (child/mesh/skin indices, single parent, no cycle, TRS/matrix sizes, finite
// values) and computes rest world matrices. Errors name the file and the node.
Result<NodeTree> readNodeTree(Document& doc);

// How one glTF skin maps onto the import skeleton.
struct SkinBinding {
  std::vector<int> joints;               // skeleton joint of each skin joint
  std::vector<glm::mat4> inverse_binds;  // the skin's own matrix of each skin joint
};

struct SkeletonImport {
  Skeleton skeleton;
  std::vector<int> node_to_joint;  // skeleton joint of each node, -1 outside it
  std::vector<SkinBinding> skins;  // one per glTF skin
  // Carries skinned glTF vertices into the import's bind space (see readSkeleton); the skins'
  // inverse_binds above already include its inverse.
  glm::mat4 skin_to_model{1.0f};
};

// The skeleton is: every skin joint and all its ancestors; without any skin, every animated node
// and every mesh node with their ancestors; plus, in both cases, the nodes (and path) of unskinned
// meshes that hang under a skeleton node. A joint's inverse bind comes from the first skin that
// lists it (identity when the skin has none); any other skeleton node gets inverse(rest world),
// so that world * inverse bind is the identity at rest.
// Bind-space normalisation: with M = restWorld(r) * inverseBind(r) for the root-most skin joint r,
// skinned vertices become M * v and skin inverse binds IBM * inverse(M). Skinning results are
// unchanged for every pose, but the bind mesh now matches the rest pose around r (a COLLADA
// bind-shape matrix baked into the IBMs, or a scaled armature, no longer distorts it); where rest
// == bind for every joint, the rest palette is the identity. Joint names are node names ("node<N>"
// when unnamed; a repeated name gets "#<N>" with a warning).
Result<SkeletonImport> readSkeleton(Document& doc, const NodeTree& tree);

// The name a node is bound by: its glTF name, or "node<N>".
std::string nodeName(const Document& doc, int node);

}  // namespace throng::gltf
