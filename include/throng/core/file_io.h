// Whole-file reads that never block or overrun, and crash-safe writes (temporary file, rename).
#pragma once

#include <cstdint>
#include <limits>
#include <string>
#include <string_view>

#include "throng/core/status.h"

namespace throng {

// No limit on the size of a file readFileBytes reads (beyond the memory to hold it).
inline constexpr uint64_t kNoReadLimit = std::numeric_limits<uint64_t>::max();

// Reads the whole of the regular file at `path` (symbolic links are followed). Refused before a
// byte is read, so nothing blocks and nothing large is allocated: a directory, FIFO, socket or
// device (kIoError naming the kind), a file over `max_bytes` (kLimitExceeded), a file that cannot
// be opened (kIoError with the system's reason). The file is opened non-blocking, so a FIFO swapped
// in between the check and the read still cannot hang the caller. Messages start with `path`.
Result<std::string> readFileBytes(const std::string& path, uint64_t max_bytes = kNoReadLimit);

// Marks the temporary files of writeFileAtomically: "<name>.throng-tmp-<pid>-<n>" beside the
// output. Only ever seen where the file system has no anonymous temporary files (O_TMPFILE) or
// when a writer is killed in the instant between naming its file and renaming it.
inline constexpr std::string_view kTempFileMarker = ".throng-tmp-";

// Writes `bytes` so that `path` holds either its old content or all of the new one, even if the
// process is killed: the bytes go to an anonymous temporary file in the same folder (O_TMPFILE),
// which is flushed to disk, given a temporary name and renamed over `path`; where O_TMPFILE is not
// available a named temporary file ("<name>" + kTempFileMarker + "<pid>-<n>") is used instead.
// Temporary files that killed writers left beside `path` (their process no longer runs) are
// removed first. On any failure `path` is untouched and no temporary file remains. Errors:
// kIoError naming `path` and the system's reason.
Status writeFileAtomically(const std::string& path, std::string_view bytes);

}  // namespace throng
