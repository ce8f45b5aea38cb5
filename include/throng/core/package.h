// The .throng package: everything the runtime needs (skeleton, mesh LODs, clip table, texture).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"
#include "throng/core/status.h"

namespace throng {

// One level of detail: a mesh and, for bone-reduced LODs (method A), the skeleton joints its
// palette slots stand for.
struct MeshLod {
  SkinnedMesh mesh;  // joint indices are palette slots (see palette_joints)
  // Palette slot -> skeleton joint. Empty means the identity: slots are skeleton joints.
  std::vector<uint16_t> palette_joints;
  float geometric_error = 0.0f;  // model units, from mesh simplification
  float skinning_error = 0.0f;   // model units, largest vertex deviation from bone reduction
  float max_distance = 0.0f;     // used up to this camera distance (model units); 0 = no limit
};

struct Package {
  std::string source;  // file the package was baked from (informational)
  Skeleton skeleton;
  std::vector<MeshLod> lods;  // lods[0] is the full-detail mesh with the full skeleton
  std::vector<BakedClip> clips;
  AnimationTexture animation;
  std::vector<Material> materials;    // every LOD's SubMesh::material indexes it; empty: default
  std::vector<PackageImage> images;   // TextureRef::image indexes it
  std::vector<std::string> variants;  // material variant names (SubMesh::variant_materials)
};

// Checks every invariant the runtime relies on: a skeleton with joints, at least one LOD whose
// mesh passes validateMesh against its palette size (palette slots name existing joints), a
// texture whose size, layout and values (finite) agree with the skeleton, and clips whose frame
// ranges, rates, durations, bounds and root motion are consistent, materials that pass
// validateMaterial, images that pass validatePackageImage, and
// sub-mesh material and variant indices in range (validateSubMeshLooks). Errors (kInvalidData or
// kLimitExceeded) name `source` and the place.
Status validatePackage(const Package& package, std::string_view source);

// Validates `package` (validatePackage) and writes it to `path` through a temporary file in the
// same folder renamed into place, so `path` is never half-written. kIoError names the path.
Status writePackage(const Package& package, const std::string& path);
// Reads and fully validates a package; any corruption, truncation or future version is an error
// naming the file and the section. Never reads out of bounds, whatever the bytes.
Result<Package> readPackage(const std::string& path);
Result<Package> parsePackage(std::span<const std::byte> bytes, std::string_view source);

}  // namespace throng
