// Human-readable description of a .throng package, for `throng inspect`.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "throng/core/package.h"

namespace throng {

// A prop of a package as reports show it.
struct PropSummary {
  std::string name;
  std::string joint;   // the carrying joint's name
  std::string source;  // the file it came from
  // Triangles of the prop in each LOD (a triangle counted in its first corner's prop group, as
  // withVisibleAttachments draws it); one count per LOD.
  std::vector<uint32_t> triangles;
};
// A joint mask of a package as reports show it.
struct MaskSummary {
  std::string name;
  std::string root;  // the root joint's name
  int joints = 0;    // joints in the subtree, the root included
};
std::vector<PropSummary> summarizeProps(const Package& package);
std::vector<MaskSummary> summarizeMasks(const Package& package);

// Several lines: source, skeleton, LODs (with their tangents' source when they have tangents:
// "tangents generated (MikkTSpace rules)"), the clip table (frames, rate, duration, loop, root
// motion, bounds), the props (joint, source, triangles per LOD) and masks (root joint, joint
// count) when there are any, the texture (size, format, bytes), the morph animation when there is
// one (its kind, bytes, error, active targets, each LOD's vertex texture), the materials
// (describeMaterial),
// variants and images (size, mip levels, colour space, power-of-two copy).
std::string describePackage(const Package& package);

// One line: name, base colour (linear RGBA), texture (image, uv set, filters, wraps, transform),
// metallic and roughness factors, the metallic-roughness, normal (scale), occlusion (strength)
// and emissive textures present, the emissive factor (and strength) when not black, alpha mode
// (and cutoff) and sidedness, e.g. "Body: colour (1, 1, 1, 1), texture image 0 uv0
// linear/trilinear repeat/repeat, metallic 0 roughness 1, normal texture image 1 uv0
// linear/trilinear repeat/repeat scale 1, OPAQUE".
std::string describeMaterial(const Material& material);

// Reads `path` and describes it: the header and section table (offsets, sizes), then
// describePackage. When the file is damaged the text still shows what could be read and ends
// with the error; `ok` (when given) says whether the package is valid.
std::string describePackageFile(const std::string& path, bool* ok = nullptr);

}  // namespace throng
