// Mutation test of the package reader: damage that checksums catch, and damage inside sections and
// the section table with the checksums recomputed, so that it reaches every field's decoder.
#include <cstring>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "mutation/mutator.h"
#include "support/package_sections.h"
#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"
#include "throng/offline/bake.h"
#include "throng/offline/lod.h"
#include "throng/offline/sample_character.h"

namespace throng {
namespace {

using test::asBytes;
using test::buildPackage;
using Section = test::PackageSection;

// Small packages from our own baker: the sample at 2 fps with its LOD chain in half floats, and
// the three-joint chain in full floats.
std::vector<std::pair<std::string, std::string>> packages() {
  const auto dir = test::makeTempDir("package-mutation-src");
  std::vector<std::pair<std::string, std::string>> out;
  BakeOptions options;
  options.fps = 2.0f;
  options.format = TexelFormat::kRgba16F;
  const Character sample = makeSampleCharacter();
  Result<Package> p = bakeCharacter(sample, options);
  EXPECT_TRUE(p.ok()) << p.status().message();
  Result<std::vector<MeshLod>> lods = buildLodChain(sample, defaultLodChainOptions());
  EXPECT_TRUE(lods.ok()) << lods.status().message();
  if (p.ok() && lods.ok()) {
    p->lods = std::move(*lods);
    EXPECT_TRUE(writePackage(*p, (dir / "sample.throng").string()).ok());
    out.emplace_back("sample.throng", test::readFile(dir / "sample.throng"));
  }
  options.format = TexelFormat::kRgba32F;
  options.fps = 10.0f;
  Result<Package> chain = bakeCharacter(test::makeChainCharacter(), options);
  EXPECT_TRUE(chain.ok()) << chain.status().message();
  if (chain.ok()) {
    EXPECT_TRUE(writePackage(*chain, (dir / "chain.throng").string()).ok());
    out.emplace_back("chain.throng", test::readFile(dir / "chain.throng"));
  }
  std::filesystem::remove_all(dir);
  return out;
}

TEST(PackageMutation, EveryMutationEndsInAValidPackageOrOneClearLine) {
  for (const auto& [name, file] : packages()) {
    const std::vector<Section> sections = test::splitPackage(file);
    ASSERT_EQ(buildPackage(sections), file) << "the test's layout differs from the writer's";
    int ok = 0;
    for (int i = 0; i < test::kMutationsPerInput; ++i) {
      std::mt19937_64 rng = test::mutationRng(name, i);
      const std::string label = name + " mutation " + std::to_string(i);
      std::string bytes;
      const unsigned kind = static_cast<unsigned>(rng() % 4);
      if (kind == 0) {  // anywhere: mostly a checksum's business
        bytes = test::mutateBytes(file, rng);
      } else if (kind == 1 || kind == 2) {  // inside one section, checksums made right again
        std::vector<Section> damaged = sections;
        std::string& body = damaged[rng() % damaged.size()].body;
        body = test::mutateBytes(body, rng);
        bytes = buildPackage(damaged);
      } else {  // the section table: offsets past the end, sizes enlarged, tags swapped
        bytes = buildPackage(sections, [&](std::string& table) {
          table = test::mutateBytes(table, rng);
          table.resize(sections.size() * kPackageSectionEntrySize, '\0');
        });
      }
      test::expectWithinTimeLimit(
          [&] {
            Result<Package> p = parsePackage(asBytes(bytes), name);
            test::expectCleanOutcome(p.ok(), p.status(), name, label);
            if (p.ok()) {
              ++ok;
              EXPECT_TRUE(validatePackage(*p, name).ok()) << label;
            }
          },
          label);
      if (HasFailure()) return;
    }
    RecordProperty(name, ok);
  }
}

TEST(PackageMutation, HostileCountsAreRefusedBeforeTheyAreAllocated) {
  // Every u32 of the skeleton, LOD and clip sections set to a billion in turn: the reader must
  // refuse each (a count cannot exceed the bytes left) without allocating it.
  const auto all = packages();
  ASSERT_FALSE(all.empty());
  const std::vector<Section> sections =
      test::splitPackage(all.back().second);  // the chain: small sections
  int refused = 0;
  for (size_t s = 0; s < sections.size(); ++s) {
    if (sections[s].tag == kSectionTexture) continue;  // texels: any value is a value
    for (size_t at = 0; at + 4 <= sections[s].body.size(); at += 4) {
      std::vector<Section> damaged = sections;
      const uint32_t billion = 1'000'000'000u;
      std::memcpy(damaged[s].body.data() + at, &billion, 4);
      const std::string bytes = buildPackage(damaged);
      Result<Package> p = parsePackage(asBytes(bytes), "counts.throng");
      const std::string label = "section " + std::to_string(s) + " word at " + std::to_string(at);
      test::expectCleanOutcome(p.ok(), p.status(), "counts.throng", label);
      refused += p.ok() ? 0 : 1;
    }
  }
  EXPECT_GT(refused, 0);
}

}  // namespace
}  // namespace throng
