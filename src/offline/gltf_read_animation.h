// glTF animations -> Clips on a skeleton, given which joint (if any) each node drives.
#pragma once

#include <span>
#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/clip.h"
#include "throng/core/status.h"

namespace throng::gltf {

// One Clip per animation that drives at least one joint (others are skipped with a warning).
// `node_to_joint[n]` is the joint node n drives, -1 when none: such channels are ignored with one
// warning per file. Translation/rotation/scale channels with STEP, LINEAR or CUBICSPLINE samplers
// are read (rotations may be normalised integers); "weights" channels are skipped with a warning.
// Names: the animation's name without a "<node name>|" prefix (Blender's "Armature|Walk"), or
// "clip<N>" when unnamed; repeats get "#<N>". Times stay on the file's timeline.
Result<std::vector<Clip>> readClips(Document& doc, std::span<const int> node_to_joint,
                                    int joint_count);

}  // namespace throng::gltf
