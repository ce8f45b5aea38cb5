// Shared pieces of the libFuzzer targets: a private scratch folder and the message checks.
#include "fuzz_support.h"

#include <cstdio>
#include <cstdlib>
#include <fstream>

#include <unistd.h>

#include "throng/core/excerpt.h"

namespace throng::fuzz {
namespace {

std::filesystem::path makeScratch() {
  const std::filesystem::path base = std::filesystem::exists("/dev/shm")
                                         ? std::filesystem::path("/dev/shm")
                                         : std::filesystem::temp_directory_path();
  std::string pattern = (base / "throng-fuzz-XXXXXX").string();
  if (mkdtemp(pattern.data()) == nullptr) std::abort();
  return pattern;
}

}  // namespace

const std::filesystem::path& scratchDir() {
  static const std::filesystem::path dir = [] {
    std::filesystem::path made = makeScratch();
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(scratchDir(), ec);
    });
    return made;
  }();
  return dir;
}

void writeBytes(const std::filesystem::path& path, std::string_view bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  if (!out) std::abort();
}

void checkError(const Status& status, std::string_view source) {
  const std::string& m = status.message();
  const bool one_line = m.find('\n') == std::string::npos && m.find('\r') == std::string::npos;
  const bool bounded = m.size() <= kMaxMessageBytes + 32;
  const bool named = m.starts_with(source) && m.size() > source.size() &&
                     (m[source.size()] == ':' || m[source.size()] == ' ');
  if (status.ok() || !one_line || !bounded || !named) {
    std::fprintf(stderr, "bad error report (%s): %s\n", status.ok() ? "ok" : "error",
                 excerpt(m, 400).c_str());
    __builtin_trap();
  }
}

void reportAndTrap(std::string_view what, const Status& status) {
  std::fprintf(stderr, "finding: %.*s: %s\n", static_cast<int>(what.size()), what.data(),
               excerpt(status.message(), 400).c_str());
  __builtin_trap();
}

}  // namespace throng::fuzz
