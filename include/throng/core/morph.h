// Morph targets (glTF 2.0): per-vertex deltas blended by weights, applied before skinning.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

// One morph target of a SkinnedMesh: deltas in the mesh's (bind, model) space. glTF targets of a
// mesh drawn by several nodes become one set of targets per node (each node has its own weights);
// a target's deltas are zero on the vertices of the other meshes.
struct MorphTarget {
  std::string name;  // glTF mesh extras.targetNames[i], else "target<i>"
  std::string
      group;  // the glTF mesh (or node) the target belongs to: what a weights channel drives
  float default_weight = 0.0f;       // node.weights, else mesh.weights, else 0
  std::vector<glm::vec3> positions;  // one delta per vertex of the owning mesh
  std::vector<glm::vec3> normals;    // empty, or one delta per vertex
  std::vector<glm::vec3> tangents;   // empty, or one delta per vertex (xyz; w never morphs)
};

// The glTF morph formula, before skinning: p = p0 + sum_t w_t * dp_t; n = normalize(n0 + sum_t
// w_t * dn_t); t.xyz = normalize(t0.xyz + sum_t w_t * dt_t), t.w = t0.w (a zero-length sum keeps
// the base vector). Targets without normal (tangent) deltas leave those alone. Sizes: weights one
// per target; every target's non-empty streams, the base streams and the outputs one per vertex;
// normals/out_normals may both be empty, and so may tangents/out_tangents. Outputs may alias the
// inputs.
struct MorphJob {
  std::span<const MorphTarget> targets;
  std::span<const float> weights;
  std::span<const glm::vec3> positions;
  std::span<const glm::vec3> normals;
  std::span<const glm::vec4> tangents;
  std::span<glm::vec3> out_positions;
  std::span<glm::vec3> out_normals;
  std::span<glm::vec4> out_tangents;

  bool validate() const;
  bool run() const;  // false (and no output) when validate() fails
};

// weights[t] = the clip's weights track of target t sampled at `time` (file timeline seconds),
// or the target's default weight when the clip has no such track (or `clip` is null: the rest
// pose). weights.size() must equal targets.size(); clip->weights is empty or one per target.
void sampleMorphWeights(std::span<const MorphTarget> targets, const Clip* clip, float time,
                        std::span<float> weights);

// Checks that every target has a finite default weight, position deltas for each of
// `vertex_count` vertices, normal and tangent deltas empty or one per vertex, all finite. Errors
// (kInvalidData) name `source` and the target.
Status validateMorphTargets(std::span<const MorphTarget> targets, size_t vertex_count,
                            std::string_view source);

}  // namespace throng
