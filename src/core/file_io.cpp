// Whole-file reads and crash-safe writes (temporary file in the same folder, then rename).
#include "throng/core/file_io.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

#include <fmt/core.h>
#include <unistd.h>

namespace throng {

Result<std::string> readFileBytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  std::string bytes;
  char buffer[1 << 16];
  size_t n = 0;
  while ((n = std::fread(buffer, 1, sizeof buffer, f)) > 0) bytes.append(buffer, n);
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Status(ErrorCode::kIoError, fmt::format("{}: read error", path));
  return bytes;
}

Status writeFileAtomically(const std::string& path, std::string_view bytes) {
  const std::string temp = fmt::format("{}.tmp-{}", path, getpid());
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot create: {}", temp, std::strerror(errno)));
  }
  const bool written = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  const bool flushed = std::fflush(f) == 0 && fsync(fileno(f)) == 0;
  const bool closed = std::fclose(f) == 0;
  if (!written || !flushed || !closed) {
    const int err = errno;
    std::remove(temp.c_str());
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: write failed: {}", path, std::strerror(err)));
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(temp.c_str());
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot rename into place: {}", path, std::strerror(err)));
  }
  return {};
}

}  // namespace throng
