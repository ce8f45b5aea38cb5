// The skeleton file (.skel, method A step 4): a text form of a Skeleton that rebuilds it exactly.
#pragma once

#include <string>
#include <string_view>

#include "throng/core/skeleton.h"
#include "throng/core/status.h"

namespace throng {

// First token of every skeleton file, and the only format version this code reads and writes.
// The format is described in docs/formats.md, section "Skeleton file (.skel)".
inline constexpr std::string_view kSkeletonFileMagic = "throng-skeleton";
inline constexpr int kSkeletonFileVersion = 1;

// A skeleton file holds at most kMaxJoints joints of a few hundred bytes each; anything much
// larger is not a skeleton file, and refusing it early keeps a bad path from exhausting memory.
inline constexpr size_t kMaxSkeletonFileBytes = 16u << 20;

// The file's text for `skeleton`, joints in skeleton order. Floats are written in their shortest
// round-trip form, so parseSkeletonText gives back bit-identical rest poses and inverse binds.
std::string formatSkeletonText(const Skeleton& skeleton);

// Writes formatSkeletonText(skeleton) to `path` through a temporary file in the same folder that
// is renamed over `path`: a failed write leaves no partial file. kIoError names the path.
Status writeSkeletonFile(const Skeleton& skeleton, const std::string& path);

// Parses the text of a skeleton file and rebuilds the tree (RawSkeleton -> buildSkeleton).
// Every error message starts with "<source_name>:<line>: " (kParseError for text that does not
// follow the format, kInvalidData for an inconsistent hierarchy or non-finite numbers,
// kLimitExceeded for too many joints, kVersionMismatch for an unknown version).
Result<Skeleton> parseSkeletonText(std::string_view text, std::string_view source_name);

// Reads and parses the file at `path` (see readFileBytes: kIoError when it cannot be read or is
// not a regular file, kLimitExceeded when it is larger than kMaxSkeletonFileBytes); errors name
// `path` and the line.
Result<Skeleton> readSkeletonFile(const std::string& path);

}  // namespace throng
