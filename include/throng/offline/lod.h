// LOD chain builder: (mesh LOD, bone count) levels for the package, near = more detail, each with
// its measured error against the full mesh and skeleton.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/lod_projection.h"
#include "throng/core/package.h"
#include "throng/core/status.h"

namespace throng {

// A level is worth keeping only when it removes at least this share of the previous kept
// level's triangles or of its joints; below both it costs memory and a switch for nothing.
inline constexpr float kMinLodReduction = 0.2f;

// One level of the chain.
struct LodLevel {
  float triangle_ratio = 1.0f;  // (0, 1]: target share of the source's triangles
  int joint_count = 0;          // x: target joints kept by bone reduction; 0 = every joint
  // Cap on the level's error (MeshLod::max_error, measured on the skinned surfaces, see
  // offline/lod_error.h) as a fraction of Character::size(): simplification reduces less than
  // triangle_ratio, and bone reduction keeps more joints than joint_count, when needed to stay
  // within it.
  float max_error = 1.0f;
};

struct LodChainOptions {
  // Levels from near to far. Level 0 must be the full mesh with the full skeleton (ratio 1,
  // joint_count 0 or >= the skeleton's); levels[i] (i >= 1) are built from it.
  std::vector<LodLevel> levels;
  // The camera at which MeshLod::max_distance is derived (see pickLod in crowd/lod_pick.h).
  LodProjection projection;
  float threshold_px = kDefaultLodThresholdPx;
  // Called after each level is built with (levels done, levels in all): `done` rises by one per
  // call from 1 to levels.size(), on the calling thread. May be empty.
  std::function<void(uint32_t done, uint32_t total)> progress;
};

// What became of one level.
struct LodLevelReport {
  int level = 0;                // index into LodChainOptions::levels
  int lod = -1;                 // index into the result; -1 when dropped
  size_t target_triangles = 0;  // floor(triangles * ratio), summed over sub-meshes
  size_t triangles = 0;         // achieved
  int target_joints = 0;
  int joints = 0;              // achieved
  bool sloppy = false;         // simplification fell back to vertex clustering
  bool joints_capped = false;  // the error cap kept more joints than the target
  float max_error = 0.0f;      // model units (MeshLod::max_error)
  float p99_error = 0.0f;      // model units
  float pick_distance = 0.0f;  // model units, at the options' projection; 0 for LOD 0
  double seconds = 0.0;        // time spent building it
};

struct LodChainReport {
  float character_size = 0.0f;         // Character::size(): errors / size = fractions of its height
  std::vector<LodLevelReport> levels;  // one per level, in level order
  // Dropped levels, missed triangle targets (and why), joint counts kept above the target.
  std::vector<Warning> warnings;
};

// The seed's rule made concrete: full detail near; 50% / 24 joints, 25% / 15 joints and
// 12.5% / 10 joints further away (15 and 10 joints are the seed's examples: 2 and 3 characters
// per 256-vector batch), with error caps of 10%, 15% and 25% of the character's height (a cap
// keeps more joints than asked for when removing them would pass it). Joint counts larger than
// the skeleton keep every joint.
LodChainOptions defaultLodChainOptions();

// Builds one MeshLod per level (docs/lods.md): simplifies the full mesh toward the level's
// triangle ratio (simplifyMesh, with and without joint borders, the less skinned error kept;
// the ratio raised by bisection while the error passes the cap), then removes joints by their
// skinned error (reduceBones) within what is left of the cap, brings joints back while the whole
// LOD's error passes the cap, and stores the LOD's max_error / p99_error (LodErrorMeter, every
// clip frame). A level that removes less than kMinLodReduction of the previous kept LOD's
// triangles and of its joints, or that a coarser kept LOD matches with no more error (it would
// never be picked), is dropped with a warning naming it. Sets each LOD's max_distance (measured
// to the agent's origin) to where the next LOD is first picked on screen (pickLodScreenSpace at
// options.projection and threshold_px, whose distance is to the agent's nearest point) plus the
// bind mesh's radius about the origin; the last LOD is unlimited. Levels must not ask for more
// triangles or joints than the level before. Errors: kInvalidArgument for a bad level (naming
// it), or the first failing step's Status. `report`, when given, says what became of each level.
Result<std::vector<MeshLod>> buildLodChain(const Character& character,
                                           const LodChainOptions& options,
                                           LodChainReport* report = nullptr);

}  // namespace throng
