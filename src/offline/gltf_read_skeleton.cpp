// glTF node hierarchy checks and the import skeleton: skin joints plus their ancestor nodes.
#include "offline/gltf_read_skeleton.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>
#include <glm/gtc/type_ptr.hpp>

#include "offline/gltf_read_accessor.h"
#include "throng/core/excerpt.h"

namespace throng::gltf {
namespace {

// A node matrix whose TRS decomposition differs by more than this fraction of its largest
// element has shear or a projective part, which a joint's TRS rest cannot represent.
constexpr float kDecomposeTolerance = 1e-4f;
// A rest palette this close to the identity (relative to its largest element) means bind == rest:
// the bind-space normalisation leaves such files untouched.
constexpr float kIdentityTolerance = 1e-5f;

bool allFinite(const std::vector<double>& values) {
  for (double v : values) {
    if (!std::isfinite(v) || std::fabs(v) > 3.0e38) return false;
  }
  return true;
}

// Splits an affine matrix into T * R * S (a negative determinant flips the X scale).
Transform decompose(const glm::mat4& m) {
  Transform t;
  t.translation = glm::vec3(m[3]);
  glm::vec3 columns[3] = {glm::vec3(m[0]), glm::vec3(m[1]), glm::vec3(m[2])};
  t.scale = {glm::length(columns[0]), glm::length(columns[1]), glm::length(columns[2])};
  if (glm::determinant(glm::mat3(m)) < 0.0f) t.scale.x = -t.scale.x;
  if (std::fabs(t.scale.x) > 0.0f && std::fabs(t.scale.y) > 0.0f && std::fabs(t.scale.z) > 0.0f) {
    const glm::mat3 r(columns[0] / t.scale.x, columns[1] / t.scale.y, columns[2] / t.scale.z);
    t.rotation = glm::normalize(glm::quat_cast(r));
  }
  return t;
}

// tree.worlds from tree.parents and the nodes' local matrices, with the cycle check in the same
// pass (walk up to a finished node, then come back down): a node on a cycle, else -1.
int computeWorlds(NodeTree& tree, const std::vector<glm::mat4>& local_matrices) {
  const int count = static_cast<int>(local_matrices.size());
  enum : uint8_t { kUnvisited, kOnPath, kDone };
  std::vector<uint8_t> state(static_cast<size_t>(count), kUnvisited);
  tree.worlds.assign(static_cast<size_t>(count), glm::mat4(1.0f));
  std::vector<int> path;
  for (int n = 0; n < count; ++n) {
    path.clear();
    int cursor = n;
    while (cursor >= 0 && state[static_cast<size_t>(cursor)] == kUnvisited) {
      state[static_cast<size_t>(cursor)] = kOnPath;
      path.push_back(cursor);
      cursor = tree.parents[static_cast<size_t>(cursor)];
    }
    if (cursor >= 0 && state[static_cast<size_t>(cursor)] == kOnPath) {
      return cursor;
    }
    for (auto it = path.rbegin(); it != path.rend(); ++it) {
      const int node = *it;
      const int parent = tree.parents[static_cast<size_t>(node)];
      const glm::mat4 parent_world =
          parent >= 0 ? tree.worlds[static_cast<size_t>(parent)] : glm::mat4(1.0f);
      tree.worlds[static_cast<size_t>(node)] =
          parent_world * local_matrices[static_cast<size_t>(node)];
      state[static_cast<size_t>(node)] = kDone;
    }
  }
  return -1;
}

}  // namespace

std::string nodeName(const Document& doc, int node) {
  const std::string& name = doc.model.nodes[static_cast<size_t>(node)].name;
  return name.empty() ? fmt::format("node{}", node) : name;
}

Result<NodeTree> readNodeTree(Document& doc) {
  const tinygltf::Model& model = doc.model;
  const int count = static_cast<int>(model.nodes.size());
  NodeTree tree;
  tree.parents.assign(static_cast<size_t>(count), -1);
  tree.locals.resize(static_cast<size_t>(count));
  std::vector<glm::mat4> local_matrices(static_cast<size_t>(count), glm::mat4(1.0f));

  auto nodeError = [&](int node, const std::string& what) {
    return Status(
        ErrorCode::kInvalidData,
        place(doc, fmt::format("node {} ('{}'): {}", node,
                               excerpt(model.nodes[static_cast<size_t>(node)].name), what)));
  };

  for (int n = 0; n < count; ++n) {
    const tinygltf::Node& node = model.nodes[static_cast<size_t>(n)];
    if (node.mesh < -1 || node.mesh >= static_cast<int>(model.meshes.size())) {
      return nodeError(
          n, fmt::format("mesh {} does not exist ({} meshes)", node.mesh, model.meshes.size()));
    }
    if (node.skin < -1 || node.skin >= static_cast<int>(model.skins.size())) {
      return nodeError(
          n, fmt::format("skin {} does not exist ({} skins)", node.skin, model.skins.size()));
    }
    for (int child : node.children) {
      if (child < 0 || child >= count) {
        return nodeError(n, fmt::format("child {} does not exist ({} nodes)", child, count));
      }
      if (child == n) return nodeError(n, "node cycle: the node is its own child");
      int& parent = tree.parents[static_cast<size_t>(child)];
      if (parent != -1) {
        return nodeError(child, fmt::format("is a child of both node {} and node {}", parent, n));
      }
      parent = n;
    }
    Transform& local = tree.locals[static_cast<size_t>(n)];
    if (!node.matrix.empty()) {
      if (node.matrix.size() != 16 || !allFinite(node.matrix)) {
        return nodeError(n, "matrix must be 16 finite numbers");
      }
      glm::mat4 m;
      for (int i = 0; i < 16; ++i) glm::value_ptr(m)[i] = static_cast<float>(node.matrix[i]);
      local_matrices[static_cast<size_t>(n)] = m;
      local = decompose(m);
      float largest = 1.0f;
      for (int i = 0; i < 16; ++i) largest = std::max(largest, std::fabs(glm::value_ptr(m)[i]));
      if (maxAbsDifference(toMatrix(local), m) > kDecomposeTolerance * largest) {
        warn(doc, WarningKind::kMatrixApproximated,
             fmt::format("node {} ('{}'): matrix has shear or a projective part; approximated "
                         "by TRS",
                         n, excerpt(node.name)),
             fmt::format("node {} ('{}')", n, excerpt(node.name)))
            .with("node", n)
            .with("name", excerpt(node.name));
      }
      continue;
    }
    if (!node.translation.empty()) {
      if (node.translation.size() != 3 || !allFinite(node.translation)) {
        return nodeError(n, "translation must be 3 finite numbers");
      }
      local.translation = {static_cast<float>(node.translation[0]),
                           static_cast<float>(node.translation[1]),
                           static_cast<float>(node.translation[2])};
    }
    if (!node.rotation.empty()) {
      if (node.rotation.size() != 4 || !allFinite(node.rotation)) {
        return nodeError(n, "rotation must be 4 finite numbers");
      }
      // glTF stores (x, y, z, w); glm::quat takes (w, x, y, z).
      const glm::quat q(static_cast<float>(node.rotation[3]), static_cast<float>(node.rotation[0]),
                        static_cast<float>(node.rotation[1]), static_cast<float>(node.rotation[2]));
      if (!(glm::length(q) > 1e-6f)) return nodeError(n, "rotation is a zero quaternion");
      local.rotation = glm::normalize(q);
    }
    if (!node.scale.empty()) {
      if (node.scale.size() != 3 || !allFinite(node.scale)) {
        return nodeError(n, "scale must be 3 finite numbers");
      }
      local.scale = {static_cast<float>(node.scale[0]), static_cast<float>(node.scale[1]),
                     static_cast<float>(node.scale[2])};
    }
    local_matrices[static_cast<size_t>(n)] = toMatrix(local);
  }

  if (const int cycle = computeWorlds(tree, local_matrices); cycle >= 0) {
    return nodeError(cycle, "node cycle: the node is its own ancestor");
  }
  for (size_t s = 0; s < model.scenes.size(); ++s) {
    for (int root : model.scenes[s].nodes) {
      if (root < 0 || root >= count) {
        return Status(
            ErrorCode::kInvalidData,
            place(doc, fmt::format("scene {}: node {} does not exist ({} nodes)", s, root, count)));
      }
    }
  }
  return tree;
}

namespace {

// The nodes the skeleton takes, each marked with its ancestors; refused as soon as the skeleton
// outgrows the limit, so that the work after (ancestor depths, names, the builder) is bounded by
// kMaxJoints, whatever the file claims.
class SkeletonNodes {
 public:
  SkeletonNodes(const Document& doc, const NodeTree& tree)
      : doc_(doc),
        tree_(tree),
        in_skeleton_(tree.parents.size(), false),
        below_(tree.parents.size(), kUnknown) {}

  bool contains(int node) const { return in_skeleton_[static_cast<size_t>(node)]; }

  // Adds `node` and its ancestors; false once there are more than kMaxJoints.
  bool mark(int node) {
    while (node >= 0 && !in_skeleton_[static_cast<size_t>(node)]) {
      in_skeleton_[static_cast<size_t>(node)] = true;
      ++marked_;
      node = tree_.parents[static_cast<size_t>(node)];
    }
    return marked_ <= kMaxJoints;
  }
  // The error of a mark() that failed, naming what was being added.
  Status tooManyJoints(const std::string& what) const {
    return Status(ErrorCode::kLimitExceeded,
                  place(doc_, fmt::format("{}: the skeleton would have more than the limit of {} "
                                          "joints ({} so far)",
                                          what, kMaxJoints, marked_)));
  }

  // Whether a node has a skeleton ancestor, settled once per node (a walk up to the first
  // settled node, then recorded along the path), so long chains cost linear time.
  bool belowSkeleton(int n) {
    path_.clear();
    int a = tree_.parents[static_cast<size_t>(n)];
    uint8_t answer = kNotBelow;
    for (; a >= 0; a = tree_.parents[static_cast<size_t>(a)]) {
      if (in_skeleton_[static_cast<size_t>(a)]) {
        answer = kBelow;
        break;
      }
      if (below_[static_cast<size_t>(a)] != kUnknown) {
        answer = below_[static_cast<size_t>(a)];
        break;
      }
      path_.push_back(a);
    }
    for (int p : path_) below_[static_cast<size_t>(p)] = answer;
    return answer == kBelow;
  }

 private:
  enum : uint8_t { kUnknown, kBelow, kNotBelow };
  const Document& doc_;
  const NodeTree& tree_;
  std::vector<bool> in_skeleton_;
  int marked_ = 0;
  std::vector<uint8_t> below_;  // belowSkeleton's answers so far
  std::vector<int> path_;       // belowSkeleton's walk
};

// Skin `s`: its joints (existing, listed once) marked, and its inverse bind matrices.
Status readSkin(Document& doc, size_t s, SkeletonNodes& nodes, SkinBinding& binding) {
  const tinygltf::Skin& skin = doc.model.skins[s];
  const int count = static_cast<int>(doc.model.nodes.size());
  if (skin.joints.empty()) {
    return Status(ErrorCode::kInvalidData, place(doc, fmt::format("skin {}: no joints", s)));
  }
  std::set<int> seen;
  for (int joint : skin.joints) {
    if (joint < 0 || joint >= count) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("skin {}: joint node {} does not exist ({} nodes)", s,
                                           joint, count)));
    }
    if (!seen.insert(joint).second) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("skin {}: node {} is listed twice", s, joint)));
    }
    if (!nodes.mark(joint)) {
      return nodes.tooManyJoints(fmt::format("skin {} ({} joints listed)", s, skin.joints.size()));
    }
  }
  binding.inverse_binds.assign(skin.joints.size(), glm::mat4(1.0f));
  if (skin.inverseBindMatrices < 0) return {};
  Result<std::vector<float>> matrices =
      readFloats(doc, {skin.inverseBindMatrices,
                       TINYGLTF_TYPE_MAT4,
                       {kFloatForm},
                       fmt::format("skin {} inverseBindMatrices", s)});
  if (!matrices.ok()) return matrices.status();
  if (matrices->size() < skin.joints.size() * 16) {
    return Status(ErrorCode::kInvalidData,
                  place(doc, fmt::format("skin {}: {} inverse bind matrices for {} joints", s,
                                         matrices->size() / 16, skin.joints.size())));
  }
  for (size_t j = 0; j < skin.joints.size(); ++j) {
    glm::mat4 m = glm::make_mat4(matrices->data() + j * 16);
    if (!isInvertible(m)) {
      return Status(ErrorCode::kInvalidData,
                    place(doc, fmt::format("skin {} joint {} (node {}): inverse bind matrix "
                                           "is not invertible",
                                           s, j, skin.joints[j])));
    }
    binding.inverse_binds[j] = m;
  }
  return {};
}

// The skeleton nodes no skin lists: without skins, the file is a node animation (animated nodes
// and mesh nodes become joints); in both cases unskinned meshes under a skeleton node ride on
// their own node (it and the path to it are added).
Status markUnskinnedNodes(const Document& doc, SkeletonNodes& nodes) {
  const tinygltf::Model& model = doc.model;
  const int count = static_cast<int>(model.nodes.size());
  if (model.skins.empty()) {
    for (const tinygltf::Animation& animation : model.animations) {
      for (const tinygltf::AnimationChannel& channel : animation.channels) {
        const bool trs = channel.target_path == "translation" ||
                         channel.target_path == "rotation" || channel.target_path == "scale";
        if (trs && channel.target_node >= 0 && channel.target_node < count) {
          if (!nodes.mark(channel.target_node)) return nodes.tooManyJoints("animated nodes");
        }
      }
    }
    for (int n = 0; n < count; ++n) {
      if (model.nodes[static_cast<size_t>(n)].mesh < 0) continue;
      if (!nodes.mark(n)) return nodes.tooManyJoints("mesh nodes");
    }
  }
  for (int n = 0; n < count; ++n) {
    const tinygltf::Node& node = model.nodes[static_cast<size_t>(n)];
    if (node.mesh < 0 || node.skin >= 0 || nodes.contains(n)) continue;
    if (nodes.belowSkeleton(n)) {
      if (!nodes.mark(n)) return nodes.tooManyJoints("unskinned meshes under the skeleton");
    }
  }
  return {};
}

// Each node's inverse bind: from the first skin that lists it (bind_skin >= 0), else identity
// until readSkeleton gives it inverse(rest world).
struct NodeBinds {
  std::vector<int> bind_skin;
  std::vector<glm::mat4> inverse_binds;
};

NodeBinds nodeBinds(const tinygltf::Model& model, const SkeletonImport& out) {
  NodeBinds binds;
  binds.bind_skin.assign(model.nodes.size(), -1);
  binds.inverse_binds.assign(model.nodes.size(), glm::mat4(1.0f));
  for (size_t s = 0; s < model.skins.size(); ++s) {
    const tinygltf::Skin& skin = model.skins[s];
    for (size_t j = 0; j < skin.joints.size(); ++j) {
      const size_t node = static_cast<size_t>(skin.joints[j]);
      if (binds.bind_skin[node] >= 0) continue;
      binds.bind_skin[node] = static_cast<int>(s);
      binds.inverse_binds[node] = out.skins[s].inverse_binds[j];
    }
  }
  return binds;
}

// Bind-space normalisation (see the header): M from the root-most skin joint, applied to the
// skins' and the nodes' inverse binds.
void normaliseBindSpace(const tinygltf::Model& model, const NodeTree& tree, NodeBinds& binds,
                        SkeletonImport& out) {
  int root_joint = -1;
  int root_depth = 0;
  for (size_t s = 0; s < model.skins.size(); ++s) {
    for (int joint : model.skins[s].joints) {
      int depth = 0;
      for (int a = tree.parents[static_cast<size_t>(joint)]; a >= 0;
           a = tree.parents[static_cast<size_t>(a)])
        ++depth;
      if (root_joint < 0 || depth < root_depth) {
        root_joint = joint;
        root_depth = depth;
      }
    }
  }
  if (root_joint < 0) return;
  const glm::mat4 m = tree.worlds[static_cast<size_t>(root_joint)] *
                      binds.inverse_binds[static_cast<size_t>(root_joint)];
  float largest = 1.0f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) largest = std::max(largest, std::fabs(m[c][r]));
  }
  if (!(maxAbsDifference(m, glm::mat4(1.0f)) > kIdentityTolerance * largest && isInvertible(m))) {
    return;
  }
  const glm::mat4 inverse_m = glm::inverse(m);
  out.skin_to_model = m;
  for (SkinBinding& binding : out.skins) {
    for (glm::mat4& ibm : binding.inverse_binds) ibm = ibm * inverse_m;
  }
  for (size_t n = 0; n < binds.bind_skin.size(); ++n) {
    if (binds.bind_skin[n] >= 0) binds.inverse_binds[n] = binds.inverse_binds[n] * inverse_m;
  }
}

// Each skeleton node's joint name (empty for other nodes): its node name, made unique.
std::vector<std::string> jointNames(Document& doc, const SkeletonNodes& nodes) {
  const int count = static_cast<int>(doc.model.nodes.size());
  std::vector<std::string> names(static_cast<size_t>(count));
  std::set<std::string> used;
  for (int n = 0; n < count; ++n) {
    if (!nodes.contains(n)) continue;
    std::string name = nodeName(doc, n);
    if (!used.insert(name).second) {
      const std::string unique = fmt::format("{}#{}", name, n);
      warn(doc, WarningKind::kJointRenamed,
           fmt::format("node {}: name '{}' is used by another joint; the joint is called '{}'", n,
                       name, unique),
           fmt::format("{} -> {}", name, unique))
          .with("node", n)
          .with("joint", name)
          .with("renamed", unique);
      name = unique;
      used.insert(name);
    }
    names[static_cast<size_t>(n)] = name;
  }
  return names;
}

// The skeleton nodes as raw joints, in node order: rest from the node, inverse bind from its
// skin or else inverse(rest world).
RawSkeleton rawSkeleton(const NodeTree& tree, const SkeletonNodes& nodes,
                        const std::vector<std::string>& names, const NodeBinds& binds) {
  RawSkeleton raw;
  for (size_t n = 0; n < names.size(); ++n) {
    if (!nodes.contains(static_cast<int>(n))) continue;
    RawJoint joint;
    joint.name = names[n];
    const int parent = tree.parents[n];
    if (parent >= 0) joint.parent = names[static_cast<size_t>(parent)];  // ancestors are joints
    joint.rest = tree.locals[n];
    if (binds.bind_skin[n] >= 0) {
      joint.inverse_bind = binds.inverse_binds[n];
    } else {
      const glm::mat4& world = tree.worlds[n];
      if (isInvertible(world)) joint.inverse_bind = glm::inverse(world);
    }
    raw.joints.push_back(std::move(joint));
  }
  return raw;
}

}  // namespace

Result<SkeletonImport> readSkeleton(Document& doc, const NodeTree& tree) {
  const tinygltf::Model& model = doc.model;
  const int count = static_cast<int>(model.nodes.size());
  SkeletonNodes nodes(doc, tree);
  SkeletonImport out;
  out.skins.resize(model.skins.size());
  for (size_t s = 0; s < model.skins.size(); ++s) {
    if (Status st = readSkin(doc, s, nodes, out.skins[s]); !st.ok()) return st;
  }
  if (Status s = markUnskinnedNodes(doc, nodes); !s.ok()) return s;
  NodeBinds binds = nodeBinds(model, out);
  normaliseBindSpace(model, tree, binds, out);
  const std::vector<std::string> names = jointNames(doc, nodes);
  RawSkeleton raw = rawSkeleton(tree, nodes, names, binds);
  if (raw.joints.empty()) {
    return Status(ErrorCode::kInvalidData,
                  place(doc, "nothing to import: no skin, no mesh and no animated node"));
  }
  Result<Skeleton> skeleton = buildSkeleton(raw, doc.path);
  if (!skeleton.ok()) return skeleton.status();
  out.skeleton = std::move(skeleton).value();
  out.node_to_joint.assign(static_cast<size_t>(count), -1);
  for (int n = 0; n < count; ++n) {
    if (nodes.contains(n)) {
      out.node_to_joint[static_cast<size_t>(n)] =
          out.skeleton.findJoint(names[static_cast<size_t>(n)]);
    }
  }
  for (size_t s = 0; s < model.skins.size(); ++s) {
    for (int joint : model.skins[s].joints) {
      out.skins[s].joints.push_back(out.node_to_joint[static_cast<size_t>(joint)]);
    }
  }
  return out;
}

}  // namespace throng::gltf
