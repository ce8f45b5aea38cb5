// `throng render --path merged` core: the sample crowd drawn with merged batches (method A).
#pragma once

#include <string>

namespace throng::cli {

struct MergedRenderOptions {
  int agents = 1000;  // characters in a square-ish grid
  int width = 512;    // pixels
  int height = 512;
  int frames = 10;              // frames drawn (timed); the last one is written to `out`
  int uniform_budget = 0;       // vertex uniform vectors; 0 = the device's own
  std::string source = "tree";  // palette source: "tree" (skeleton file) or "baked"
  std::string out;              // PNG of the last frame; empty = none
  std::string skeleton_file;    // where the skeleton file goes; empty = a temporary file
  // A package from `throng bake` (with --lods for bone-reduced LODs) drawn instead of the
  // built-in sample; packages hold baked frames, not keyframes, so the source must be "baked".
  std::string package;
};

// Runs the merged path on a headless ES 2.0 device and prints K per LOD, the number of batches
// and draw calls, and the mean frame time. Returns the process exit code (errors on stderr).
int runMergedRender(const MergedRenderOptions& options);

}  // namespace throng::cli
