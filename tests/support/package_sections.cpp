// Test helper: a package file as its sections, and the file rebuilt from (edited) sections.
#include "support/package_sections.h"

#include <gtest/gtest.h>

#include "throng/core/package_format.h"

namespace throng::test {
namespace {

template <typename T>
void put(std::string& out, T value) {
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

}  // namespace

std::vector<PackageSection> splitPackage(const std::string& file) {
  Result<PackageLayout> layout = readPackageLayout(asBytes(file), "original");
  EXPECT_TRUE(layout.ok()) << layout.status().message();
  std::vector<PackageSection> sections;
  if (!layout.ok()) return sections;
  for (const PackageSectionInfo& s : layout->sections) {
    sections.push_back({s.tag, file.substr(s.offset, s.size)});
  }
  return sections;
}

std::string buildPackage(const std::vector<PackageSection>& sections,
                         const std::function<void(std::string&)>& table_edit) {
  std::string table;
  uint64_t offset = kPackageHeaderSize + sections.size() * kPackageSectionEntrySize;
  std::vector<uint64_t> offsets;
  for (const PackageSection& s : sections) {
    offset = (offset + kPackageSectionAlignment - 1) / kPackageSectionAlignment *
             kPackageSectionAlignment;
    offsets.push_back(offset);
    put(table, s.tag);
    put(table, uint32_t{0});
    put(table, offset);
    put(table, static_cast<uint64_t>(s.body.size()));
    put(table, fnv1a64(asBytes(s.body)));
    offset += s.body.size();
  }
  if (table_edit) table_edit(table);
  std::string out(kPackageMagic.data(), kPackageMagic.size());
  put(out, kPackageVersion);
  put(out, kPackageEndianMarker);
  put(out, offset);
  put(out, static_cast<uint32_t>(sections.size()));
  put(out, uint32_t{0});
  put(out, fnv1a64(asBytes(table), fnv1a64(asBytes(out))));
  out += table;
  for (size_t i = 0; i < sections.size(); ++i) {
    out.resize(offsets[i], '\0');
    out += sections[i].body;
  }
  return out;
}

}  // namespace throng::test
