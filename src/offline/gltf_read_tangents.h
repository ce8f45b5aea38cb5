// The character's tangents once its materials are known: the file's TANGENT where it has one,
// generated with the MikkTSpace rules where a normal texture needs them.
#pragma once

#include <vector>

#include "offline/gltf_read_document.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/status.h"

namespace throng::gltf {

// After readMesh and readLooks: when some material has a normal texture (or `always`), or some
// primitive had TANGENT, every vertex gets a tangent — the file's where readMesh read one, else
// generated (generateTangents; vertices may be split), saying so in doc.warnings; tangent_source
// says which. Otherwise the mesh keeps no tangents. Errors: those of generateTangents (a mesh
// readMesh made never fails them).
Status finishTangents(Document& doc, SkinnedMesh& mesh, const std::vector<Material>& materials,
                      bool always);

}  // namespace throng::gltf
