// Pose jobs: sampling, local-to-model and palette, over caller-owned spans.
#include "throng/core/pose.h"

namespace throng {

bool SampleClipJob::validate() const {
  return clip != nullptr && clip->joints.size() == rest.size() && output.size() == rest.size();
}

bool SampleClipJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < output.size(); ++j) {
    const JointTracks& tracks = clip->joints[j];
    Transform t = rest[j];
    if (!tracks.translation.empty()) t.translation = sampleTrack(tracks.translation, time);
    if (!tracks.rotation.empty()) t.rotation = sampleTrack(tracks.rotation, time);
    if (!tracks.scale.empty()) t.scale = sampleTrack(tracks.scale, time);
    output[j] = t;
  }
  return true;
}

bool LocalToModelJob::validate() const {
  if (parents.size() != locals.size() || models.size() != locals.size()) return false;
  for (size_t j = 0; j < parents.size(); ++j) {
    if (parents[j] >= static_cast<int>(j)) return false;  // parents must come first
  }
  return true;
}

bool LocalToModelJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < locals.size(); ++j) {
    const int parent = parents[j];
    models[j] = (parent == kNoParent ? root : models[parent]) * toMatrix(locals[j]);
  }
  return true;
}

bool PaletteJob::validate() const {
  return inverse_binds.size() == models.size() && palette.size() == models.size();
}

bool PaletteJob::run() const {
  if (!validate()) return false;
  for (size_t j = 0; j < models.size(); ++j) palette[j] = packRows(models[j] * inverse_binds[j]);
  return true;
}

void PoseScratch::resize(int joint_count) {
  locals.resize(joint_count);
  models.resize(joint_count);
}

void evaluateModels(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& root,
                    PoseScratch& scratch) {
  scratch.resize(skeleton.jointCount());
  if (clip != nullptr) {
    [[maybe_unused]] const bool sampled =
        SampleClipJob{clip, time, skeleton.restPoses(), scratch.locals}.run();
    assert(sampled);
  } else {
    std::copy(skeleton.restPoses().begin(), skeleton.restPoses().end(), scratch.locals.begin());
  }
  [[maybe_unused]] const bool modeled =
      LocalToModelJob{skeleton.parents(), scratch.locals, root, scratch.models}.run();
  assert(modeled);
}

void evaluatePalette(const Skeleton& skeleton, const Clip* clip, float time, PoseScratch& scratch,
                     std::span<JointRows> palette) {
  evaluateModels(skeleton, clip, time, glm::mat4(1.0f), scratch);
  [[maybe_unused]] const bool paletted =
      PaletteJob{scratch.models, skeleton.inverseBinds(), palette}.run();
  assert(paletted);
}

}  // namespace throng
