// Vertex tangents for normal textures, generated with the MikkTSpace rules (what glTF 2.0 asks
// for when a file has no TANGENT).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

// MikkTSpace's default angular threshold (genTangSpaceDefault), the one glTF means: the corners of
// one vertex are never split for their angle, only for their handedness or for lying on fans
// that share no edge.
inline constexpr float kDefaultTangentSplitAngleDegrees = 180.0f;

struct TangentOptions {
  // Corners of one vertex (same position, normal and uv) whose triangles' tangents or
  // bitangents lie further apart than this (degrees, in (0, 180]) take separate tangents, and
  // so separate vertices.
  float split_angle_degrees = kDefaultTangentSplitAngleDegrees;
  // Empty: generate every vertex's tangent. Otherwise one flag per vertex of the mesh as given:
  // non-zero keeps mesh.tangents[v] (read from a file: it must then be a valid tangent) and
  // generates the others' (whose stored values are ignored).
  std::span<const uint8_t> keep = {};
};

struct TangentReport {
  size_t generated = 0;  // vertices (after splitting) whose tangent was generated
  size_t split = 0;      // vertices added where one vertex's corners need different tangents
  size_t fallback = 0;   // generated vertices without a usable triangle (no uv area, degenerate)
};

// Generates tangents for `mesh` following the MikkTSpace rules (Mikkelsen 2008, "Simulation of
// wrinkled surfaces revisited"), as the glTF 2.0 specification recommends; written from the
// method's description, not from its code. Each triangle's uvs are the uv set its material's
// normal texture reads (its base material's, else the first variant material with one; uv set 0
// without a normal texture), as stored: a KHR_texture_transform is not applied, as exporters
// compute TANGENT. Vertices whose corners need different tangents are split: the copies (every
// stream carried, copyVertices) are appended after the existing vertices and the indices
// updated; kept vertices are never split. Sets tangent_source (kGenerated, or kMixed when some
// vertex is kept). `materials` is the owner's material list (empty: the default material).
// Errors: kInvalidArgument for a keep list of another size or a split angle outside (0, 180];
// kInvalidData for a mesh that fails validateMesh (joint indices unchecked) or sub-mesh material
// indices out of range.
Result<TangentReport> generateTangents(SkinnedMesh& mesh, std::span<const Material> materials,
                                       const TangentOptions& options = {});

}  // namespace throng
