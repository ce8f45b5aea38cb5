// Skeleton: the immutable runtime joint hierarchy, and the validating builder that makes one.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

// Joint indices are 16-bit in vertex data, and one baked frame (3 texels per joint) must fit in
// one row of a 4096-texel-wide animation texture: 3 * 1024 <= 4096.
inline constexpr int kMaxJoints = 1024;
inline constexpr int16_t kNoParent = -1;

// Authoring description of one joint. Joints may be listed in any order; parents are by name.
struct RawJoint {
  std::string name;              // unique, non-empty
  std::string parent;            // empty for a root
  Transform rest;                // local (parent-space) rest transform
  glm::mat4 inverse_bind{1.0f};  // model space -> joint space at bind time
};

struct RawSkeleton {
  std::vector<RawJoint> joints;
};

// Flat, validated hierarchy: parents always come before their children (depth-first order).
class Skeleton {
 public:
  Skeleton() = default;

  int jointCount() const { return static_cast<int>(names_.size()); }
  std::span<const std::string> names() const { return names_; }
  std::span<const int16_t> parents() const { return parents_; }  // kNoParent for roots
  std::span<const Transform> restPoses() const { return rest_; }
  std::span<const glm::mat4> inverseBinds() const { return inverse_binds_; }
  // Index of the joint with this name, or -1.
  int findJoint(std::string_view name) const;
  // Children of a joint in index order (computed; not for hot paths).
  std::vector<int> children(int joint) const;

 private:
  friend Result<Skeleton> buildSkeleton(const RawSkeleton& raw, std::string_view source);
  std::vector<std::string> names_;
  std::vector<int16_t> parents_;
  std::vector<Transform> rest_;
  std::vector<glm::mat4> inverse_binds_;
};

// Validates `raw` and orders it parents-first (roots in input order, then children in input
// order, depth first). Errors (kInvalidData / kLimitExceeded) name `source` and the joint: empty
// or duplicate names, unknown parents, cycles, more than kMaxJoints joints, non-finite values,
// a non-invertible inverse bind matrix.
Result<Skeleton> buildSkeleton(const RawSkeleton& raw, std::string_view source = "skeleton");

// The names a "no joint" error shows: at most this many, so that a 200-joint rig's error stays a
// line.
inline constexpr size_t kJointNamesShown = 12;

// What an error about `name`, a joint `skeleton` lacks, adds in parentheses: "did you mean 'X'?"
// for joints whose names equal it ignoring case and punctuation or hold it that way ('hand_r' ->
// 'hand.R', 'RightHand' -> 'mixamorig:RightHand'), else "joints: a, b, ..." (kJointNamesShown
// names, then how many in all). Never empty.
std::string jointNameHint(const Skeleton& skeleton, std::string_view name);

// The authoring form of a built skeleton (in the skeleton's joint order).
RawSkeleton toRaw(const Skeleton& skeleton);

}  // namespace throng
