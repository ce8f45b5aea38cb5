// Mesh LOD: triangle simplification of a skinned mesh with meshoptimizer, reporting its error and
// how close it came to the target.
#pragma once

#include <cstddef>

#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng {

// The topology-preserving simplifier "reached" a sub-mesh's target when it kept at most this
// much more than the target; beyond it the sloppy simplifier is tried.
inline constexpr float kSimplifyTargetSlack = 0.05f;

struct SimplifyOptions {
  // Target triangle count as a fraction of the source's, in (0, 1]; 1 keeps the mesh as is.
  float triangle_ratio = 0.5f;
  // Largest geometric error allowed, as a fraction of the mesh's extent (meshoptimizer's
  // relative error, its estimate); simplification stops at whichever of ratio and error comes
  // first.
  float max_relative_error = 0.05f;
  // When the topology-preserving simplifier stops short of a sub-mesh's target (locked seams,
  // borders, thin parts), try meshopt_simplifySloppy (vertex clustering, same error cap) and keep
  // its result when it has fewer triangles and some are left.
  bool allow_sloppy = true;
  // Simplify each region of triangles that share a dominant joint (the largest summed weight of
  // their corners) on its own, with its border locked (meshopt_SimplifyLockBorder): no collapse
  // crosses from one joint to the next, so the rings where the mesh bends stay and a simplified
  // elbow still bends like the full one. When the locked borders leave more than the target
  // (kSimplifyTargetSlack), the whole sub-mesh is simplified at once instead if that gets closer.
  bool keep_joint_borders = true;
  // Measure SimplifiedMesh::geometric_error (surfaceDistance, bind pose). Callers that measure the
  // skinned error themselves (the LOD chain builder) skip it.
  bool measure_error = true;
};

// A simplified mesh and what it cost.
struct SimplifiedMesh {
  SkinnedMesh mesh;
  // Model units: the measured distance between the source and simplified surfaces in the bind
  // pose (surfaceDistance); 0 when no triangle was removed or SimplifyOptions::measure_error is
  // off.
  float geometric_error = 0.0f;
  // Model units: meshoptimizer's own estimate (result_error * meshopt_simplifyScale), an
  // area-weighted distance to the planes around each collapse, often well below the real one.
  float estimated_error = 0.0f;
  size_t target_triangles = 0;         // sum over sub-meshes of max(1, floor(triangles * ratio))
  bool sloppy = false;                 // some sub-mesh took the sloppy simplifier's result
  bool crossed_joint_borders = false;  // some sub-mesh was simplified across joint borders
};

// Simplifies each sub-mesh of `mesh` separately (sub-mesh ranges are kept, re-based; a mesh
// without sub-meshes is one), then drops unused vertices. Every output vertex is a copy of an
// input vertex, so skin weights, normals, tangents and UVs are never interpolated.
//
// Seams: vertices are first welded by position and skin (meshopt_generateShadowIndexBuffer on
// position, the joints of non-zero weights and the weights rounded to 1/255), so UV and normal
// seams, which split vertices that share a position, no longer lock meshoptimizer's edge
// collapses. Vertices at one position with different skins stay apart: they are a seam the
// simplifier preserves, so no triangle ever joins two skins the source kept apart and the
// simplified mesh tears nowhere the source does not. After simplification each triangle takes,
// for its corners, the vertices of one UV chart (a connected set of the source's triangles) that
// has a vertex at all three corners' positions when one exists, else the chart shared by the
// most corners; a triangle straddling a collapsed seam thus takes one side's attributes.
// Errors: kInvalidArgument for a ratio outside (0, 1] or a negative error; kInvalidData for an
// invalid mesh (see validateMesh; joint indices are not checked here).
Result<SimplifiedMesh> simplifyMesh(const SkinnedMesh& mesh, const SimplifyOptions& options);

}  // namespace throng
