// Bone reduction (method A): re-skin a mesh to x of the skeleton's joints, and measure the error.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

// Frame rate at which clips are sampled to score joints and to measure the reduction error.
inline constexpr float kReductionSampleFps = 30.0f;

// The result of reducing a mesh to `palette_joints.size()` joints.
struct BoneReduction {
  SkinnedMesh mesh;                      // joint indices are palette slots 0..x-1
  std::vector<uint16_t> palette_joints;  // slot -> skeleton joint, ascending (parents first)
  float max_error = 0.0f;       // model units: largest vertex deviation over every clip frame
  float error_fraction = 0.0f;  // max_error / Character::size()
};

// Chooses `joint_count` joints of character.skeleton to keep for `mesh` (whose joint indices are
// skeleton joints): every root, then greedily the joint whose keeping most lowers the estimated
// deviation sum_v w_vr * max_frame |S_r(f) v - S_a(f) v| over removed joints r re-bound to their
// nearest kept ancestor a (clips sampled at kReductionSampleFps; the rest pose if there is none).
// A joint that carries no weight and moves no weighted descendant is never chosen before one
// that does. Returns the kept joints ascending. Errors: kLimitExceeded when joint_count is
// smaller than the number of roots; kInvalidArgument when joint_count < 1.
Result<std::vector<uint16_t>> chooseJoints(const Character& character, const SkinnedMesh& mesh,
                                           int joint_count);

// Re-skins `mesh` (skeleton joint indices) to the kept joints `palette_joints` (ascending, every
// root included): each removed joint's weight moves to its nearest kept ancestor, repeated
// influences merge, at most kMaxInfluences remain, weights renormalise; joint indices become
// palette slots. Errors: kInvalidArgument for an unsorted / out-of-range list or a root missing.
Result<SkinnedMesh> remapToPalette(const Character& character, const SkinnedMesh& mesh,
                                   std::span<const uint16_t> palette_joints);

// Largest distance, over every frame of every clip sampled at kReductionSampleFps (both ends
// included) and every vertex, between `full` skinned with the full skeleton and `reduced` (the
// same vertices, palette-slot joints) skinned with palette slots taken from the same pose.
// Sizes: full and reduced have equal vertex counts. Model units.
float measureReductionError(const Character& character, const SkinnedMesh& full,
                            const SkinnedMesh& reduced, std::span<const uint16_t> palette_joints);

// chooseJoints + remapToPalette + measureReductionError. joint_count >= the skeleton's joint
// count keeps every joint (palette_joints = 0..J-1, error 0).
Result<BoneReduction> reduceBones(const Character& character, const SkinnedMesh& mesh,
                                  int joint_count);

}  // namespace throng
