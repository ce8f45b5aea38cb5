// The package's impostor section (IMPS, format version 6): round trip, and damaged or
// inconsistent sections rejected naming the file and the section.
#include <cmath>
#include <filesystem>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/package_sections.h"
#include "support/test_support.h"
#include "throng/core/impostor.h"
#include "throng/core/package.h"
#include "throng/core/package_format.h"

namespace throng {
namespace {

using test::writeAt;

// A 2 x 1 view impostor of 4x3 tiles over the chain character's one clip (2 frames): an 8x6
// atlas whose every byte differs from its neighbours, so a shifted or swapped byte shows.
Impostor smallImpostor() {
  Impostor m;
  m.azimuths = 2;
  m.elevations = 1;
  m.tile_width = 4;
  m.tile_height = 3;
  m.center = {0.0f, 0.5f, 0.0f};
  m.size = {0.6f, 1.2f};
  m.fps = 10.0f;
  m.clip_frames = {2};
  m.max_error = 0.04f;
  m.color.resize(8 * 6 * kImpostorColorBytes);
  m.normals.resize(8 * 6 * kImpostorNormalBytes);
  for (size_t i = 0; i < m.color.size(); ++i) m.color[i] = static_cast<uint8_t>(i * 7 + 1);
  for (size_t i = 0; i < m.normals.size(); ++i) m.normals[i] = static_cast<uint8_t>(i * 5 + 3);
  return m;
}

Package impostorPackage() {
  Package p = test::makeChainPackage();
  p.impostor = smallImpostor();
  return p;
}

// The IMPS section's bytes (docs/formats.md): the fixed fields end at 44, then the clip count.
constexpr size_t kImpsAzimuths = 0;
constexpr size_t kImpsTileWidth = 8;
constexpr size_t kImpsMaxError = 40;
constexpr size_t kImpsClipCount = 44;
constexpr size_t kImpsFirstClipFrames = 48;

// The package file with `edit` applied to its IMPS section (sizes and checksums made right).
std::string editedFile(const std::function<void(std::string&)>& edit) {
  const auto dir = test::makeTempDir("package-impostor");
  EXPECT_TRUE(writePackage(impostorPackage(), (dir / "p.throng").string()).ok());
  std::vector<test::PackageSection> sections = test::splitPackage(test::readFile(dir / "p.throng"));
  std::filesystem::remove_all(dir);
  bool found = false;
  for (test::PackageSection& s : sections) {
    if (s.tag != kSectionImpostor) continue;
    edit(s.body);
    found = true;
  }
  EXPECT_TRUE(found) << "no IMPS section";
  return test::buildPackage(sections);
}

TEST(PackageImpostor, RoundTripsEveryField) {
  const auto dir = test::makeTempDir("package-impostor");
  const std::string path = (dir / "hero.throng").string();
  const Package p = impostorPackage();
  ASSERT_TRUE(writePackage(p, path).ok());
  Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  const Impostor& a = p.impostor;
  const Impostor& b = back->impostor;
  EXPECT_EQ(b.azimuths, a.azimuths);
  EXPECT_EQ(b.elevations, a.elevations);
  EXPECT_EQ(b.tile_width, a.tile_width);
  EXPECT_EQ(b.tile_height, a.tile_height);
  EXPECT_EQ(b.center, a.center);
  EXPECT_EQ(b.size, a.size);
  EXPECT_EQ(b.fps, a.fps);
  EXPECT_EQ(b.max_error, a.max_error);
  EXPECT_EQ(b.clip_frames, a.clip_frames);
  EXPECT_EQ(b.color, a.color);
  EXPECT_EQ(b.normals, a.normals);
  EXPECT_EQ(b.atlasWidth(), 8u);
  EXPECT_EQ(b.atlasHeight(), 6u);
  std::filesystem::remove_all(dir);
}

TEST(PackageImpostor, APackageWithoutOneReadsBackEmpty) {
  const auto dir = test::makeTempDir("package-impostor");
  const std::string path = (dir / "plain.throng").string();
  ASSERT_TRUE(writePackage(test::makeChainPackage(), path).ok());
  Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->impostor.empty());
  EXPECT_EQ(back->impostor.byteSize(), 0u);
  std::filesystem::remove_all(dir);
}

struct DamageCase {
  const char* name;
  std::function<void(std::string&)> edit;
  ErrorCode code;
  const char* message;  // after "p.throng: section IMPS"
};

TEST(PackageImpostor, DamagedSectionsAreRejectedNamingFileAndSection) {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const std::vector<DamageCase> cases = {
      {"truncated atlas", [](std::string& b) { b.resize(b.size() - 5); }, ErrorCode::kParseError,
       " at byte 244: normal atlas claims 48 entries of 3 bytes, only 139 bytes left"},
      {"cut in the header", [](std::string& b) { b.resize(10); }, ErrorCode::kParseError,
       " at byte 8: tile width needs 4 bytes, only 2 left"},
      {"trailing bytes", [](std::string& b) { b += "xy"; }, ErrorCode::kParseError,
       " at byte 388: 2 unexpected trailing bytes"},
      {"huge clip count", [](std::string& b) { writeAt<uint32_t>(b, kImpsClipCount, 1u << 30); },
       ErrorCode::kParseError,
       " at byte 48: clip frame counts claims 1073741824 entries of 4 bytes"},
      {"too many views", [](std::string& b) { writeAt<uint32_t>(b, kImpsAzimuths, 65); },
       ErrorCode::kParseError, " at byte 52: 65 x 1 views exceed the limit of 64 x 16"},
      {"atlas over the limit", [](std::string& b) { writeAt<uint32_t>(b, kImpsTileWidth, 5000); },
       ErrorCode::kParseError, " at byte 52: atlas 10000x6 exceeds the limit of 8192 per side"},
      {"frames of a clip the package lacks",
       [](std::string& b) {
         writeAt<uint32_t>(b, kImpsClipCount, 2);
         writeAt<uint32_t>(b, kImpsFirstClipFrames, 1);
         b.insert(kImpsFirstClipFrames + 4, std::string("\x01\0\0\0", 4));
       },
       ErrorCode::kInvalidData, ": frame counts for 2 clips, the package has 1"},
      // With no frames (or views) the atlases are empty: the section ends after the counts.
      {"zero frames",
       [](std::string& b) {
         writeAt<uint32_t>(b, kImpsFirstClipFrames, 0);
         b.resize(kImpsFirstClipFrames + 4);
       },
       ErrorCode::kInvalidData, ": clip 0 has 0 frames"},
      {"non-finite error", [nan](std::string& b) { writeAt<float>(b, kImpsMaxError, nan); },
       ErrorCode::kInvalidData,
       ": rate, size, centre or error is negative, zero-rate or not finite"},
      {"no views but tiles",
       [](std::string& b) {
         writeAt<uint32_t>(b, kImpsAzimuths, 0);
         b.resize(kImpsFirstClipFrames + 4);
       },
       ErrorCode::kInvalidData, ": no views but tiles, frames or atlas data"},
  };
  for (const DamageCase& c : cases) {
    SCOPED_TRACE(c.name);
    const std::string file = editedFile(c.edit);
    Result<Package> r = parsePackage(test::asBytes(file), "p.throng");
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), c.code) << r.status().message();
    EXPECT_NE(r.status().message().find(std::string("p.throng: section IMPS") + c.message),
              std::string::npos)
        << r.status().message();
  }
}

TEST(PackageImpostor, AFlippedAtlasByteFailsTheChecksum) {
  const auto dir = test::makeTempDir("package-impostor");
  const std::string path = (dir / "p.throng").string();
  ASSERT_TRUE(writePackage(impostorPackage(), path).ok());
  std::string file = test::readFile(path);
  std::filesystem::remove_all(dir);
  file[file.size() - 3] ^= 0x10;  // inside the normal atlas, IMPS being the last section
  Result<Package> r = parsePackage(test::asBytes(file), "p.throng");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("p.throng: section IMPS checksum mismatch"),
            std::string::npos)
      << r.status().message();
}

TEST(PackageImpostor, AVersion6PackageWithoutTheSectionIsRefused) {
  const auto dir = test::makeTempDir("package-impostor");
  ASSERT_TRUE(writePackage(impostorPackage(), (dir / "p.throng").string()).ok());
  std::vector<test::PackageSection> sections = test::splitPackage(test::readFile(dir / "p.throng"));
  std::filesystem::remove_all(dir);
  std::erase_if(sections, [](const test::PackageSection& s) { return s.tag == kSectionImpostor; });
  Result<Package> r = parsePackage(test::asBytes(test::buildPackage(sections)), "p.throng");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kParseError);
  EXPECT_NE(r.status().message().find("p.throng: section IMPS is missing"), std::string::npos)
      << r.status().message();
}

TEST(PackageImpostor, WritingAnInconsistentOneFails) {
  Package p = impostorPackage();
  p.impostor.normals.pop_back();
  const auto dir = test::makeTempDir("package-impostor");
  const Status s = writePackage(p, (dir / "p.throng").string());
  std::filesystem::remove_all(dir);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_NE(s.message().find("section IMPS: atlases of 192 and 143 bytes, 8x6 needs 192 and 144"),
            std::string::npos)
      << s.message();
}

TEST(PackageImpostor, ValidationRefusesSizesPastTheLimitsAndEmptyTiles) {
  Impostor m = smallImpostor();
  m.azimuths = 65;
  Status s = validateImpostor(m, 1, "p.throng: section IMPS");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(s.message(), "p.throng: section IMPS: 65 x 1 views exceed the limit of 64 x 16");
  m = smallImpostor();
  m.tile_height = 5000;
  s = validateImpostor(m, 1, "p.throng: section IMPS");
  EXPECT_EQ(s.code(), ErrorCode::kLimitExceeded);
  EXPECT_EQ(s.message(),
            "p.throng: section IMPS: atlas 8x10000 exceeds the limit of 8192 per side");
  m = smallImpostor();
  m.tile_width = 0;
  s = validateImpostor(m, 1, "p.throng: section IMPS");
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData);
  EXPECT_EQ(s.message(), "p.throng: section IMPS: 1 elevations and 0x3 tiles: none may be 0");
}

TEST(ImpostorLayout, ViewsAndFramesFollowTheDocumentedFormulas) {
  // Azimuth 0 puts the camera on +Z; elevations are band centres of 90 / E degrees.
  const glm::vec3 d = impostorViewDirection(4, 2, 0, 1);
  EXPECT_NEAR(impostorElevation(2, 0), 22.5f * 3.14159265f / 180.0f, 1e-6f);
  EXPECT_NEAR(d.x, std::cos(impostorElevation(2, 0)), 1e-6f);
  EXPECT_NEAR(d.z, 0.0f, 1e-6f);
  EXPECT_NEAR(glm::length(d), 1.0f, 1e-6f);
  EXPECT_EQ(impostorFrameCount(1.04f, 10.0f), 10u);
  EXPECT_EQ(impostorFrameCount(0.0f, 10.0f), 1u);
  EXPECT_FLOAT_EQ(impostorFrameTime(5, 10, 1.0f, true), 0.5f);
  EXPECT_FLOAT_EQ(impostorFrameTime(9, 10, 1.0f, false), 1.0f);
  Impostor m = smallImpostor();
  m.clip_frames = {3, 4};
  EXPECT_EQ(m.frameCount(), 7u);
  EXPECT_EQ(m.firstFrame(1), 3u);
}

// The weight impostorBlend gives view row `view`, summed over its four slots.
float weightOfView(const ImpostorBlend& b, uint32_t view) {
  float w = 0.0f;
  for (int s = 0; s < 4; ++s) w += b.views[s] == view ? b.view_weights[s] : 0.0f;
  return w;
}

TEST(ImpostorBlend, ABakedViewDirectionGetsAllTheWeightOfItsTile) {
  Impostor m = smallImpostor();
  m.azimuths = 8;
  m.elevations = 3;
  m.clip_frames = {4};
  for (uint32_t i = 0; i < m.elevations; ++i) {
    for (uint32_t j = 0; j < m.azimuths; ++j) {
      const ImpostorBlend b =
          impostorBlend(m, impostorViewDirection(8, 3, i, j), 0, 0.0f, 1.0f, true);
      EXPECT_NEAR(weightOfView(b, i * 8 + j), 1.0f, 1e-5f) << "view " << i << "," << j;
      EXPECT_NEAR(b.view_weights[0] + b.view_weights[1] + b.view_weights[2] + b.view_weights[3],
                  1.0f, 1e-6f);
    }
  }
}

TEST(ImpostorBlend, BetweenViewsTheWeightsAreBilinearAndWrapRoundTheAzimuths) {
  Impostor m = smallImpostor();
  m.azimuths = 4;
  m.elevations = 2;
  m.clip_frames = {1};
  constexpr float kPi = 3.14159265f;
  // Azimuth 315 degrees (half-way between view 3 and view 0), elevation 45 degrees (half-way
  // between the band centres 22.5 and 67.5).
  const float az = 1.75f * kPi;
  const float el = 0.25f * kPi;
  const glm::vec3 d{std::cos(el) * std::sin(az), std::sin(el), std::cos(el) * std::cos(az)};
  const ImpostorBlend b = impostorBlend(m, 3.0f * d, 0, 0.0f, 1.0f, true);  // length ignored
  EXPECT_EQ(b.views[0], 3u);
  EXPECT_EQ(b.views[1], 0u);
  EXPECT_EQ(b.views[2], 7u);
  EXPECT_EQ(b.views[3], 4u);
  for (float w : b.view_weights) EXPECT_NEAR(w, 0.25f, 1e-5f);
  // Below the lowest band's centre (and below the horizon) the lowest band takes all the weight.
  const ImpostorBlend low = impostorBlend(m, glm::vec3(1.0f, -0.5f, 0.0f), 0, 0.0f, 1.0f, true);
  EXPECT_NEAR(weightOfView(low, 1), 1.0f, 1e-5f);  // +X is azimuth 90 degrees: view 1 of 4
  // Straight down from above: the highest band.
  const ImpostorBlend top = impostorBlend(m, glm::vec3(0.0f, 1.0f, 1e-3f), 0, 0.0f, 1.0f, true);
  EXPECT_NEAR(weightOfView(top, 4), 1.0f, 1e-4f);
}

TEST(ImpostorBlend, FramesBlendLinearlyLoopingWrapsAndOneShotClamps) {
  Impostor m = smallImpostor();
  m.azimuths = 1;
  m.elevations = 1;
  m.clip_frames = {3, 5};  // clip 1's frames are atlas columns 3..7
  const glm::vec3 front{0.0f, 0.0f, 1.0f};
  // Looping, 2 s, 5 frames: 0.4 s apart. 1.0 s is frame 2.5; 1.9 s is 4.75 (4 blending into 0).
  ImpostorBlend b = impostorBlend(m, front, 1, 1.0f, 2.0f, true);
  EXPECT_EQ(b.frames[0], 5u);
  EXPECT_EQ(b.frames[1], 6u);
  EXPECT_NEAR(b.frame_weight, 0.5f, 1e-5f);
  b = impostorBlend(m, front, 1, 1.9f, 2.0f, true);
  EXPECT_EQ(b.frames[0], 7u);
  EXPECT_EQ(b.frames[1], 3u);
  EXPECT_NEAR(b.frame_weight, 0.75f, 1e-4f);
  b = impostorBlend(m, front, 1, 3.0f + 2.0f, 2.0f, true);  // a lap and a half later: frame 2.5
  EXPECT_EQ(b.frames[0], 5u);
  EXPECT_NEAR(b.frame_weight, 0.5f, 1e-4f);
  // One-shot: frames at both ends, 0.5 s apart; 1.25 s is frame 2.5; past the end holds frame 4.
  b = impostorBlend(m, front, 1, 1.25f, 2.0f, false);
  EXPECT_EQ(b.frames[0], 5u);
  EXPECT_EQ(b.frames[1], 6u);
  EXPECT_NEAR(b.frame_weight, 0.5f, 1e-5f);
  b = impostorBlend(m, front, 1, 9.0f, 2.0f, false);
  EXPECT_EQ(b.frames[0], 7u);
  EXPECT_EQ(b.frames[1], 7u);
  // One frame, or no duration: frame 0 of the clip.
  b = impostorBlend(m, front, 0, 0.7f, 0.0f, true);
  EXPECT_EQ(b.frames[0], 0u);
  EXPECT_EQ(b.frame_weight, 0.0f);
}

}  // namespace
}  // namespace throng
