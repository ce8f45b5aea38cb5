// Whole-file reads and crash-safe whole-file writes (temporary file renamed into place).
#pragma once

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "throng/core/status.h"

namespace throng {

// The bytes of `path`; kIoError naming the path when it cannot be opened or read.
Result<std::vector<std::byte>> readFileBytes(const std::string& path);

// Writes `bytes` to a temporary file next to `path` (same folder, so the rename stays on one
// file system), flushes it and renames it over `path`. On any failure the temporary file is
// removed and `path` is untouched; kIoError names the path and the reason.
Status writeFileAtomically(const std::string& path, std::span<const std::byte> bytes);

}  // namespace throng
