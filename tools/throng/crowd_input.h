// The INPUT of `throng render` and `throng demo`: a package, a glTF file baked in memory, or the
// built-in sample.
#pragma once

#include <string>
#include <vector>

#include "throng/core/package.h"
#include "throng/core/status.h"

namespace throng::cli {

struct CrowdInput {
  Package package;
  std::string name;     // as given: a path, or "sample"
  bool sample = false;  // the built-in character (whose locomotion speeds are known)
  float size = 1.0f;    // largest extent of LOD 0's mesh (model units)
  std::string how;      // "package", "baked in memory from glTF", ...
  std::vector<std::string> warnings;
};

// "sample" -> the built-in character; *.glb / *.gltf -> imported and baked here (30 fps,
// RGBA32F) with the default LOD chain (method A's levels; LOD 0 alone, with a warning, when the
// chain cannot be built); anything else is read as a .throng package. Errors name the file.
Result<CrowdInput> loadCrowdInput(const std::string& input);

}  // namespace throng::cli
