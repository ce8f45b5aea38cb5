// glTF animations -> Clips on a skeleton, given which joint (if any) each node drives.
#pragma once

#include <span>
#include <string>
#include <vector>

#include "offline/gltf_key_times.h"
#include "offline/gltf_read_document.h"
#include "throng/core/clip.h"
#include "throng/core/status.h"

namespace throng::gltf {

struct MorphLayout;

// One Clip per animation that drives at least one joint or morph target (others are skipped with a
// warning). `node_to_joint[n]` is the joint node n drives, -1 when none: such channels are ignored
// with one warning per file. Translation/rotation/scale channels with STEP, LINEAR or CUBICSPLINE
// samplers are read (rotations may be normalised integers); "weights" channels on a node with
// targets in `morph` (planMorphTargets) fill Clip::weights (readWeightsChannel), those on other
// nodes (or every one when `morph` is null) are skipped with a warning.
// Names: the animation's name without a "<node name>|" prefix (Blender's "Armature|Walk"), or
// "clip<N>" when unnamed; repeats get "#<N>". Times stay on the file's timeline.
Result<std::vector<Clip>> readClips(Document& doc, std::span<const int> node_to_joint,
                                    int joint_count, const MorphLayout* morph = nullptr);

// A sampler's interpolation: LINEAR (also when absent), STEP or CUBICSPLINE; anything else is
// kInvalidData naming `what`.
Status readInterpolation(Document& doc, const tinygltf::AnimationSampler& sampler,
                         const std::string& what, Interpolation& interpolation);
// The one warning for a channel whose repeated key times stepKeyTimes kept as steps (none when
// steps.steps == 0).
void warnKeySteps(Document& doc, const std::string& what, const KeyTimeSteps& steps);

}  // namespace throng::gltf
