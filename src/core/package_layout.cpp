// Package header and section table: checksum, and the validation shared by every reader.
#include <algorithm>
#include <cstring>
#include <unordered_set>

#include <fmt/core.h>

#include "byte_io.h"
#include "throng/core/package_format.h"

namespace throng {

uint64_t fnv1a64(std::span<const std::byte> bytes, uint64_t hash) {
  constexpr uint64_t kFnvPrime = 0x100000001b3ull;
  for (std::byte b : bytes) {
    hash ^= static_cast<uint64_t>(b);
    hash *= kFnvPrime;
  }
  return hash;
}

std::string PackageSectionInfo::name() const {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const char c = static_cast<char>((tag >> (8 * i)) & 0xffu);
    s += (c >= 32 && c < 127) ? c : '?';
  }
  return s;
}

Result<PackageLayout> readPackageLayout(std::span<const std::byte> bytes, std::string_view source) {
  auto parseError = [&](const std::string& what) {
    return Status(ErrorCode::kParseError, fmt::format("{}: {}", source, what));
  };
  if (bytes.size() < kPackageHeaderSize) {
    return parseError(fmt::format("{} bytes is too short for a package header ({} bytes)",
                                  bytes.size(), kPackageHeaderSize));
  }
  if (std::memcmp(bytes.data(), kPackageMagic.data(), kPackageMagic.size()) != 0) {
    return parseError("not a throng package (bad magic)");
  }
  detail::ByteReader header(bytes.subspan(8, kPackageHeaderSize - 8), source, "header");
  PackageLayout layout;
  layout.version = header.u32("version");
  const uint32_t endian = header.u32("endianness marker");
  layout.file_size = header.u64("file size");
  const uint32_t section_count = header.u32("section count");
  header.u32("reserved");
  const uint64_t header_checksum = header.u64("header checksum");
  if (endian != kPackageEndianMarker) {
    return parseError(fmt::format("endianness marker is {:#010x}, expected {:#010x}", endian,
                                  kPackageEndianMarker));
  }
  if (layout.version < kOldestReadablePackageVersion) {
    return Status(
        ErrorCode::kVersionMismatch,
        fmt::format("{}: package format version {} is no longer read (this throng "
                    "reads versions {} to {}): bake the package again",
                    source, layout.version, kOldestReadablePackageVersion, kPackageVersion));
  }
  if (layout.version > kPackageVersion) {
    return Status(
        ErrorCode::kVersionMismatch,
        fmt::format("{}: package format version {} was written by a newer throng (this "
                    "one reads versions {} to {}): update throng, or bake the package "
                    "again with this one",
                    source, layout.version, kOldestReadablePackageVersion, kPackageVersion));
  }
  if (layout.file_size != bytes.size()) {
    return parseError(fmt::format("header says the file has {} bytes, it has {} (truncated?)",
                                  layout.file_size, bytes.size()));
  }
  if (section_count > kMaxPackageSections) {
    return parseError(
        fmt::format("{} sections, more than the limit of {}", section_count, kMaxPackageSections));
  }
  const size_t table_end = kPackageHeaderSize + section_count * kPackageSectionEntrySize;
  if (table_end > bytes.size()) {
    return parseError(
        fmt::format("section table of {} entries runs past the end of the file", section_count));
  }
  // The header checksum covers the header before its checksum field, then the section table.
  uint64_t hash = fnv1a64(bytes.first(kPackageHeaderSize - 8));
  hash = fnv1a64(bytes.subspan(kPackageHeaderSize, table_end - kPackageHeaderSize), hash);
  if (hash != header_checksum) {
    return parseError("header checksum mismatch (the header or section table is corrupted)");
  }
  detail::ByteReader table(bytes.subspan(kPackageHeaderSize, table_end - kPackageHeaderSize),
                           source, "table");
  std::unordered_set<uint32_t> seen;
  for (uint32_t i = 0; i < section_count; ++i) {
    PackageSectionInfo s;
    s.tag = table.u32("tag");
    table.u32("reserved");
    s.offset = table.u64("offset");
    s.size = table.u64("size");
    s.checksum = table.u64("checksum");
    if (!seen.insert(s.tag).second) {
      return parseError(fmt::format("section {} appears twice", s.name()));
    }
    if (s.offset < table_end || s.offset > bytes.size() || s.size > bytes.size() - s.offset) {
      return parseError(fmt::format("section {} range [{}, +{}) is outside the file's {} bytes",
                                    s.name(), s.offset, s.size, bytes.size()));
    }
    if (fnv1a64(bytes.subspan(s.offset, s.size)) != s.checksum) {
      return parseError(fmt::format("section {} checksum mismatch (corrupted)", s.name()));
    }
    layout.sections.push_back(s);
  }
  // Sections must not overlap (each byte belongs to one section).
  for (size_t a = 0; a < layout.sections.size(); ++a) {
    for (size_t b = a + 1; b < layout.sections.size(); ++b) {
      const PackageSectionInfo& x = layout.sections[a];
      const PackageSectionInfo& y = layout.sections[b];
      if (x.offset < y.offset + y.size && y.offset < x.offset + x.size) {
        return parseError(fmt::format("sections {} and {} overlap", x.name(), y.name()));
      }
    }
  }
  // Every byte outside the sections is padding and must be zero, so no flipped byte goes
  // unnoticed by the checksums.
  std::vector<const PackageSectionInfo*> order;
  for (const PackageSectionInfo& sec : layout.sections) order.push_back(&sec);
  std::sort(order.begin(), order.end(),
            [](const auto* a, const auto* b) { return a->offset < b->offset; });
  uint64_t at = table_end;
  auto checkGap = [&](uint64_t end) {
    for (; at < end; ++at) {
      if (bytes[at] != std::byte{0}) return false;
    }
    return true;
  };
  for (const PackageSectionInfo* sec : order) {
    if (!checkGap(sec->offset)) {
      return parseError(fmt::format("non-zero padding byte at offset {}", at));
    }
    at = sec->offset + sec->size;
  }
  if (!checkGap(bytes.size())) {
    return parseError(fmt::format("non-zero padding byte at offset {}", at));
  }
  return layout;
}

}  // namespace throng
