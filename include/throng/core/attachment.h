// Attachments (rigid props carried by joints) and joint masks (the subtrees a layer clip plays
// on): what a character and its package say about them.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/math.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"
#include "throng/core/status.h"

namespace throng {

// A character carries at most this many props: an agent's visible set is a 16-bit mask, which a
// float attribute (GLSL ES 1.00 has no integers) holds exactly and an ES 2.0 shader can test bit
// by bit with floor and mod.
inline constexpr int kMaxAttachments = 16;
// Every prop shown: the default mask of an agent.
inline constexpr uint32_t kAllAttachments = (1u << kMaxAttachments) - 1u;
// A character has at most this many masks: an agent names its layer's mask in 8 bits.
inline constexpr int kMaxJointMasks = 255;

// Where a prop sits on its joint: T * Rz(rz) * Ry(ry) * Rx(rx) * S(s) in the joint's own space
// (its units, its world scale included: a Mixamo rig's 0.01 applies to translation and size).
struct AttachmentOffset {
  glm::vec3 translation{0.0f};       // joint units
  glm::vec3 rotation_degrees{0.0f};  // about x, y and z, degrees; applied x first, then y, then z
  float scale = 1.0f;                // uniform, > 0

  glm::mat4 matrix() const;
};

// One prop: its vertices are part of the character's mesh (SkinnedMesh::attachments names them),
// weighted 1 to `joint`, so the ordinary skinning carries it.
struct Attachment {
  std::string name;    // the prop's name (its file's stem), unique in the character
  uint16_t joint = 0;  // the skeleton joint carrying it
  AttachmentOffset offset;
  std::string source;  // the file it came from (informational)
};

// The joints a layer plays on: the subtree of `root`, root included.
struct JointMask {
  std::string name;  // unique in the character, e.g. "upper"
  uint16_t root = 0;
};

// A mask's joints as the skeleton (depth-first: a subtree is contiguous) holds them: joints
// first..end-1; `parent` is the root's parent (kNoParent for a skeleton root), the joint a layer
// is re-rooted on.
struct JointRange {
  uint16_t first = 0;
  uint16_t end = 0;
  int16_t parent = kNoParent;

  bool contains(uint32_t joint) const { return joint >= first && joint < end; }
};
// The range of the subtree of `root` (< skeleton.jointCount()).
JointRange jointRange(const Skeleton& skeleton, uint16_t root);

// Whether a vertex of prop group `group` (SkinnedMesh::attachments: 0 the character's own, i + 1
// prop i) shows for an agent whose visible props are `mask` (bit i: prop i).
inline bool attachmentVisible(uint8_t group, uint32_t mask) {
  return group == 0 || ((mask >> (group - 1u)) & 1u) != 0;
}

// `mesh` with only the triangles whose prop groups `mask` shows (attachmentVisible of their first
// corner); every vertex is kept, so vertex streams skinned from `mesh` still match. Sub-mesh
// ranges are re-based. A mesh without prop groups is copied whole.
SkinnedMesh withVisibleAttachments(const SkinnedMesh& mesh, uint32_t mask);

// Index of the attachment or mask named `name`, -1 when none.
int findAttachment(std::span<const Attachment> attachments, std::string_view name);
int findJointMask(std::span<const JointMask> masks, std::string_view name);

// Checks at most kMaxAttachments attachments and kMaxJointMasks masks, names non-empty and
// unique in each list, joints below skeleton.jointCount(), offsets finite with a positive scale,
// and every prop group of `mesh` (SkinnedMesh::attachments) at most attachments.size(). Errors
// (kInvalidData, kLimitExceeded) name `source`, the attachment or mask.
Status validateAttachments(std::span<const Attachment> attachments,
                           std::span<const JointMask> masks, const Skeleton& skeleton,
                           std::string_view source);
// The mesh part of it: every value of mesh.attachments at most attachment_count.
Status validateAttachmentGroups(std::span<const uint8_t> groups, size_t attachment_count,
                                std::string_view source);

}  // namespace throng
