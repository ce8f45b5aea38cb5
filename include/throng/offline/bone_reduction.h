// Bone reduction (method A): re-skin a mesh to fewer of the skeleton's joints, chosen by the
// skinned error their removal causes, and measure that error.
#pragma once

#include <cstddef>
#include <cstdint>
#include <limits>
#include <span>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

// Frame rate at which every clip is sampled (both ends included) to choose joints and to
// measure the reduction error: the baker's default rate, so the error covers the baked frames.
inline constexpr float kReductionSampleFps = 30.0f;
// The greedy search scores removals on at most this many of those frames (an even stride over
// all clips' samples) to stay fast on long clip sets; the error it reports, and the cap it
// honours, are then re-measured on every frame.
inline constexpr size_t kMaxReductionSearchFrames = 256;

// How far a reduced mesh strays from the full one, skinned with the full skeleton, over every
// sampled frame of every clip (the rest pose when there are none). Model units.
struct ReductionError {
  float max = 0.0f;  // largest vertex displacement at any frame
  float p99 = 0.0f;  // 99th percentile over vertices of each vertex's largest displacement
};

// The result of reducing a mesh to `palette_joints.size()` joints.
struct BoneReduction {
  SkinnedMesh mesh;                      // joint indices are palette slots 0..x-1
  std::vector<uint16_t> palette_joints;  // slot -> skeleton joint, ascending (parents first)
  float max_error = 0.0f;                // model units: ReductionError::max over every frame
  float p99_error = 0.0f;                // model units: ReductionError::p99
  float error_fraction = 0.0f;           // max_error / Character::size()
  // True when the error cap stopped the removal before joint_count was reached (the mesh then
  // keeps more joints than asked for).
  bool capped = false;
  // The removed joints in the order the greedy search removed them: keeping the joints of
  // palette_joints plus the last k of these is the same search stopped k removals earlier.
  std::vector<uint16_t> removal_order;
};

// Chooses the joints of character.skeleton to keep for `mesh` (whose joint indices are skeleton
// joints): starting from every joint, greedily removes the joint whose removal (its vertices
// re-bound to its nearest kept ancestor) gives the smallest largest vertex displacement, ties
// going to the smallest summed increase of every vertex's displacement, then to the least skin
// weight moved; each step re-measures only the vertices the removal touches. Roots are always
// kept. Stops at `joint_count` joints, or before a removal would take the largest displacement
// over `max_error` (model units), re-measured on every frame: a removal that passed on the
// search frames but breaks the cap on all of them is undone. Returns the kept joints ascending.
// Errors: kLimitExceeded when joint_count is smaller than the number of roots; kInvalidArgument
// when joint_count < 1 or max_error is negative or NaN; kInvalidData for a joint index outside
// the skeleton.
// `removal_order`, when given, receives the removed joints in removal order.
Result<std::vector<uint16_t>> chooseJoints(const Character& character, const SkinnedMesh& mesh,
                                           int joint_count,
                                           float max_error = std::numeric_limits<float>::infinity(),
                                           std::vector<uint16_t>* removal_order = nullptr);

// Re-skins `mesh` (skeleton joint indices) to the kept joints `palette_joints` (ascending, every
// root included): each removed joint's weight moves to its nearest kept ancestor, repeated
// influences merge, at most kMaxInfluences remain, weights renormalise; joint indices become
// palette slots. Errors: kInvalidArgument for an unsorted / out-of-range list or a root missing.
Result<SkinnedMesh> remapToPalette(const Character& character, const SkinnedMesh& mesh,
                                   std::span<const uint16_t> palette_joints);

// The displacement between `full` skinned with the full skeleton and `reduced` (the same
// vertices, palette-slot joints) skinned with palette slots taken from the same pose, over every
// frame of every clip sampled at kReductionSampleFps (both ends included). Sizes: full and
// reduced have equal vertex counts.
ReductionError measureReductionError(const Character& character, const SkinnedMesh& full,
                                     const SkinnedMesh& reduced,
                                     std::span<const uint16_t> palette_joints);

// chooseJoints + remapToPalette + measureReductionError. joint_count >= the skeleton's joint
// count keeps every joint (palette_joints = 0..J-1, error 0). Errors: as chooseJoints.
Result<BoneReduction> reduceBones(const Character& character, const SkinnedMesh& mesh,
                                  int joint_count,
                                  float max_error = std::numeric_limits<float>::infinity());

}  // namespace throng
