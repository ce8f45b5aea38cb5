// Test oracle: glTF skinning computed straight from tinygltf data, independent of the importer.
#pragma once

#include <string>
#include <vector>

#include <tiny_gltf.h>

#include <glm/glm.hpp>
#include "throng/core/character.h"

namespace throng::test {

// Loads a .gltf/.glb with tinygltf (images skipped); fails the test on error.
bool loadTinyGltf(const std::string& path, tinygltf::Model& model);

// Element `i` of a float or (normalised) integer accessor, as up to 16 floats.
std::vector<float> accessorElement(const tinygltf::Model& model, int accessor, size_t i);
std::vector<float> accessorFloats(const tinygltf::Model& model, int accessor);

// Sampler `s` at `time` as `width` floats per key, by the spec (STEP, LINEAR: lerp or, for
// rotations, slerp; CUBICSPLINE Hermite), clamped to its ends.
std::vector<float> sampleChannel(const tinygltf::Model& model, const tinygltf::AnimationSampler& s,
                                 size_t width, bool rotation, float time);

// The morph weights of mesh node `node`: its animation's "weights" channel at `time` when
// `animation` (>= 0) has one, else node.weights, else mesh.weights, else zeros.
std::vector<float> morphWeights(const tinygltf::Model& model, int node, int animation, float time);

// Per-node local TRS of the file at rest, then with animation `animation` sampled at `time`
// (-1: rest). Sampling follows the glTF spec (STEP, LINEAR with slerp, CUBICSPLINE Hermite).
std::vector<glm::mat4> worldMatrices(const tinygltf::Model& model, int animation, float time);

// The vertex positions a glTF viewer shows: for each mesh node in node order, each primitive in
// order, skinned nodes use sum w * world(joint) * IBM * v, unskinned ones world(node) * v, where v
// is first morphed: v0 + sum_t w_t * POSITION_t (morphWeights).
std::vector<glm::vec3> referencePositions(const tinygltf::Model& model, int animation, float time);

// The importer side: `character` morphed by its clip's weights (sampleMorphWeights + MorphJob)
// and skinned by the CPU reference skinner for `clip` at `time` (file timeline; the rest pose when
// clip is null).
std::vector<glm::vec3> skinPositions(const Character& character, const Clip* clip, float time);

// Largest distance between corresponding points (fails the test when the sizes differ).
float maxDistance(const std::vector<glm::vec3>& a, const std::vector<glm::vec3>& b);

}  // namespace throng::test
