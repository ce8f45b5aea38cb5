// Shared pieces of the sample character: its joint table, and the mesh and clip builders.
#pragma once

#include <numbers>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"

namespace throng::sample {

// Joints in skeleton order (depth first, children in this order), so an enum value is the
// joint's index in the built Skeleton.
enum Joint : int {
  kRoot,
  kHips,
  kSpine1,
  kSpine2,
  kSpine3,
  kNeck,
  kHead,
  kClavicleL,
  kUpperArmL,
  kLowerArmL,
  kHandL,
  kClavicleR,
  kUpperArmR,
  kLowerArmR,
  kHandR,
  kUpperLegL,
  kLowerLegL,
  kFootL,
  kToesL,
  kUpperLegR,
  kLowerLegR,
  kFootR,
  kToesR,
  kJointCount,
};

inline constexpr float kPi = std::numbers::pi_v<float>;
// The body's axes: +X to its left, +Y up, +Z forward (it faces +Z).
inline constexpr glm::vec3 kAxisX{1.0f, 0.0f, 0.0f};
inline constexpr glm::vec3 kAxisY{0.0f, 1.0f, 0.0f};
inline constexpr glm::vec3 kAxisZ{0.0f, 0.0f, 1.0f};
// The sign of x on each side: 0 the left (+X), 1 the right.
inline constexpr float kSideX[2] = {1.0f, -1.0f};

// A point of the left side mirrored to the right side.
inline glm::vec3 mirror(glm::vec3 p) {
  return {-p.x, p.y, p.z};
}

struct JointInfo {
  const char* name;
  int parent;          // -1 for the root
  glm::vec3 position;  // model-space rest position
  glm::vec3 bone_tip;  // far end of the joint's bone (for weights and aiming)
};

// The rest skeleton, rest position of every joint: A pose (arms 45 degrees down), facing +Z.
const JointInfo& jointInfo(int joint);
// Unit direction of a joint's bone at rest (bone_tip - position).
glm::vec3 restBoneDirection(int joint);

// Closed swept-surface mesh skinned to the joints above (indices are Joint values).
SkinnedMesh buildSampleMesh();
// The five clips, in kSampleClipNames order, for a skeleton whose joint order is Joint; the
// one-shot clips are kept above the ground plane for `mesh`.
std::vector<Clip> buildSampleClips(const Skeleton& skeleton, const SkinnedMesh& mesh);

}  // namespace throng::sample
