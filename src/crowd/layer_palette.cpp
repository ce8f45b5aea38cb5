// Layers on the palette: re-rooting on the base pose and the quaternion blend, on the CPU.
#include "throng/crowd/layer_palette.h"

#include <cassert>

#include "throng/core/joint_encoding.h"
#include "throng/crowd/frame_palette.h"

namespace throng {

std::vector<glm::vec3> jointPivots(const Skeleton& skeleton) {
  std::vector<glm::vec3> pivots;
  pivots.reserve(static_cast<size_t>(skeleton.jointCount()));
  for (const glm::mat4& inverse_bind : skeleton.inverseBinds()) {
    pivots.push_back(glm::vec3(glm::inverse(inverse_bind)[3]));
  }
  return pivots;
}

JointRows rerootRows(const JointRows& base_parent, const JointRows& layer_parent,
                     const JointRows& layer_joint, bool has_parent) {
  if (!has_parent) return layer_joint;
  return packRows(unpackRows(base_parent) * glm::inverse(unpackRows(layer_parent)) *
                  unpackRows(layer_joint));
}

JointRows blendLayerRows(const JointRows& base, const JointRows& layer, float weight,
                         const glm::vec3& pivot) {
  if (!(weight > 0.0f)) return base;
  if (weight >= 1.0f) return layer;
  const QuatJoint a = encodeQuatJoint(base, pivot);
  const QuatJoint b = encodeQuatJoint(layer, pivot);
  // The shorter way round: q and -q are the same rotation.
  const glm::vec4 qb = glm::dot(a.rotation, b.rotation) < 0.0f ? -b.rotation : b.rotation;
  const glm::vec4 q = glm::normalize(glm::mix(a.rotation, qb, weight));
  const float scale = glm::mix(a.translation_scale.w, b.translation_scale.w, weight);
  // The pivot moves on the straight line between where each puts it.
  const glm::vec3 at = glm::mix(transformPoint(base, pivot), transformPoint(layer, pivot), weight);
  const glm::vec3 turned = glm::quat(q.w, q.x, q.y, q.z) * pivot;
  return decodeQuatJoint({q, glm::vec4(at - scale * turned, scale)});
}

void applyLayerPalette(std::span<JointRows> palette, std::span<const JointRows> layer,
                       const JointRange& range, float weight, std::span<const glm::vec3> pivots) {
  if (!(weight > 0.0f)) return;
  const bool has_parent = range.parent != kNoParent;
  const auto parent = static_cast<size_t>(has_parent ? range.parent : 0);
  // The parent lies outside the range (it comes before it), so it is read unchanged.
  for (uint32_t j = range.first; j < range.end; ++j) {
    palette[j] =
        blendLayerRows(palette[j], rerootRows(palette[parent], layer[parent], layer[j], has_parent),
                       weight, pivots[j]);
  }
}

JointRows layeredJointRows(const AnimationTexture& texture, const InstanceFrames& base,
                           const LayerSample& layer, std::span<const glm::vec3> pivots,
                           uint32_t joint) {
  const JointRows base_rows = blendedJointRows(texture, base, joint);
  if (!(layer.weight > 0.0f) || !layer.range.contains(joint)) return base_rows;
  assert(joint < pivots.size());
  const InstanceFrames own{layer.frames, layer.frames, 0.0f};
  const JointRows layer_rows = blendedJointRows(texture, own, joint);
  const bool has_parent = layer.range.parent != kNoParent;
  JointRows rerooted = layer_rows;
  if (has_parent) {
    const auto parent = static_cast<uint32_t>(layer.range.parent);
    rerooted = rerootRows(blendedJointRows(texture, base, parent),
                          blendedJointRows(texture, own, parent), layer_rows, true);
  }
  return blendLayerRows(base_rows, rerooted, layer.weight, pivots[joint]);
}

bool LayerPaletteJob::validate() const {
  if (!texture || palette.size() != texture->joint_count || pivots.size() != palette.size()) {
    return false;
  }
  const uint32_t count = texture->frame_count;
  const FrameSample& l = layer.frames;
  if (layer.weight > 0.0f &&
      (l.frame_a >= count || l.frame_b >= count || layer.range.end > texture->joint_count ||
       layer.range.parent >= static_cast<int>(texture->joint_count))) {
    return false;
  }
  return FramePaletteJob{texture, base, palette}.validate();
}

bool LayerPaletteJob::run() const {
  if (!validate()) return false;
  for (uint32_t j = 0; j < texture->joint_count; ++j) {
    palette[j] = layeredJointRows(*texture, base, layer, pivots, j);
  }
  return true;
}

}  // namespace throng
