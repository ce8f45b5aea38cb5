// Character: one skeleton, its skinned mesh and its clips; what import produces and bake consumes.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "throng/core/clip.h"
#include "throng/core/mesh.h"
#include "throng/core/skeleton.h"

namespace throng {

struct Character {
  Skeleton skeleton;
  SkinnedMesh mesh;
  std::vector<Clip> clips;
  std::vector<std::string> warnings;  // non-fatal findings of whoever built it (importer, ...)

  // Index of the clip named `name`, or of clip number `name` when it is a decimal index; -1 if
  // none.
  int findClip(std::string_view name) const;
  // Largest extent of the bind-pose mesh bounds: the scale for "fraction of the character's size".
  float size() const;
};

// Validates skeleton-mesh-clip consistency (see validateMesh and validateClip).
Status validateCharacter(const Character& character, std::string_view source);

}  // namespace throng
