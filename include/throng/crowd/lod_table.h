// A package's LOD table (triangles, joints, errors, where each LOD is picked): the numbers
// `throng inspect --json` and the Python module report.
#pragma once

#include <cstddef>
#include <vector>

#include "throng/core/lod_projection.h"
#include "throng/core/package.h"

namespace throng {

// One LOD. Errors are fractions of the package's height (LodTable::height); distances are model
// units unless named in heights.
struct LodTableRow {
  int lod = 0;
  size_t triangles = 0;
  size_t vertices = 0;
  size_t sub_meshes = 0;
  size_t joints = 0;  // palette slots: the skeleton's joint count when the LOD keeps them all
  float max_error = 0.0f;
  float p99_error = 0.0f;
  float geometric_error = 0.0f;
  float skinning_error = 0.0f;
  // Where the screen-space pick first chooses this LOD at the table's camera (lodPickDistance):
  // 0 for LOD 0, infinity for a LOD never picked.
  float pick_distance = 0.0f;
  float pick_distance_heights = 0.0f;  // pick_distance / height (0 when the height is 0)
  float max_distance = 0.0f;           // MeshLod::max_distance, model units (0: no limit)
};

struct LodTable {
  // Largest extent of LOD 0's bind mesh (model units): what errors are fractions of. An error is
  // reported as 0 when the height is 0.
  float height = 0.0f;
  LodProjection camera;  // the pick distances' camera
  float threshold_px = kDefaultLodThresholdPx;
  std::vector<LodTableRow> rows;  // one per MeshLod, in order
};

// The table of `package`'s LODs seen through `camera` with a pick threshold of `threshold_px`
// (> 0). Requires a package with at least one LOD (every valid package has one).
LodTable lodTable(const Package& package, const LodProjection& camera = {},
                  float threshold_px = kDefaultLodThresholdPx);

}  // namespace throng
