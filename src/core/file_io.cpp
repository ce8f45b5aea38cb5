// Whole-file reads that never block or overrun, and crash-safe writes (temporary file, rename).
#include "throng/core/file_io.h"

#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <fmt/core.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

namespace throng {
namespace {

// Reads go in chunks of this size when the file turns out longer than fstat said.
constexpr size_t kReadChunk = size_t{1} << 16;

const char* fileKind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  return "not a regular file";
}

// Closes a descriptor when it goes out of scope.
class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }
  // Closes now and reports whether close succeeded (it can report a delayed write error).
  bool close() {
    const int fd = fd_;
    fd_ = -1;
    return ::close(fd) == 0;
  }

 private:
  int fd_;
};

Status ioError(const std::string& path, std::string_view what, int err) {
  return Status(ErrorCode::kIoError, fmt::format("{}: {}: {}", path, what, std::strerror(err)));
}

bool writeAll(int fd, std::string_view bytes) {
  size_t done = 0;
  while (done < bytes.size()) {
    const ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

// True when `entry` is "<name><marker><pid>-<n>" and process <pid> no longer exists.
bool isStaleTemp(std::string_view entry, std::string_view name) {
  const std::string prefix = std::string(name) + std::string(kTempFileMarker);
  if (!entry.starts_with(prefix)) return false;
  std::string_view rest = entry.substr(prefix.size());
  long pid = 0;
  const auto [end, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), pid);
  if (ec != std::errc() || end == rest.data() || end == rest.data() + rest.size() || *end != '-' ||
      pid <= 0) {
    return false;
  }
  if (pid == static_cast<long>(::getpid())) return false;  // another thread of ours is writing
  return ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH;
}

// Removes the temporary files that killed writers of `name` left in `dir`.
void removeStaleTemps(const std::filesystem::path& dir, const std::string& name) {
  std::error_code ec;
  std::filesystem::directory_iterator it(dir.empty() ? std::filesystem::path(".") : dir, ec);
  for (; !ec && it != std::filesystem::directory_iterator(); it.increment(ec)) {
    const std::string entry = it->path().filename().string();
    if (isStaleTemp(entry, name)) {
      std::error_code ignored;
      std::filesystem::remove(it->path(), ignored);
    }
  }
}

std::string tempPath(const std::string& path) {
  static std::atomic<uint64_t> counter{0};
  return fmt::format("{}{}{}-{}", path, kTempFileMarker, static_cast<long>(::getpid()),
                     counter.fetch_add(1));
}

// Writes through an anonymous O_TMPFILE file, named only for the instant before the rename.
// Returns false (with nothing left behind) when the file system or /proc does not allow it.
bool tryAnonymousWrite(const std::string& path, const std::filesystem::path& dir,
                       std::string_view bytes, Status& status) {
#ifdef O_TMPFILE
  const std::string folder = dir.empty() ? std::string(".") : dir.string();
  Fd fd(::open(folder.c_str(), O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666));
  if (fd.get() < 0) return false;  // e.g. EOPNOTSUPP: fall back to a named temporary file
  if (!writeAll(fd.get(), bytes) || ::fsync(fd.get()) != 0) {
    status = ioError(path, "write failed", errno);
    return true;
  }
  const std::string temp = tempPath(path);
  const std::string proc = fmt::format("/proc/self/fd/{}", fd.get());
  if (::linkat(AT_FDCWD, proc.c_str(), AT_FDCWD, temp.c_str(), AT_SYMLINK_FOLLOW) != 0) {
    return false;  // no /proc: the named path below writes the bytes again
  }
  if (!fd.close()) {
    const int err = errno;
    ::unlink(temp.c_str());
    status = ioError(path, "write failed", err);
    return true;
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    status = ioError(path, "cannot rename into place", err);
  }
  return true;
#else
  (void)path, (void)dir, (void)bytes, (void)status;
  return false;
#endif
}

}  // namespace

Result<std::string> readFileBytes(const std::string& path, uint64_t max_bytes) {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
  Fd fd(::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) return ioError(path, "cannot open", errno);
  struct stat info {};
  if (::fstat(fd.get(), &info) != 0) return ioError(path, "cannot read", errno);
  if (!S_ISREG(info.st_mode)) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: is {}, not a regular file", path, fileKind(info.st_mode)));
  }
  const auto size = static_cast<uint64_t>(info.st_size);
  if (size > max_bytes) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} bytes is more than the {} bytes this file may have", path,
                              size, max_bytes));
  }
  std::string bytes;
  bytes.resize(static_cast<size_t>(size));
  size_t done = 0;
  for (;;) {
    if (done == bytes.size()) {
      // The file may have grown since fstat: keep reading, within the limit.
      if (bytes.size() >= max_bytes) {
        char probe = 0;
        const ssize_t extra = ::read(fd.get(), &probe, 1);
        if (extra == 0) break;
        if (extra < 0 && errno == EINTR) continue;
        if (extra < 0) return ioError(path, "read error", errno);
        return Status(
            ErrorCode::kLimitExceeded,
            fmt::format("{}: grew past the {} bytes this file may have", path, max_bytes));
      }
      bytes.resize(static_cast<size_t>(
          std::min<uint64_t>(max_bytes, static_cast<uint64_t>(bytes.size()) + kReadChunk)));
    }
    const ssize_t n = ::read(fd.get(), bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ioError(path, "read error", errno);
    if (n == 0) break;
    done += static_cast<size_t>(n);
  }
  bytes.resize(done);
  return bytes;
}

Status writeFileAtomically(const std::string& path, std::string_view bytes) {
  const std::filesystem::path target(path);
  const std::filesystem::path dir = target.parent_path();
  removeStaleTemps(dir, target.filename().string());

  Status status;
  if (tryAnonymousWrite(path, dir, bytes, status)) return status;

  const std::string temp = tempPath(path);
  Fd fd(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOCTTY, 0666));
  if (fd.get() < 0) return ioError(path, "cannot create a temporary file", errno);
  const bool written = writeAll(fd.get(), bytes) && ::fsync(fd.get()) == 0;
  const int write_errno = errno;
  const bool closed = fd.close();
  if (!written || !closed) {
    const int err = written ? errno : write_errno;
    ::unlink(temp.c_str());
    return ioError(path, "write failed", err);
  }
  if (std::rename(temp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    ::unlink(temp.c_str());
    return ioError(path, "cannot rename into place", err);
  }
  return {};
}

}  // namespace throng
