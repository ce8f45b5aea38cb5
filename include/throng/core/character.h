// Character: one skeleton, its skinned mesh and its clips; what import produces and bake consumes.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/attachment.h"
#include "throng/core/clip.h"
#include "throng/core/image.h"
#include "throng/core/material.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"
#include "throng/core/warning.h"

namespace throng {

struct Character {
  Skeleton skeleton;
  SkinnedMesh mesh;
  std::vector<Clip> clips;
  std::vector<Material> materials;      // SubMesh::material indexes it; empty: defaultMaterial()
  std::vector<SourceImage> images;      // TextureRef::image indexes it
  std::vector<std::string> variants;    // material variant names (SubMesh::variant_materials)
  std::vector<Attachment> attachments;  // props in the mesh (SkinnedMesh::attachments), attachProp
  std::vector<JointMask> masks;         // joint subtrees layers play on, addJointMask
  std::vector<Warning> warnings;        // non-fatal findings of whoever built it (importer, ...)

  // Index of the clip named `name`, or of clip number `name` when it is a decimal index; -1 if
  // none.
  int findClip(std::string_view name) const;
  // Largest extent of the bind-pose mesh bounds: the scale for "fraction of the character's size".
  float size() const;
};

// Validates skeleton-mesh-clip consistency (see validateMesh and validateClip) and the looks:
// materials (validateMaterial), images (validateImageLevel, one colour space each:
// validateImageColorSpaces) and every sub-mesh's material and variant indices
// (validateSubMeshLooks), the attachments and masks (validateAttachments) and the mesh's prop
// groups (validateAttachmentGroups).
Status validateCharacter(const Character& character, std::string_view source);

// The part of validateCharacter and validatePackage about sub-mesh looks: each sub-mesh's
// material is below materials.size() (0 when there are none), its variant_materials are empty or
// one per variant, each in range, the mesh has the uv sets that those materials' textures read,
// and it has tangents when one of them has a normal texture. Errors (kInvalidData) name
// `source`.
Status validateSubMeshLooks(const SkinnedMesh& mesh, std::span<const Material> materials,
                            size_t variant_count, std::string_view source);

}  // namespace throng
