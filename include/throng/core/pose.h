// Pose jobs: clip sampling, local-to-model and palette building. Spans in, spans out; no
// allocation. Two chains: the reference (Transform / glm::mat4, one track at a time, the oracle)
// and the fast one (PackedClip + SamplingContext, structure of arrays, SIMD) for crowds.
#pragma once

#include <span>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/math.h"
#include "throng/core/skeleton.h"

namespace throng {

// Samples every joint of `clip` at `time` (file timeline seconds) into `output`; joints whose
// tracks are empty take their value from `rest`. Sizes: rest, output and clip->joints equal.
struct SampleClipJob {
  const Clip* clip = nullptr;
  float time = 0.0f;
  std::span<const Transform> rest;
  std::span<Transform> output;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

// models[i] = models[parents[i]] * toMatrix(locals[i]), or root * toMatrix(locals[i]) for roots.
// Parents must precede children (Skeleton guarantees it). Sizes: parents, locals, models equal.
struct LocalToModelJob {
  std::span<const int16_t> parents;
  std::span<const Transform> locals;
  glm::mat4 root{1.0f};
  std::span<glm::mat4> models;

  bool validate() const;
  bool run() const;
};

// palette[i] = rows(models[i] * inverse_binds[i]): model-space skinning matrices (3x4 rows).
struct PaletteJob {
  std::span<const glm::mat4> models;
  std::span<const glm::mat4> inverse_binds;
  std::span<JointRows> palette;

  bool validate() const;
  bool run() const;
};

// The skeleton as the fast chain reads it: parents, the rest pose as SoA blocks (padding lanes
// identity) and the inverse binds as 4 rows each (the 4th row kept, so projective inverse binds
// give the same palette as PaletteJob). Built once per skeleton (allocates), then read-only.
class SoaSkeleton {
 public:
  SoaSkeleton() = default;
  explicit SoaSkeleton(const Skeleton& skeleton);

  int jointCount() const { return static_cast<int>(parents_.size()); }
  int blockCount() const { return static_cast<int>(rest_.size()); }
  std::span<const int16_t> parents() const { return parents_; }
  std::span<const SoaTransform> restPose() const { return rest_; }
  // Row r of joint j's inverse bind: (m[0][r], m[1][r], m[2][r], m[3][r]), r = 0..3.
  std::span<const glm::vec4> inverseBindRows() const { return inverse_bind_rows_; }

 private:
  std::vector<int16_t> parents_;
  std::vector<SoaTransform> rest_;
  std::vector<glm::vec4> inverse_bind_rows_;  // 4 per joint
};

// Samples `clip` at `time` (file timeline seconds) into `output` (clip->blockCount() SoA
// blocks), every joint and channel, using and updating `context`'s key cursors. Same keys and
// fractions as SampleClipJob/sampleTrack, and the same values for translations, scales and STEP
// or CUBICSPLINE rotations. LINEAR rotations use a polynomial slerp (Eberly, "A Fast and Accurate
// Algorithm for Computing SLERP", JGT 2011) where keys turn less than 90 degrees apart (within
// 1.1e-7 of the true slerp; sampleTrack itself switches to nlerp under 3.6 degrees, up to 5e-7
// off), and sampleTrack's acos/sin beyond. Allocates nothing once `context` was reserved.
struct SamplePackedClipJob {
  const PackedClip* clip = nullptr;
  float time = 0.0f;
  SamplingContext* context = nullptr;
  std::span<SoaTransform> output;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

// How the fast chain writes palettes. kStreaming uses non-temporal stores that bypass the caches
// and skip reading each line before writing it: for palettes written once and read later by
// someone else (a large crowd's palettes gathered in a GPU upload buffer), where it saves memory
// traffic; not for a palette read back right away (uploaded as uniforms, skinned on the CPU).
// Falls back to ordinary stores when the palette is not 16-byte aligned or without SSE2.
enum class PaletteStore : uint8_t { kCached, kStreaming };

// The fast local-to-model and palette: models[j] = root * model(j) as 3x4 rows (root affine), and
// palette[s] = rows(models[j] * inverse_bind(j)) for j = palette_joints[s], or for every joint
// (s == j) when palette_joints is empty. Bit-identical to LocalToModelJob + PaletteJob on the same
// locals. Sizes: locals skeleton->blockCount(), models skeleton->jointCount(), palette
// palette_joints.size() (or jointCount()); palette joints < jointCount().
struct SoaPaletteJob {
  const SoaSkeleton* skeleton = nullptr;
  std::span<const SoaTransform> locals;
  glm::mat4 root{1.0f};
  std::span<JointRows> models;
  std::span<const uint16_t> palette_joints;
  std::span<JointRows> palette;
  PaletteStore store = PaletteStore::kCached;

  bool validate() const;
  bool run() const;
};

// Scratch for the pose chains: sized once per skeleton, reused every call (one per thread).
struct PoseScratch {
  std::vector<Transform> locals;         // reference chain
  std::vector<glm::mat4> models;         // reference chain
  std::vector<SoaTransform> soa_locals;  // fast chain: blocks
  std::vector<JointRows> model_rows;     // fast chain: root * model space, per joint
  void resize(int joint_count);
};

// Samples `clip` at `time` (file timeline; the rest pose when clip is null) and walks the tree
// under `root`: afterwards scratch.models holds every joint's matrix, root * model space.
void evaluateModels(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& root,
                    PoseScratch& scratch);

// The three reference jobs in a row: the skinning palette of `clip` at `time` (file timeline), or
// of the rest pose when clip is null. `palette` must hold skeleton.jointCount() entries.
void evaluatePalette(const Skeleton& skeleton, const Clip* clip, float time, PoseScratch& scratch,
                     std::span<JointRows> palette);

// The fast chain (SamplePackedClipJob + SoaPaletteJob): the palette of packed `clip` at `time`
// (file timeline; the rest pose when clip is null) for one character whose key cursors are
// `context`. `clip` must be packed for this skeleton; `palette` holds skeleton.jointCount()
// entries. Allocates nothing once scratch is sized and context reserved.
void evaluatePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                     SamplingContext& context, PoseScratch& scratch, std::span<JointRows> palette,
                     PaletteStore store = PaletteStore::kCached);

// The same for a crowd's merged batches: every joint's model matrix under an affine `root` (the
// character's placement) lands in scratch.model_rows, and palette[s] is joint palette_joints[s]'s
// placed skinning matrix (every joint, s == j, when palette_joints is empty).
void evaluatePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                     SamplingContext& context, const glm::mat4& root,
                     std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                     std::span<JointRows> palette, PaletteStore store = PaletteStore::kCached);

}  // namespace throng
