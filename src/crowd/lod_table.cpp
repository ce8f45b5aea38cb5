// A package's LOD table: counts, errors as fractions of the height, screen-space pick distances.
#include "throng/crowd/lod_table.h"

#include <cassert>

#include "throng/crowd/lod_pick.h"

namespace throng {

LodTable lodTable(const Package& package, const LodProjection& camera, float threshold_px) {
  assert(!package.lods.empty());
  LodTable table;
  table.camera = camera;
  table.threshold_px = threshold_px;
  table.height = computeBounds(package.lods[0].mesh.positions).largestExtent();
  const float height = table.height;
  auto fraction = [height](float v) { return height > 0.0f ? v / height : 0.0f; };
  for (size_t l = 0; l < package.lods.size(); ++l) {
    const MeshLod& lod = package.lods[l];
    LodTableRow row;
    row.lod = static_cast<int>(l);
    row.triangles = lod.mesh.triangleCount();
    row.vertices = lod.mesh.vertexCount();
    row.sub_meshes = lod.mesh.submeshes.size();
    row.joints = lod.palette_joints.empty() ? static_cast<size_t>(package.skeleton.jointCount())
                                            : lod.palette_joints.size();
    row.max_error = fraction(lod.max_error);
    row.p99_error = fraction(lod.p99_error);
    row.geometric_error = fraction(lod.geometric_error);
    row.skinning_error = fraction(lod.skinning_error);
    row.pick_distance = lodPickDistance(package.lods, row.lod, camera, threshold_px);
    row.pick_distance_heights = fraction(row.pick_distance);
    row.max_distance = lod.max_distance;
    table.rows.push_back(row);
  }
  return table;
}

}  // namespace throng
