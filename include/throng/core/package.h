// The .throng package: everything the runtime needs (skeleton, mesh LODs, clip table, texture).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/attachment.h"
#include "throng/core/image.h"
#include "throng/core/impostor.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"
#include "throng/core/status.h"
#include "throng/core/vertex_animation.h"

namespace throng {

// One level of detail: a mesh and, for bone-reduced LODs (method A), the skeleton joints its
// palette slots stand for.
struct MeshLod {
  // Joint indices are palette slots (see palette_joints). In a package its morph targets are
  // baked into Package::morph (bakeMorphAnimation): a validated package's meshes have none.
  SkinnedMesh mesh;
  // Palette slot -> skeleton joint. Empty means the identity: slots are skeleton joints.
  std::vector<uint16_t> palette_joints;
  // Model units. geometric_error: the simplified mesh's error with the full skeleton;
  // skinning_error: bone reduction's largest vertex displacement (the LOD's own vertices).
  float geometric_error = 0.0f;
  float skinning_error = 0.0f;
  float max_distance = 0.0f;  // used up to this camera distance (model units); 0 = no limit
  // How far this LOD's surface strays from LOD 0's, both skinned, over every baked frame (model
  // units; divide by the bind mesh's largest extent, Character::size(), for a fraction of the
  // character's height): the largest (max_error) and 99th-percentile (p99_error) distance of
  // corresponding points (docs/lods.md). 0 for LOD 0. The screen-space pick reads max_error.
  float max_error = 0.0f;
  float p99_error = 0.0f;  // <= max_error
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
  MorphAnimation morph;               // baked morph targets (kNone for most characters)
  // Version 5 on (section ATCH): the props every LOD's mesh carries (SkinnedMesh::attachments
  // names their vertices) and the joint masks layers play on. Empty in older packages.
  std::vector<Attachment> attachments;
  std::vector<JointMask> masks;
  // Version 6 on (section IMPS): the impostor, the LOD past the last mesh (docs/lods.md,
  // "Impostors"); empty() when the package has none, as older packages never do.
  Impostor impostor;
};

// Checks every invariant the runtime relies on: a skeleton with joints, at least one LOD whose
// mesh passes validateMesh against its palette size (palette slots name existing joints), a
// texture whose size, layout and values (finite) agree with the skeleton, and clips whose frame
// ranges, rates, durations, bounds and root motion are consistent, materials that pass
// validateMaterial, images that pass validatePackageImage, and
// sub-mesh material and variant indices in range (validateSubMeshLooks), and a morph animation
// whose textures match the LODs' vertices and the animation's frames (docs/morph.md), and an
// impostor that passes validateImpostor against the clips. Errors
// (kInvalidData or kLimitExceeded) name `source` and the place.
Status validatePackage(const Package& package, std::string_view source);

// Validates `package` (validatePackage) and writes it to `path` through a temporary file in the
// same folder renamed into place, so `path` is never half-written. kIoError names the path.
Status writePackage(const Package& package, const std::string& path);
// Reads and fully validates a package; any corruption, truncation or future version is an error
// naming the file and the section. Never reads out of bounds, whatever the bytes.
Result<Package> readPackage(const std::string& path);
Result<Package> parsePackage(std::span<const std::byte> bytes, std::string_view source);

}  // namespace throng
