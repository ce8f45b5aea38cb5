// Test helper: a package file as its sections, and the file rebuilt from (edited) sections with
// every size, offset and checksum recomputed, so an edit reaches the section's decoder.
#pragma once

#include <cstdint>
#include <cstring>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace throng::test {

struct PackageSection {
  uint32_t tag = 0;
  std::string body;
};

inline std::span<const std::byte> asBytes(const std::string& s) {
  return std::as_bytes(std::span<const char>(s));
}

// The sections of a valid package file, in table order (fails the test on a damaged file).
std::vector<PackageSection> splitPackage(const std::string& file);

// The file docs/formats.md describes holding `sections`; `table_edit` may change the section
// table (32 bytes per entry) before the header checksum is computed over it.
std::string buildPackage(const std::vector<PackageSection>& sections,
                         const std::function<void(std::string&)>& table_edit = {});

template <typename T>
T readAt(const std::string& bytes, size_t at) {
  T value{};
  std::memcpy(&value, bytes.data() + at, sizeof(T));
  return value;
}

template <typename T>
void writeAt(std::string& bytes, size_t at, T value) {
  std::memcpy(bytes.data() + at, &value, sizeof(T));
}

}  // namespace throng::test
