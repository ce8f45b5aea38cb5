// The .throng package: everything the runtime needs (skeleton, mesh LODs, clip table, texture).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
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
};

// Writes `package` to `path` through a temporary file renamed into place (never half-written).
Status writePackage(const Package& package, const std::string& path);
// Reads and fully validates a package; any corruption, truncation or future version is an error
// naming the file and the section. Never reads out of bounds, whatever the bytes.
Result<Package> readPackage(const std::string& path);
Result<Package> parsePackage(std::span<const std::byte> bytes, std::string_view source);

}  // namespace throng
