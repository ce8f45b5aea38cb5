// The package reader's error catalogue (docs/errors.md): one case per message, each an edit of a
// small valid package with sizes and checksums made right again where the case is not about them.
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <vector>

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
using Sections = std::vector<PackageSection>;

// The chain character (3 joints, 20 vertices, one clip), baked by hand into a package: the same
// texture layout bakeCharacter makes, written by writePackage.
std::string chainPackage() {
  const Package p = test::makeChainPackage();
  const auto dir = test::makeTempDir("package-errors");
  EXPECT_TRUE(writePackage(p, (dir / "chain.throng").string()).ok());
  std::string bytes = test::readFile(dir / "chain.throng");
  std::filesystem::remove_all(dir);
  return bytes;
}

// Byte offsets inside the LODS section of a one-LOD package (docs/formats.md): LOD count, then
// geometric error (4), skinning error (8), max distance (12), max error (16), p99 error (20),
// palette count (24) and entries.
constexpr size_t kLodError = 4, kLodPaletteCount = 24, kLodPalette = 28;
struct LodsOffsets {
  size_t vertex_count, positions, normals, uv_flag, uvs, uv1_flag, uvs1, colour_flag, colours,
      joints, weights, index_count, indices, submesh_count, submesh_first, submesh_indices;
  uint32_t vertices, index_total;
  explicit LodsOffsets(const std::string& body) {
    vertex_count = kLodPalette + 2 * readAt<uint32_t>(body, kLodPaletteCount);
    vertices = readAt<uint32_t>(body, vertex_count);
    positions = vertex_count + 4;
    normals = positions + 12 * vertices;
    uv_flag = normals + 12 * vertices;
    uvs = uv_flag + 1;
    uv1_flag = uvs + (body[uv_flag] != 0 ? 8 * vertices : 0);
    uvs1 = uv1_flag + 1;
    colour_flag = uvs1 + (body[uv1_flag] != 0 ? 8 * vertices : 0);
    colours = colour_flag + 1;
    joints = colours + (body[colour_flag] != 0 ? 16 * vertices : 0);
    weights = joints + 8 * vertices;
    index_count = weights + 16 * vertices;
    index_total = readAt<uint32_t>(body, index_count);
    indices = index_count + 4;
    submesh_count = indices + 4 * index_total;
    const uint32_t name_length = readAt<uint32_t>(body, submesh_count + 4);
    submesh_first = submesh_count + 8 + name_length;  // after the count and the name's length
    submesh_indices = submesh_first + 4;
  }
};

// CLIP: count(4), name(4 + 4 "bend"), first frame, frame count, fps, duration, loop, bounds,
// root motion (count + entries), then the event count (4 bytes, the section's last: no events).
constexpr size_t kClipFirstFrame = 12, kClipFps = 20, kClipDuration = 24, kClipLoop = 28,
                 kClipBoundsMin = 29;
// ANIM: format, reserved, reserved, width, height, joints, frames, frames per row, reserved.
constexpr size_t kAnimWidth = 4, kAnimJoints = 12, kAnimFrames = 16, kAnimPerRow = 20,
                 kAnimTexels = 32;

PackageSection& section(Sections& s, uint32_t tag) {
  for (PackageSection& p : s) {
    if (p.tag == tag) return p;
  }
  throw std::logic_error("no such section");
}

struct ErrorCase {
  const char* name;
  std::function<std::string(Sections)> file;  // the damaged file, from the valid sections
  ErrorCode code;
  const char* fragment;  // a part of the message after the file name
};

// An edit of one section's body; the file is rebuilt around it.
std::function<std::string(Sections)> body(uint32_t tag, std::function<void(std::string&)> edit) {
  return [tag, edit](Sections s) {
    edit(section(s, tag).body);
    return test::buildPackage(s);
  };
}

// An edit of the finished file (the case is about the header, the table or the checksums).
std::function<std::string(Sections)> whole(std::function<void(std::string&)> edit) {
  return [edit](Sections s) {
    std::string file = test::buildPackage(s);
    edit(file);
    return file;
  };
}

// A SKEL body of joints given as (name, parent), identity transforms.
std::string skeletonBody(const std::vector<std::pair<std::string, int32_t>>& joints) {
  std::string out;
  auto put = [&](auto v) { out.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  put(static_cast<uint32_t>(joints.size()));
  for (const auto& [name, parent] : joints) {
    put(static_cast<uint32_t>(name.size()));
    out += name;
    put(parent);
    for (float v : {0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 1.f, 1.f, 1.f, 1.f}) put(v);
    for (int i = 0; i < 16; ++i) put(i % 5 == 0 ? 1.0f : 0.0f);
  }
  return out;
}

std::vector<ErrorCase> cases() {
  const float nan = std::numeric_limits<float>::quiet_NaN();
  return {
      // ---- header and section table ----
      {"TooShort", whole([](std::string& f) { f.resize(10); }), ErrorCode::kParseError,
       "10 bytes is too short for a package header (40 bytes)"},
      {"BadMagic", whole([](std::string& f) { f[0] = 'X'; }), ErrorCode::kParseError,
       "not a throng package (bad magic)"},
      {"Endianness", whole([](std::string& f) { writeAt<uint32_t>(f, 12, 0x04030201u); }),
       ErrorCode::kParseError, "endianness marker is 0x04030201, expected 0x01020304"},
      {"FutureVersion", whole([](std::string& f) { writeAt<uint32_t>(f, 8, 7); }),
       ErrorCode::kVersionMismatch,
       "package format version 7 was written by a newer throng (this one reads versions 3 to 6)"},
      {"FileSize", whole([](std::string& f) { f += std::string(16, '\0'); }),
       ErrorCode::kParseError, "(truncated?)"},
      {"TooManySections", whole([](std::string& f) { writeAt<uint32_t>(f, 24, 65); }),
       ErrorCode::kParseError, "65 sections, more than the limit of 64"},
      {"TableCut", whole([](std::string& f) {
         f.resize(kPackageHeaderSize);
         writeAt<uint64_t>(f, 16, kPackageHeaderSize);
         writeAt<uint32_t>(f, 24, 1);
       }),
       ErrorCode::kParseError, "section table of 1 entries runs past the end of the file"},
      {"HeaderChecksum", whole([](std::string& f) { f[kPackageHeaderSize + 4] ^= 1; }),
       ErrorCode::kParseError,
       "header checksum mismatch (the header or section table is corrupted)"},
      {"SectionTwice",
       [](Sections s) {
         return test::buildPackage(s,
                                   [](std::string& t) { writeAt<uint32_t>(t, 32, kSectionMeta); });
       },
       ErrorCode::kParseError, "section META appears twice"},
      {"SectionOutside",
       [](Sections s) {
         return test::buildPackage(
             s, [](std::string& t) { writeAt<uint64_t>(t, 4 * 32 + 8, 1u << 30); });
       },
       ErrorCode::kParseError, "section ANIM range [1073741824, +"},
      {"SectionChecksum", whole([](std::string& f) { f.back() ^= 1; }), ErrorCode::kParseError,
       "section IMPS checksum mismatch (corrupted)"},
      {"Overlap",
       [](Sections s) {
         return test::buildPackage(s, [](std::string& t) {
           t.replace(32 + 8, 24, t.substr(8, 24));  // SKEL's range and checksum become META's
         });
       },
       ErrorCode::kParseError, "sections META and SKEL overlap"},
      // Twelve sections: the table ends at 40 + 12 * 32 = 424, the first section starts at 432.
      {"Padding", whole([](std::string& f) { f[kPackageHeaderSize + 12 * 32] = 1; }),
       ErrorCode::kParseError, "non-zero padding byte at offset 424"},
      {"MissingSection",
       [](Sections s) {
         s.erase(s.begin() + 3);
         return test::buildPackage(s);
       },
       ErrorCode::kParseError, "section CLIP is missing"},
      {"MissingTangents",
       [](Sections s) {
         s.erase(s.begin() + 7);
         return test::buildPackage(s);
       },
       ErrorCode::kParseError, "section TANG is missing"},
      // ---- section decoders ----
      {"FieldCut", body(kSectionMeta, [](std::string& b) { b.resize(2); }), ErrorCode::kParseError,
       "section META at byte 0: source name needs 4 bytes, only 2 left"},
      {"TrailingBytes", body(kSectionMeta, [](std::string& b) { b += "xy"; }),
       ErrorCode::kParseError, "2 unexpected trailing bytes"},
      {"TooManyJoints",
       body(kSectionSkeleton, [](std::string& b) { writeAt<uint32_t>(b, 0, 2000); }),
       ErrorCode::kLimitExceeded, "section SKEL: 2000 joints, more than the limit of 1024"},
      {"JointCountClaims",
       body(kSectionSkeleton, [](std::string& b) { writeAt<uint32_t>(b, 0, 1000); }),
       ErrorCode::kParseError, "joint count claims 1000 entries of 112 bytes"},
      {"ParentAfterChild",
       body(kSectionSkeleton, [](std::string& b) { writeAt<int32_t>(b, 12, 1); }),
       ErrorCode::kParseError, "joint 0 has parent 1; parents must come first"},
      {"NotDepthFirst",
       body(kSectionSkeleton,
            [](std::string& b) {
              b = skeletonBody({{"r", -1}, {"a", 0}, {"b", 0}, {"c", 1}});
            }),
       ErrorCode::kInvalidData, "section SKEL: joints are not in depth-first order (joint 2 'b')"},
      {"LodCountClaims",
       body(kSectionLods, [](std::string& b) { writeAt<uint32_t>(b, 0, 1000000000u); }),
       ErrorCode::kParseError, "LOD count claims 1000000000 entries of 39 bytes"},
      {"UvFlag", body(kSectionLods, [](std::string& b) { b[LodsOffsets(b).uv_flag] = 2; }),
       ErrorCode::kParseError, "uv flag is 2, not 0 or 1"},
      {"LoopFlag", body(kSectionClips, [](std::string& b) { b[kClipLoop] = 2; }),
       ErrorCode::kParseError, "loop flag is 2, not 0 or 1"},
      {"TexelFormat", body(kSectionTexture, [](std::string& b) { b[0] = 7; }),
       ErrorCode::kParseError, "unknown texel format 7"},
      {"TextureTooWide",
       body(kSectionTexture, [](std::string& b) { writeAt<uint32_t>(b, kAnimWidth, 40000); }),
       ErrorCode::kParseError, "texture 40000x2 exceeds the limit of 32768 per side"},
      // TANG: LOD count, then per LOD its tangent source (u8) and, unless 0, its tangents.
      {"TangentLodCount",
       body(kSectionTangents, [](std::string& b) { writeAt<uint32_t>(b, 0, 2); }),
       ErrorCode::kParseError, "section TANG at byte 4: 2 LODs, section LODS has 1"},
      {"TangentSource", body(kSectionTangents, [](std::string& b) { b[4] = 7; }),
       ErrorCode::kParseError, "section TANG at byte 5: tangent source is 7, not 0..3"},
      {"TangentsCut", body(kSectionTangents, [](std::string& b) { b[4] = 2; }),
       ErrorCode::kParseError, "tangents claims 20 entries of 16 bytes, only 0 bytes left"},
      // PBRM: material count (MATL's), then per material 8 floats and 4 texture records.
      // ATCH: prop count, mask count, LOD count (0, 0, 1 here), then per LOD its prop-group flag.
      {"PropCountClaims",
       body(kSectionAttachments, [](std::string& b) { writeAt<uint32_t>(b, 0, 1000); }),
       ErrorCode::kParseError, "prop count claims 1000 entries of 40 bytes"},
      {"AttachmentLodCount",
       body(kSectionAttachments, [](std::string& b) { writeAt<uint32_t>(b, 8, 2); }),
       ErrorCode::kParseError, "section ATCH at byte 12: 2 LODs, section LODS has 1"},
      {"PropGroupFlag", body(kSectionAttachments, [](std::string& b) { b[12] = 2; }),
       ErrorCode::kParseError, "prop group flag is 2, not 0 or 1"},
      {"PropJointLimit",
       body(kSectionAttachments,
            [](std::string& b) {
              // One prop: empty name and source, joint 2000, a zero offset; no masks; one LOD, no
              // groups.
              b = std::string(44, '\0') + std::string(9, '\0');
              writeAt<uint32_t>(b, 0, 1);
              writeAt<uint32_t>(b, 12, 2000);
              writeAt<uint32_t>(b, 48, 1);
            }),
       ErrorCode::kParseError, "prop joint 2000 exceeds the joint limit of 1024"},
      {"PropGroupsCut", body(kSectionAttachments, [](std::string& b) { b[12] = 1; }),
       ErrorCode::kParseError, "prop groups claims"},
      {"PbrMaterialCount", body(kSectionPbr, [](std::string& b) { writeAt<uint32_t>(b, 0, 1); }),
       ErrorCode::kParseError, "section PBRM at byte 4: 1 materials, section MATL has 0"},
      // ---- validatePackage, after every field decoded ----
      {"NoJoints", body(kSectionSkeleton, [](std::string& b) { b = skeletonBody({}); }),
       ErrorCode::kInvalidData, "skeleton has no joints"},
      {"NoMesh",
       [](Sections s) {
         section(s, kSectionLods).body = std::string(4, '\0');
         section(s, kSectionTangents).body = std::string(4, '\0');      // TANG: no LODs either
         section(s, kSectionAttachments).body = std::string(12, '\0');  // ATCH: nor here
         return test::buildPackage(s);
       },
       ErrorCode::kInvalidData, "package has no mesh"},
      {"NoClips", body(kSectionClips, [](std::string& b) { b = std::string(4, '\0'); }),
       ErrorCode::kInvalidData, "package has no clips"},
      {"LodErrorNegative",
       body(kSectionLods, [](std::string& b) { writeAt<float>(b, kLodError, -1.0f); }),
       ErrorCode::kInvalidData, "LOD 0: error or distance is negative or not finite"},
      {"PaletteSlot",
       body(kSectionLods,
            [](std::string& b) {
              writeAt<uint32_t>(b, kLodPaletteCount, 1);
              b.insert(kLodPalette, std::string("\x07\x00", 2));
            }),
       ErrorCode::kInvalidData, "LOD 0: palette slot 0 names joint 7, the skeleton has 3"},
      {"PaletteTooLong",
       body(kSectionLods,
            [](std::string& b) {
              writeAt<uint32_t>(b, kLodPaletteCount, 1025);
              b.insert(kLodPalette, std::string(2 * 1025, '\0'));
            }),
       ErrorCode::kLimitExceeded, "LOD 0: palette of 1025 joints exceeds the limit of 1024"},
      {"VertexJoint",
       body(kSectionLods, [](std::string& b) { writeAt<uint16_t>(b, LodsOffsets(b).joints, 9); }),
       ErrorCode::kInvalidData, "LOD 0: vertex 0 uses joint 9, the skeleton has 3"},
      {"NegativeWeight",
       body(kSectionLods,
            [](std::string& b) {
              const size_t w = LodsOffsets(b).weights;
              writeAt<float>(b, w, 2.0f);
              writeAt<float>(b, w + 4, -1.0f);
            }),
       ErrorCode::kInvalidData, "LOD 0: vertex 0 weight 1 is -1"},
      {"WeightSum",
       body(kSectionLods, [](std::string& b) { writeAt<float>(b, LodsOffsets(b).weights, 0.5f); }),
       ErrorCode::kInvalidData, "LOD 0: vertex 0 weights sum to 0.5, not 1"},
      {"NonFinitePosition",
       body(kSectionLods,
            [nan](std::string& b) { writeAt<float>(b, LodsOffsets(b).positions, nan); }),
       ErrorCode::kInvalidData, "LOD 0: vertex 0 has a non-finite attribute"},
      {"IndexRange",
       body(kSectionLods,
            [](std::string& b) { writeAt<uint32_t>(b, LodsOffsets(b).indices, 999); }),
       ErrorCode::kInvalidData, "LOD 0: index 0 is 999, the mesh has 20 vertices"},
      {"NotTriangles",
       body(kSectionLods,
            [](std::string& b) {
              const LodsOffsets o(b);
              writeAt<uint32_t>(b, o.index_count, o.index_total - 1);
              b.erase(o.indices, 4);
            }),
       ErrorCode::kInvalidData, "LOD 0: 95 indices is not a whole number of triangles"},
      {"SubMeshRange",
       body(kSectionLods,
            [](std::string& b) { writeAt<uint32_t>(b, LodsOffsets(b).submesh_indices, 999); }),
       ErrorCode::kInvalidData,
       "LOD 0: sub-mesh 0 ('tube') range [0, +999) is outside the 96 indices"},
      {"ClipFrames",
       body(kSectionClips, [](std::string& b) { writeAt<uint32_t>(b, kClipFirstFrame, 1000); }),
       ErrorCode::kInvalidData,
       "clip 0 ('bend'): frames [1000, +4) outside the texture's 4 frames"},
      {"ClipRate", body(kSectionClips, [](std::string& b) { writeAt<float>(b, kClipFps, 0.0f); }),
       ErrorCode::kInvalidData, "clip 0 ('bend'): frame rate 0 is not positive"},
      {"ClipDuration",
       body(kSectionClips, [nan](std::string& b) { writeAt<float>(b, kClipDuration, nan); }),
       ErrorCode::kInvalidData, "clip 0 ('bend'): duration nan is not valid"},
      {"ClipBounds",
       body(kSectionClips, [](std::string& b) { writeAt<float>(b, kClipBoundsMin, 1e30f); }),
       ErrorCode::kInvalidData, "clip 0 ('bend'): bounds are not a finite box"},
      {"ClipRootMotion",
       body(kSectionClips,
            [](std::string& b) {
              writeAt<uint32_t>(b, b.size() - 8, 1);
              b.insert(b.size() - 4, std::string(12, '\0'));
            }),
       ErrorCode::kInvalidData, "clip 0 ('bend'): 1 root motion entries for 4 frames"},
      {"ClipRootMotionNaN",
       body(kSectionClips,
            [nan](std::string& b) {
              writeAt<uint32_t>(b, b.size() - 8, 4);
              b.insert(b.size() - 4, std::string(48, '\0'));
              writeAt<float>(b, b.size() - 8, nan);
            }),
       ErrorCode::kInvalidData, "clip 0 ('bend'): non-finite root motion"},
      {"TextureJoints",
       body(kSectionTexture, [](std::string& b) { writeAt<uint32_t>(b, kAnimJoints, 4); }),
       ErrorCode::kInvalidData, "animation texture has 4 joints, the skeleton 3"},
      {"TextureNoFrames",
       body(kSectionTexture, [](std::string& b) { writeAt<uint32_t>(b, kAnimFrames, 0); }),
       ErrorCode::kInvalidData, "animation texture has no frames"},
      {"TexturePerRow",
       body(kSectionTexture, [](std::string& b) { writeAt<uint32_t>(b, kAnimPerRow, 3); }),
       ErrorCode::kInvalidData,
       "animation texture: 3 frames of 9 texels per row do not fit its width 18"},
      {"TextureRows",
       body(kSectionTexture, [](std::string& b) { writeAt<uint32_t>(b, kAnimFrames, 5); }),
       ErrorCode::kInvalidData,
       "animation texture: 5 frames of 9 texels at width 18 need 3 rows, height is 2"},
      {"TangentHandedness",
       body(kSectionTangents,
            [](std::string& b) {
              b[4] = 2;
              for (int v = 0; v < 20; ++v) {
                for (float x : {1.0f, 0.0f, 0.0f, v == 3 ? 0.5f : 1.0f}) {
                  b.append(reinterpret_cast<const char*>(&x), sizeof(x));
                }
              }
            }),
       ErrorCode::kInvalidData, "LOD 0: vertex 3 tangent handedness (w) is 0.5, not +1 or -1"},
      {"TangentLength",
       body(kSectionTangents,
            [](std::string& b) {
              b[4] = 1;
              for (int v = 0; v < 20; ++v) {
                for (float x : {v == 5 ? 2.0f : 1.0f, 0.0f, 0.0f, -1.0f}) {
                  b.append(reinterpret_cast<const char*>(&x), sizeof(x));
                }
              }
            }),
       ErrorCode::kInvalidData, "LOD 0: vertex 5 tangent has length 2, not 1"},
      {"TexelNaN",
       body(kSectionTexture,
            [nan](std::string& b) { writeAt<float>(b, kAnimTexels + 4 * 5, nan); }),
       ErrorCode::kInvalidData, "animation texture texel (1, 0) is not finite"},
  };
}

class PackageErrors : public ::testing::TestWithParam<ErrorCase> {};

TEST_P(PackageErrors, MessageAndCode) {
  static const std::string valid = chainPackage();
  const ErrorCase& e = GetParam();
  const Sections sections = test::splitPackage(valid);
  ASSERT_EQ(test::buildPackage(sections), valid) << "the test's layout differs from the writer's";
  const std::string bytes = e.file(sections);
  Result<Package> p = parsePackage(test::asBytes(bytes), "chain.throng");
  ASSERT_FALSE(p.ok()) << e.name;
  EXPECT_EQ(p.status().code(), e.code) << p.status().toString();
  EXPECT_TRUE(p.status().message().starts_with("chain.throng")) << p.status().message();
  EXPECT_NE(p.status().message().find(e.fragment), std::string::npos) << p.status().message();
}

INSTANTIATE_TEST_SUITE_P(Catalogue, PackageErrors, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<ErrorCase>& param_info) {
                           return std::string(param_info.param.name);
                         });

}  // namespace
}  // namespace throng
