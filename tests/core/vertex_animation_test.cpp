// Baked morph animation in packages: the vertex texture layout, the VATX round trip, and every
// rejection of a damaged VATX section (naming the file and the section).
#include "throng/core/vertex_animation.h"

#include <cmath>
#include <functional>
#include <limits>
#include <string>

#include <gtest/gtest.h>

#include "support/package_sections.h"
#include "support/test_support.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"

namespace throng {
namespace {

using test::PackageSection;
using test::readAt;
using test::writeAt;

TEST(VertexTexture, LayoutIsOneRunOfEvenRows) {
  const VertexTexture t = allocateVertexTexture(TexelFormat::kRgba32F, 5, 3, 9);
  EXPECT_EQ(t.width % 2, 0u);
  EXPECT_LE(t.width, 9u);
  // 3 blocks x 5 vertices x 2 texels = 30 texels in rows of at most 8: 4 rows of 8.
  EXPECT_EQ(t.width, 8u);
  EXPECT_EQ(t.height, 4u);
  EXPECT_EQ(t.texels32.size(), size_t{8} * 4 * 4);
  EXPECT_EQ(t.texelIndex(2, 4, 1), 29u);
  // A vertex's two texels share a row: its first texel index is even.
  for (uint32_t b = 0; b < 3; ++b) {
    for (uint32_t v = 0; v < 5; ++v) EXPECT_EQ(t.texelIndex(b, v, 0) % 2, 0u);
  }
  const VertexTexture one = allocateVertexTexture(TexelFormat::kRgba16F, 1, 1, 4096);
  EXPECT_EQ(one.width, 2u);
  EXPECT_EQ(one.height, 1u);
  EXPECT_EQ(one.texels16.size(), 8u);
}

TEST(VertexTexture, StoresAndLoadsTexels) {
  VertexTexture t32 = allocateVertexTexture(TexelFormat::kRgba32F, 3, 2, 6);
  storeVertexTexel(t32, 1, 2, 1, glm::vec3(0.1f, -2.0f, 3.5f));
  EXPECT_EQ(loadVertexTexel(t32, 1, 2, 1), glm::vec3(0.1f, -2.0f, 3.5f));
  VertexTexture t16 = allocateVertexTexture(TexelFormat::kRgba16F, 3, 2, 6);
  storeVertexTexel(t16, 1, 2, 0, glm::vec3(0.1f, -2.0f, 3.5f));
  const glm::vec3 back = loadVertexTexel(t16, 1, 2, 0);
  EXPECT_NEAR(back.x, 0.1f, 1e-4f);  // half precision
  EXPECT_EQ(back.y, -2.0f);
}

// The chain character (3 joints, 20 vertices) with one 4-frame clip and a morph animation of
// `kind`, by hand: the layout bakeMorphAnimation makes.
Package morphPackage(MorphBakeKind kind, TexelFormat format = TexelFormat::kRgba32F) {
  const Character c = test::makeChainCharacter();
  Package p = test::makeChainPackage(format);
  MorphAnimation& m = p.morph;
  m.kind = kind;
  const uint32_t n = static_cast<uint32_t>(c.mesh.vertexCount());
  const uint32_t blocks = kind == MorphBakeKind::kVertexFrames ? 4 : 2;
  if (kind == MorphBakeKind::kTargetDeltas) {
    m.targets = {"smile", "blink"};
    m.frame_weights = {0, 0, 0.5f, 0, 1, 0.25f, 0.5f, 1};
  }
  VertexTexture v = allocateVertexTexture(format, n, blocks, 64);
  for (uint32_t b = 0; b < blocks; ++b) {
    for (uint32_t i = 0; i < n; ++i) {
      const glm::vec3 shift(0.0f, 0.0f, 0.01f * static_cast<float>(b + 1));
      storeVertexTexel(v, b, i, 0,
                       kind == MorphBakeKind::kVertexFrames ? c.mesh.positions[i] + shift : shift);
      storeVertexTexel(v, b, i, 1,
                       kind == MorphBakeKind::kVertexFrames ? c.mesh.normals[i] : glm::vec3(0.0f));
    }
  }
  m.lods.push_back(std::move(v));
  return p;
}

std::string written(const Package& p) {
  const auto dir = test::makeTempDir("vatx");
  EXPECT_TRUE(writePackage(p, (dir / "chain.throng").string()).ok());
  std::string bytes = test::readFile(dir / "chain.throng");
  std::filesystem::remove_all(dir);
  return bytes;
}

void expectSameMorph(const MorphAnimation& a, const MorphAnimation& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.targets, b.targets);
  EXPECT_EQ(a.frame_weights, b.frame_weights);
  EXPECT_EQ(a.max_error, b.max_error);
  ASSERT_EQ(a.lods.size(), b.lods.size());
  for (size_t l = 0; l < a.lods.size(); ++l) {
    EXPECT_EQ(a.lods[l].format, b.lods[l].format);
    EXPECT_EQ(a.lods[l].width, b.lods[l].width);
    EXPECT_EQ(a.lods[l].height, b.lods[l].height);
    EXPECT_EQ(a.lods[l].vertex_count, b.lods[l].vertex_count);
    EXPECT_EQ(a.lods[l].block_count, b.lods[l].block_count);
    EXPECT_EQ(a.lods[l].texels32, b.lods[l].texels32);
    EXPECT_EQ(a.lods[l].texels16, b.lods[l].texels16);
  }
}

TEST(PackageMorph, RoundTripsEveryKindAndFormat) {
  for (MorphBakeKind kind :
       {MorphBakeKind::kNone, MorphBakeKind::kVertexFrames, MorphBakeKind::kTargetDeltas}) {
    for (TexelFormat format : {TexelFormat::kRgba32F, TexelFormat::kRgba16F}) {
      Package p = morphPackage(kind, format);
      if (kind == MorphBakeKind::kNone) p.morph = MorphAnimation{};
      p.morph.max_error = kind == MorphBakeKind::kNone ? 0.0f : 0.00025f;
      const std::string bytes = written(p);
      EXPECT_EQ(readAt<uint32_t>(bytes, 8), kPackageVersion);
      Result<Package> back = parsePackage(test::asBytes(bytes), "chain.throng");
      ASSERT_TRUE(back.ok()) << back.status().toString();
      expectSameMorph(p.morph, back->morph);
    }
  }
}

TEST(PackageMorph, MeshesWithUnbakedTargetsAreRefused) {
  Package p = morphPackage(MorphBakeKind::kNone);
  p.morph = MorphAnimation{};
  MorphTarget t;
  t.name = "smile";
  t.positions.assign(p.lods[0].mesh.vertexCount(), glm::vec3(0.0f));
  p.lods[0].mesh.morph_targets.push_back(t);
  const Status s = validatePackage(p, "chain.throng");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(s.message(),
            "chain.throng: section VATX: LOD 0 mesh still has 1 morph targets; a package holds "
            "them baked (bakeMorphAnimation)");
}

// A package edited by hand and the message validatePackage gives it, after
// "chain.throng: section VATX: ".
struct Inconsistency {
  const char* name;
  MorphBakeKind kind;
  std::function<void(Package&)> edit;
  const char* message;
};

// What the reader cannot produce but a package built in memory can hold: validatePackage refuses
// it (code and message as a damaged file's).
TEST(PackageMorph, InconsistentMorphDataIsRefusedNamingTheSection) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Inconsistency cases[] = {
      {"none with textures", MorphBakeKind::kNone, [](Package&) {},
       "no morph animation, but textures, targets or weights"},
      {"kind", MorphBakeKind::kVertexFrames,
       [](Package& p) { p.morph.kind = static_cast<MorphBakeKind>(9); }, "unknown morph kind 9"},
      {"error", MorphBakeKind::kVertexFrames, [](Package& p) { p.morph.max_error = -1.0f; },
       "error is negative or not finite"},
      {"weight count", MorphBakeKind::kTargetDeltas,
       [](Package& p) { p.morph.frame_weights.pop_back(); }, "7 weights for 4 frames of 2 targets"},
      {"weight nan", MorphBakeKind::kTargetDeltas,
       [nan](Package& p) { p.morph.frame_weights[3] = nan; },
       "weight 3 (frame 1, target 1) is not finite"},
      {"lod count", MorphBakeKind::kVertexFrames, [](Package& p) { p.morph.lods.clear(); },
       "0 LOD textures for 1 LODs"},
      {"format", MorphBakeKind::kVertexFrames,
       [](Package& p) {
         p.lods.push_back(p.lods[0]);
         p.morph.lods.push_back(allocateVertexTexture(
             TexelFormat::kRgba16F, static_cast<uint32_t>(p.lods[1].mesh.vertexCount()), 4, 64));
       },
       "LOD 1 texture: another texel format"},
      {"odd width", MorphBakeKind::kVertexFrames, [](Package& p) { p.morph.lods[0].width = 63; },
       "LOD 0 texture: 63x3 is not an even width within the limit of 32768"},
      {"rows", MorphBakeKind::kVertexFrames, [](Package& p) { p.morph.lods[0].height = 4; },
       "LOD 0 texture: 160 texels at width 54 need 3 rows, height is 4"},
      {"channels", MorphBakeKind::kVertexFrames,
       [](Package& p) { p.morph.lods[0].texels32.pop_back(); },
       "LOD 0 texture: 647 channels, expected 648"},
  };
  for (const Inconsistency& c : cases) {
    Package p = morphPackage(c.kind);
    c.edit(p);
    const Status s = validatePackage(p, "chain.throng");
    EXPECT_EQ(s.code(), ErrorCode::kInvalidData) << c.name;
    EXPECT_EQ(s.message(), std::string("chain.throng: section VATX: ") + c.message) << c.name;
  }
}

// VATX offsets of a kVertexFrames package (docs/formats.md): kind 0, format 1, error 4, target
// count 8, weight count 12, LOD count 16, then LOD 0: width 20, height 24, vertices 28, blocks 32,
// texels 36.
constexpr size_t kVatxKind = 0;
constexpr size_t kVatxFormat = 1;
constexpr size_t kVatxWidth = 20;
constexpr size_t kVatxBlocks = 32;
constexpr size_t kVatxTexels = 36;

struct Corruption {
  const char* name;
  std::function<void(std::string&)> edit;
  ErrorCode code;
  const char* message;  // in the message, after "chain.throng: section VATX"
};

TEST(PackageMorph, DamagedSectionsAreRejectedNamingFileAndSection) {
  const std::string valid = written(morphPackage(MorphBakeKind::kVertexFrames));
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const Corruption cases[] = {
      {"kind", [](std::string& b) { b[kVatxKind] = 9; }, ErrorCode::kParseError,
       "unknown morph kind 9"},
      {"blocks", [](std::string& b) { writeAt<uint32_t>(b, kVatxBlocks, 5); },
       ErrorCode::kInvalidData,
       "LOD 0 texture: 20 vertices x 5 blocks, the LOD has 20 vertices and 4 frames"},
      {"nan", [nan](std::string& b) { writeAt<float>(b, kVatxTexels + 4 * 9, nan); },
       ErrorCode::kInvalidData, "LOD 0 texture: texel 2 is not finite"},
      {"weights",
       [](std::string& b) {
         writeAt<uint32_t>(b, 12, 1);
         b.insert(16, 4, '\0');
       },
       ErrorCode::kInvalidData, "vertex frames with target names or weights"},
      {"format", [](std::string& b) { b[kVatxFormat] = 7; }, ErrorCode::kParseError,
       "unknown texel format 7"},
      {"width", [](std::string& b) { writeAt<uint32_t>(b, kVatxWidth, 40000); },
       ErrorCode::kParseError, "vertex texture 40000x"},
  };
  for (const Corruption& c : cases) {
    std::vector<PackageSection> sections = test::splitPackage(valid);
    for (PackageSection& s : sections) {
      if (s.tag == kSectionMorph) c.edit(s.body);
    }
    Result<Package> p = parsePackage(test::asBytes(test::buildPackage(sections)), "chain.throng");
    ASSERT_FALSE(p.ok()) << c.name;
    EXPECT_EQ(p.status().code(), c.code) << c.name;
    EXPECT_TRUE(p.status().message().starts_with("chain.throng: section VATX"))
        << p.status().message();
    EXPECT_NE(p.status().message().find(c.message), std::string::npos) << p.status().message();
  }
  // Truncated: the reader stops at the end of the section, naming it.
  std::vector<PackageSection> sections = test::splitPackage(valid);
  for (PackageSection& s : sections) {
    if (s.tag == kSectionMorph) s.body.resize(s.body.size() - 8);
  }
  Result<Package> cut = parsePackage(test::asBytes(test::buildPackage(sections)), "chain.throng");
  ASSERT_FALSE(cut.ok());
  EXPECT_TRUE(cut.status().message().starts_with("chain.throng: section VATX"))
      << cut.status().message();
  // A version 5 package without the section.
  std::vector<PackageSection> without;
  for (const PackageSection& s : test::splitPackage(valid)) {
    if (s.tag != kSectionMorph) without.push_back(s);
  }
  Result<Package> missing =
      parsePackage(test::asBytes(test::buildPackage(without)), "chain.throng");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "chain.throng: section VATX is missing");
}

}  // namespace
}  // namespace throng
