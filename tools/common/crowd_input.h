// The INPUT of `throng render`, `throng demo` and `throng-viewer`: a package, a glTF file baked in
// memory, or the built-in sample.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "throng/core/package.h"
#include "throng/core/status.h"
#include "throng/core/warning.h"
#include "throng/crowd/clip_set.h"

namespace throng::cli {

struct CrowdInput {
  Package package;
  std::string name;               // as given: a path, or "sample"
  bool sample = false;            // the built-in character (whose locomotion speeds are known)
  float size = 1.0f;              // largest extent of LOD 0's mesh (model units)
  std::string how;                // "package", "baked in memory from glTF", ...
  std::vector<Warning> warnings;  // messages name the file
};

// Reports how far loading has come: 0..1 and what is being done ("importing", "baking", ...).
// Called on the loading thread.
using LoadProgress = std::function<void(float done, const char* step)>;

// "sample" -> the built-in character; *.glb / *.gltf -> imported (with the clips of
// `clip_files`, bound by joint name, and the events of its sidecar NAME.events.json) and baked
// here (30 fps, RGBA32F) with the default LOD chain (method A's levels; LOD 0 alone, with a
// warning, when the chain cannot be built); anything else is read as a .throng package (where
// `clip_files` is an error). A glTF character without clips gets one clip of its rest pose, with
// a warning. Errors name the file. Thread-safe (a viewer loads on a worker thread).
Result<CrowdInput> loadCrowdInput(const std::string& input, const LoadProgress& progress = {},
                                  const std::vector<std::string>& clip_files = {});

// The input's ClipSet from the clip map `clip_map` ("" = by name): fallbacks go to
// input.warnings; the sample's in-place walk and run get its known speeds unless the map says
// otherwise. Errors: a bad map (kInvalidArgument) naming the input.
Result<ClipSet> crowdClipSet(CrowdInput& input, const std::string& clip_map);

}  // namespace throng::cli
