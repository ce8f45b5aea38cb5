// glTF 2.0 export of a Character: skeleton nodes, skin, skinned mesh and animations.
#pragma once

#include <string>

#include "throng/core/character.h"
#include "throng/core/status.h"

namespace throng {

// Writes `character` as glTF 2.0: binary (.glb) when `path` ends in ".glb" (any case), otherwise
// JSON (.gltf) with the buffer embedded as a base64 data URI, so the file stands alone.
// Layout: node i is joint i (name, TRS rest pose, children), followed by one unparented mesh node
// (no transform) carrying the mesh and the skin; the scene lists the root joints and the mesh
// node. The skin lists every joint with its inverse bind matrix. The mesh has one primitive per
// SubMesh (one covering all indices when there are none; none when there are no vertices), each
// with its own material named after the sub-mesh, sharing POSITION (with min/max), NORMAL,
// TEXCOORD_0 and TEXCOORD_1, COLOR_0 and TANGENT (when the mesh has them), JOINTS_0
// (UNSIGNED_SHORT) and WEIGHTS_0 (FLOAT), and UNSIGNED_INT indices. Materials keep every
// metallic-roughness factor and texture (KHR_materials_emissive_strength when the strength is not
// 1). Each clip becomes an animation with one sampler per non-empty track (keys on the
// clip's own timeline, interpolation kept); glTF requires a channel, so a clip without keys gets
// one STEP rotation key holding joint 0's rest rotation at its start time.
// With options.tangents false, TANGENT is left out even where the mesh has tangents: readers then
// generate them (glTF asks for the MikkTSpace rules), as for the many exported files without
// them.
// The character is checked first (validateCharacter; kInvalidData names `path`). The file is
// written atomically (see writeFileAtomically); errors: kIoError.
struct GltfExportOptions {
  bool tangents = true;  // write the mesh's tangents (when it has them) as TANGENT
};

Status writeGltf(const Character& character, const std::string& path,
                 const GltfExportOptions& options = {});

}  // namespace throng
