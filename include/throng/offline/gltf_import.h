// glTF 2.0 import: one Character (skeleton, skinned mesh, clips) from a .gltf or .glb file.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/character.h"
#include "throng/core/skeleton.h"
#include "throng/core/status.h"

namespace throng {

// When the importer gives a mesh without TANGENT tangents (SkinnedMesh::tangents).
enum class TangentPolicy : uint8_t {
  kForNormalTextures = 0,  // when some material has a normal texture (what drawing needs)
  kAlways = 1,             // always (a shader of the program's own may want them)
};

struct ImportOptions {
  // More glTF files (typically rigs without meshes) whose clips are added to the character,
  // bound by joint name (see importClipsByName). Empty: clips come from the main file only.
  std::vector<std::string> clip_files;
  // Read animation events from the sidecar next to the file (clipEventsSidecarPath: Hero.glb ->
  // Hero.events.json) when it exists; its errors fail the import.
  bool event_sidecar = true;
  // Folders that external uris (buffers, images) of a .gltf may lead into besides the .gltf's own
  // folder (see docs/import.md, "External files"). Empty: only the file's own folder and below.
  std::vector<std::string> allowed_roots;
  // Tangents the file does not have are generated with the MikkTSpace rules (generateTangents)
  // when this says so; a file's TANGENT is always read.
  TangentPolicy tangents = TangentPolicy::kForNormalTextures;
};

// Imports `path` (.gltf with embedded or external buffers, or .glb) following the rules of
// docs/import.md: the skeleton is every skin joint plus all their ancestor nodes (several skins
// become one skeleton), mesh positions are in glTF world space at bind time (the skinned node's
// own transform is ignored), unskinned meshes under skeleton nodes ride rigidly on their node,
// and every animation becomes a Clip on the file's timeline. Non-fatal findings (morph targets,
// extensions, renormalised weights, ...) go to Character::warnings. Errors: kIoError (file or
// external buffer unreadable, not a regular file), kParseError (not glTF, truncated), kInvalidData
// (bad indices, ranges, NaNs, node cycles, a uri leading outside the allowed folders, ...),
// kUnsupported (required extensions, only point/line primitives), kLimitExceeded (more than
// kMaxJoints joints, counts the file's data cannot back); every message (and warning) is one line
// naming the file and place (docs/errors.md). The result always passes validateCharacter.
Result<Character> importGltf(const std::string& path, const ImportOptions& options = {});

// Reads the animations of `path` and binds them to `target` by joint name (glTF node name, or
// "node<N>" for unnamed nodes). Channels on nodes with no joint of that name are skipped with a
// warning; joints without channels keep `target`'s rest values (the file's rest pose is not used).
// Appends non-fatal findings to `warnings`. `options.allowed_roots` applies; errors as importGltf.
Result<std::vector<Clip>> importClipsByName(const std::string& path, const Skeleton& target,
                                            std::vector<Warning>& warnings,
                                            const ImportOptions& options = {});

}  // namespace throng
