// libFuzzer target: the package reader. A package it accepts passes validatePackage. Each input
// is read twice: as it is, and with its checksums made right, so that mutations get past the
// checksums (which a fuzzer cannot solve) into the section decoders.
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <vector>

#include "fuzz_support.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"

namespace {

template <typename T>
T load(const std::vector<std::byte>& b, size_t at) {
  T v{};
  std::memcpy(&v, b.data() + at, sizeof(T));
  return v;
}

// Rewrites every in-range section checksum and the header checksum (layout: docs/formats.md).
void fixChecksums(std::vector<std::byte>& b) {
  using namespace throng;
  if (b.size() < kPackageHeaderSize) return;
  const uint64_t count = load<uint32_t>(b, 24);
  const uint64_t table_end = kPackageHeaderSize + count * kPackageSectionEntrySize;
  if (count > kMaxPackageSections || table_end > b.size()) return;
  const std::span<const std::byte> all(b);
  for (uint64_t i = 0; i < count; ++i) {
    const size_t entry = kPackageHeaderSize + static_cast<size_t>(i) * kPackageSectionEntrySize;
    const uint64_t offset = load<uint64_t>(b, entry + 8);
    const uint64_t size = load<uint64_t>(b, entry + 16);
    if (offset > b.size() || size > b.size() - offset) continue;
    const uint64_t sum =
        fnv1a64(all.subspan(static_cast<size_t>(offset), static_cast<size_t>(size)));
    std::memcpy(b.data() + entry + 24, &sum, sizeof(sum));
  }
  uint64_t hash = fnv1a64(all.first(kPackageHeaderSize - 8));
  hash = fnv1a64(
      all.subspan(kPackageHeaderSize, static_cast<size_t>(table_end) - kPackageHeaderSize), hash);
  std::memcpy(b.data() + kPackageHeaderSize - 8, &hash, sizeof(hash));
}

void readOnce(std::span<const std::byte> bytes) {
  using namespace throng;
  Result<Package> package = parsePackage(bytes, "fuzz.throng");
  if (!package.ok()) {
    fuzz::checkError(package.status(), "fuzz.throng");
    return;
  }
  if (Status s = validatePackage(*package, "fuzz.throng"); !s.ok()) {
    fuzz::reportAndTrap("the reader returned a package its own validation refuses", s);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const auto bytes = std::as_bytes(std::span<const uint8_t>(data, size));
  readOnce(bytes);
  std::vector<std::byte> fixed(bytes.begin(), bytes.end());
  fixChecksums(fixed);
  readOnce(fixed);
  return 0;
}
