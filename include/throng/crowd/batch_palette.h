// Per-character palettes for merged batches: x placed skinning matrices, from two sources.
#pragma once

#include <cstdint>
#include <span>

#include "throng/core/animation_texture.h"
#include "throng/core/clip.h"
#include "throng/core/math.h"
#include "throng/core/pose.h"
#include "throng/core/skeleton.h"
#include "throng/crowd/layer.h"
#include "throng/crowd/playback.h"

namespace throng {

// rows(placement * unpackRows(m)): a skinning matrix moved into the world, so the batch shader
// needs no per-character placement uniform. `placement` must be affine.
JointRows placeRows(const glm::mat4& placement, const JointRows& m);

// Source 1, the seed's way: walk the skeleton tree (e.g. read back from a skeleton file) at
// `time` (the clip's file timeline; the rest pose when clip is null):
//   out[s] = placement * model(palette_joints[s]) * inverse_bind(palette_joints[s]),
// with the placement as the tree's root matrix. Sizes: out.size() == palette_joints.size(), or
// == skeleton joints when palette_joints is empty (identity slots). `scratch` is resized once
// and reused (no allocation after the first call for a skeleton).
void treePalette(const Skeleton& skeleton, const Clip* clip, float time, const glm::mat4& placement,
                 std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                 std::span<JointRows> out);

// The same on the fast pose chain (core/pose.h): `clip` packed for this skeleton (or null for the
// rest pose), the character's key cursors in `context`. Equal to the above within the fast
// chain's sampling tolerance. Allocates nothing once scratch is sized and context reserved.
void treePalette(const SoaSkeleton& skeleton, const PackedClip* clip, float time,
                 SamplingContext& context, const glm::mat4& placement,
                 std::span<const uint16_t> palette_joints, PoseScratch& scratch,
                 std::span<JointRows> out);

// Source 2: copy from the baked animation texture, no hierarchy walk. For each slot s with joint
// j = palette_joints[s]:
//   out[s] = placement * ((1 - fade) * mix(A(j), B(j), primary.blend)
//                         + fade * mix(C(j), D(j), secondary.blend))
// where A..D are the frames of `frames` (the instanced shader's blend, folded into one weight per
// frame). Requires frames within texture.frame_count and joints < texture.joint_count
// (asserted); RGBA16F texels are widened exactly. Allocates nothing; SIMD, no matrix conversions.
void bakedPalette(const AnimationTexture& texture, const InstanceFrames& frames,
                  const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                  std::span<JointRows> out);

// bakedPalette with an agent's layer (crowd/layer_palette.h): the same slots, then every slot
// whose joint layer.range holds gets placement * layeredJointRows(texture, frames, layer, pivots,
// joint) instead (pivots: jointPivots, one per skeleton joint). At layer weight 0 it is
// bakedPalette. Allocates nothing.
void layeredBakedPalette(const AnimationTexture& texture, const InstanceFrames& frames,
                         const LayerSample& layer, std::span<const glm::vec3> pivots,
                         const glm::mat4& placement, std::span<const uint16_t> palette_joints,
                         std::span<JointRows> out);

}  // namespace throng
