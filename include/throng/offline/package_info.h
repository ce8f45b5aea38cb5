// Human-readable description of a .throng package, for `throng inspect`.
#pragma once

#include <string>

#include "throng/core/package.h"

namespace throng {

// Several lines: source, skeleton, LODs, the clip table (frames, rate, duration, loop, root
// motion, bounds) and the texture (size, format, bytes).
std::string describePackage(const Package& package);

// Reads `path` and describes it: the header and section table (offsets, sizes), then
// describePackage. When the file is damaged the text still shows what could be read and ends
// with the error; `ok` (when given) says whether the package is valid.
std::string describePackageFile(const std::string& path, bool* ok = nullptr);

}  // namespace throng
