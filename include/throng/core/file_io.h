// Whole-file reads and crash-safe writes (temporary file in the same folder, then rename).
#pragma once

#include <string>
#include <string_view>

#include "throng/core/status.h"

namespace throng {

// Reads the whole file. Errors: kIoError naming the path and the system's reason.
Result<std::string> readFileBytes(const std::string& path);

// Writes `bytes` to "<path>.tmp-<pid>" beside `path`, flushes it, then renames it over `path`,
// so readers see the old file or the new one, never a half-written one. On any failure the
// temporary file is removed and `path` is left untouched. Errors: kIoError.
Status writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace throng
