// The CPU reference skinner: linear blend skinning, the oracle every GPU path is tested against.
#pragma once

#include <span>

#include <glm/gtc/type_precision.hpp>

#include "throng/core/math.h"

namespace throng {

// p' = sum_i w_i * (M_i * p);  n' = normalize(sum_i w_i * (M_i3x3 * n));
// t'.xyz = normalize(sum_i w_i * (M_i3x3 * t.xyz)), t'.w = t.w.
// Normals use the matrix itself (not its inverse transpose), as the GPU shaders do: exact for
// rigid and uniformly scaled joints. Tangents are skinned like the normals (they stay orthogonal
// to them under such joints); their handedness passes through (a mirroring joint, one with a
// negative determinant, would flip it; throng does not). Sizes: every vertex stream equals
// positions.size(); normals/out_normals may both be empty, and so may tangents/out_tangents.
// Joint indices must be < palette.size().
struct SkinJob {
  std::span<const glm::vec3> positions;
  std::span<const glm::vec3> normals;
  std::span<const glm::u16vec4> joints;
  std::span<const glm::vec4> weights;
  std::span<const JointRows> palette;
  std::span<glm::vec3> out_positions;
  std::span<glm::vec3> out_normals;
  std::span<const glm::vec4> tangents = {};  // glTF TANGENT: xyz unit, w handedness
  std::span<glm::vec4> out_tangents = {};

  bool validate() const;
  bool run() const;
};

}  // namespace throng
