// Pose jobs: clip sampling, local-to-model and palette building. Spans in, spans out; no
// allocation.
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

// Scratch for evaluatePalette: sized once per skeleton, reused every call.
struct PoseScratch {
  std::vector<Transform> locals;
  std::vector<glm::mat4> models;
  void resize(int joint_count);
};

// Samples `clip` at `time` (file timeline; the rest pose when clip is null) and walks the tree
// under `root`: afterwards scratch.models holds every joint's matrix, root * model space.
void evaluateModels(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& root,
                    PoseScratch& scratch);

// The three jobs in a row: the skinning palette of `clip` at `time` (file timeline), or of the
// rest pose when clip is null. `palette` must hold skeleton.jointCount() entries.
void evaluatePalette(const Skeleton& skeleton, const Clip* clip, float time, PoseScratch& scratch,
                     std::span<JointRows> palette);

}  // namespace throng
