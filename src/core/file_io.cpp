// Whole-file reads and temp-then-rename writes.
#include "throng/core/file_io.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>

#include <fmt/core.h>
#include <unistd.h>

namespace throng {

Result<std::vector<std::byte>> readFileBytes(const std::string& path) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot open: {}", path, std::strerror(errno)));
  }
  std::vector<std::byte> bytes;
  std::byte buffer[1 << 16];
  size_t got = 0;
  while ((got = std::fread(buffer, 1, sizeof(buffer), f)) > 0) {
    bytes.insert(bytes.end(), buffer, buffer + got);
  }
  const bool failed = std::ferror(f) != 0;
  std::fclose(f);
  if (failed) return Status(ErrorCode::kIoError, fmt::format("{}: read error", path));
  return bytes;
}

Status writeFileAtomically(const std::string& path, std::span<const std::byte> bytes) {
  static std::atomic<unsigned> counter{0};
  const std::string temp = fmt::format("{}.tmp-{}-{}", path, getpid(), counter++);
  std::FILE* f = std::fopen(temp.c_str(), "wb");
  if (f == nullptr) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot create {}: {}", path, temp, std::strerror(errno)));
  }
  bool good = bytes.empty() || std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  good = std::fflush(f) == 0 && good;
  good = fsync(fileno(f)) == 0 && good;  // the data is on disk before the name points at it
  good = std::fclose(f) == 0 && good;
  if (!good) {
    const std::string reason = std::strerror(errno);
    std::remove(temp.c_str());
    return Status(ErrorCode::kIoError, fmt::format("{}: write failed: {}", path, reason));
  }
  std::error_code ec;
  std::filesystem::rename(temp, path, ec);
  if (ec) {
    std::remove(temp.c_str());
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: cannot rename {} into place: {}", path, temp, ec.message()));
  }
  return {};
}

}  // namespace throng
