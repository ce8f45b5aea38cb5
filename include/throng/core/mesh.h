// SkinnedMesh: vertex streams with 4 joint influences per vertex, 32-bit triangles, sub-meshes.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <glm/gtc/type_precision.hpp>

#include "throng/core/math.h"
#include "throng/core/status.h"

namespace throng {

// GPU paths blend exactly four influences per vertex (one vec4 of indices, one of weights).
inline constexpr int kMaxInfluences = 4;

// A range of the index buffer drawn with one material.
struct SubMesh {
  std::string name;
  uint32_t first_index = 0;  // into SkinnedMesh::indices
  uint32_t index_count = 0;  // a multiple of 3
  // Index into the owner's materials (Character::materials, Package::materials); with an empty
  // material list it must be 0 and means defaultMaterial().
  uint32_t material = 0;
  // Material variants (glTF KHR_materials_variants): empty, or one material index per variant
  // name of the owner (the material this range uses in that variant).
  std::vector<uint32_t> variant_materials;
};

// All streams have vertexCount() entries (uvs, uvs1 and colors may be empty). Positions and
// normals are in the skeleton's model space at bind time. joints index the skeleton; weights
// sum to 1.
struct SkinnedMesh {
  std::vector<glm::vec3> positions;
  std::vector<glm::vec3> normals;
  std::vector<glm::vec2> uvs;     // texture coordinate set 0 (glTF TEXCOORD_0)
  std::vector<glm::vec2> uvs1;    // set 1 (TEXCOORD_1), only when a material samples it
  std::vector<glm::vec4> colors;  // linear RGBA vertex colours (COLOR_0), multiply the material
  std::vector<glm::u16vec4> joints;
  std::vector<glm::vec4> weights;
  std::vector<uint32_t> indices;  // triangle list
  std::vector<SubMesh> submeshes;

  size_t vertexCount() const { return positions.size(); }
  size_t triangleCount() const { return indices.size() / 3; }
};

// One vertex's influences before reduction to kMaxInfluences.
struct Influence {
  int joint = 0;
  float weight = 0.0f;
};

// Keeps the kMaxInfluences largest weights (merging repeated joints), renormalises them to sum 1,
// and writes them sorted by decreasing weight (unused slots: joint 0, weight 0). Returns false
// when every weight is zero or negative (the caller decides: error, or bind to a default joint).
bool reduceInfluences(const Influence* influences, int count, glm::u16vec4& joints,
                      glm::vec4& weights);

// Checks stream sizes, finite values (colours also in [0, 1]), index ranges (vertices and joints
// < joint_count), weights that are non-negative and sum to 1 within 1e-3, and sub-mesh ranges.
// Material indices are checked by the owner (validateCharacter, validatePackage). Errors name
// `source`.
Status validateMesh(const SkinnedMesh& mesh, int joint_count, std::string_view source);

// Axis-aligned bounds of a set of points.
struct Bounds {
  glm::vec3 min{0.0f};
  glm::vec3 max{0.0f};
  glm::vec3 size() const { return max - min; }
  float largestExtent() const;
};
Bounds computeBounds(const std::vector<glm::vec3>& points);

}  // namespace throng
