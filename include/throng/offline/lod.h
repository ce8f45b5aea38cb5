// LOD chain builder: (mesh LOD, bone count) levels for the package, near = more detail.
#pragma once

#include <vector>

#include "throng/core/character.h"
#include "throng/core/package.h"
#include "throng/core/status.h"

namespace throng {

// One level of the chain. Zero means "as in the source" for triangle_ratio (1) and joint_count
// (every joint).
struct LodLevel {
  float triangle_ratio = 1.0f;  // (0, 1]: fraction of the source triangles
  int joint_count = 0;          // x: joints kept by bone reduction; 0 = the full skeleton
  // Used up to this camera distance, in multiples of Character::size(); 0 = no limit (last).
  float max_distance_in_sizes = 0.0f;
};

struct LodChainOptions {
  // Levels from near to far. lods[0] of the result is always the full mesh with the full
  // skeleton, used up to levels[0].max_distance_in_sizes; levels[i] (i >= 1) are built from it.
  std::vector<LodLevel> levels;
  float max_relative_error = 0.05f;  // meshoptimizer error cap (fraction of the mesh extent)
};

// The seed's rule made concrete: full detail near; 50% / 24 bones, 25% / 15 bones and
// 12.5% / 10 bones further away (15 and 10 bones are the seed's examples: 2 and 3 characters
// per 256-vector batch). Joint counts larger than the skeleton keep every joint.
LodChainOptions defaultLodChainOptions();

// Builds one MeshLod per level (geometric_error from simplification, skinning_error from bone
// reduction, max_distance in model units). Each level must have no more triangles and joints than
// the one before, and increasing distances with only the last unlimited. Errors: the first
// failing step's Status (kInvalidArgument for a bad level, naming it).
Result<std::vector<MeshLod>> buildLodChain(const Character& character,
                                           const LodChainOptions& options);

}  // namespace throng
