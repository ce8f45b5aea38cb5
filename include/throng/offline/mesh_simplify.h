// Mesh LOD: triangle simplification of a skinned mesh with meshoptimizer, reporting its error.
#pragma once

#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

struct SimplifyOptions {
  // Target triangle count as a fraction of the source's, in (0, 1]; 1 keeps the mesh as is.
  float triangle_ratio = 0.5f;
  // Largest geometric error allowed, as a fraction of the mesh's extent (meshoptimizer's
  // relative error); simplification stops at whichever of ratio and error comes first.
  float max_relative_error = 0.05f;
};

// A simplified mesh and what it cost.
struct SimplifiedMesh {
  SkinnedMesh mesh;
  float geometric_error = 0.0f;  // model units: meshopt's result_error * meshopt_simplifyScale
};

// Simplifies each sub-mesh of `mesh` separately (sub-mesh ranges are kept, re-based), then drops
// unused vertices. Every output vertex is a copy of an input vertex: edge collapses move one
// vertex onto another, so skin weights, normals and UVs are never interpolated. UV seams
// (vertices sharing a position with different attributes) are preserved by meshoptimizer's
// seam classification. Errors: kInvalidArgument for a ratio outside (0, 1] or a negative error;
// kInvalidData for an invalid mesh (see validateMesh; joint indices are not checked here).
Result<SimplifiedMesh> simplifyMesh(const SkinnedMesh& mesh, const SimplifyOptions& options);

}  // namespace throng
