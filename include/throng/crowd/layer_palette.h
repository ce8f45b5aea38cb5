// The CPU reference of layers on the palette: re-rooting the layer clip on the base pose and
// blending it in, from the baked frames (what every render path must reproduce).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/math.h"
#include "throng/core/skeleton.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/playback.h"

namespace throng {

// Each joint's pivot: its bind-pose origin in model space (the translation of
// inverse(inverse_bind)), one per joint; what blendLayerRows keeps on its straight path.
std::vector<glm::vec3> jointPivots(const Skeleton& skeleton);

// The layer's joint re-rooted on the base pose, in palette (skinning matrix) form:
//   S_base(parent) * S_layer(parent)^-1 * S_layer(joint),
// which equals M_base(parent) * M_layer(parent)^-1 * M_layer(joint) * inverse_bind(joint) with M
// the model matrices (the inverse binds cancel). `base_parent` and `layer_parent` are ignored
// when the mask's root has no parent (has_parent false): the layer's own S_layer(joint).
JointRows rerootRows(const JointRows& base_parent, const JointRows& layer_parent,
                     const JointRows& layer_joint, bool has_parent);

// Blends two palette entries of one joint by `weight` (0: base, 1: layer, exactly; clamped):
// each is taken as a similarity transform about the joint's pivot (encodeQuatJoint), rotations
// blended by normalised quaternion blend (the shorter way), uniform scales and the pivot's
// positions linearly. For similarity transforms this is the model-space blend of the joint's
// matrices (rotation nlerp, joint position and scale linear). Non-uniform scale or shear of a
// joint is not kept between 0 and 1.
JointRows blendLayerRows(const JointRows& base, const JointRows& layer, float weight,
                         const glm::vec3& pivot);

// The layer on whole palettes (keyframed poses, where no texture holds the frames): for every
// joint j of `range`, palette[j] = blendLayerRows(palette[j], rerootRows(palette[parent],
// layer[parent], layer[j]), weight, pivots[j]); the others are left alone. `palette` is the base
// pose's palette, `layer` the layer clip's; both (and pivots) one entry per skeleton joint.
void applyLayerPalette(std::span<JointRows> palette, std::span<const JointRows> layer,
                       const JointRange& range, float weight, std::span<const glm::vec3> pivots);

// Joint `joint`'s palette entry with the layer: blendedJointRows(base) outside layer.range or at
// weight 0; inside, blendLayerRows(base, rerootRows(...), weight, pivots[joint]) with the layer
// clip's rows read as blendedJointRows of layer.frames (no fade). The twin of what the vertex
// shaders must do per influence. Requires joint, the range and its parent < texture.joint_count,
// pivots one per joint, and every frame index < texture.frame_count (asserted).
JointRows layeredJointRows(const AnimationTexture& texture, const InstanceFrames& base,
                           const LayerSample& layer, std::span<const glm::vec3> pivots,
                           uint32_t joint);

// palette[j] = layeredJointRows(*texture, base, layer, pivots, j) for every joint (the layered
// FramePaletteJob). palette.size() == pivots.size() == texture->joint_count.
struct LayerPaletteJob {
  const AnimationTexture* texture = nullptr;
  InstanceFrames base;
  LayerSample layer;
  std::span<const glm::vec3> pivots;
  std::span<JointRows> palette;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

}  // namespace throng
