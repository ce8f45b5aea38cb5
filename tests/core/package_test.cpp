// Package file: round trip of every field and every rejection rule of the reader.
#include "throng/core/package.h"

#include <cmath>
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "support/package_sections.h"
#include "support/test_support.h"
#include "throng/core/file_io.h"
#include "throng/core/half.h"
#include "throng/core/package_format.h"
#include "throng/core/pose.h"

namespace throng {
namespace {

using Bytes = std::vector<std::byte>;

// A w x h level whose bytes vary per texel and channel.
ImageLevel level(uint32_t w, uint32_t h, uint8_t seed) {
  ImageLevel l{w, h, {}};
  for (uint32_t i = 0; i < 4 * w * h; ++i) l.rgba.push_back(static_cast<uint8_t>(seed + 7 * i));
  return l;
}

// Looks for the chain character: two materials (plain; textured from uv set 1 with a transform,
// alpha-masked, with every metallic-roughness factor and texture), one variant swapping them, one
// NPOT colour image with its chain and a power-of-two copy and a data image; the mesh gets vertex
// colours, a second uv set, tangents and two sub-meshes.
void addLooks(Character& c, Package& p) {
  SkinnedMesh& m = c.mesh;
  for (size_t v = 0; v < m.vertexCount(); ++v) {
    m.colors.emplace_back(0.25f, 0.5f, 1.0f, 0.75f - 0.01f * static_cast<float>(v));
    m.uvs1.push_back(m.uvs[v] * 2.0f + glm::vec2(0.5f));
    m.tangents.emplace_back(0.0f, 0.6f, -0.8f, v % 3 == 0 ? -1.0f : 1.0f);
  }
  m.tangent_source = TangentSource::kMixed;
  const uint32_t half = static_cast<uint32_t>(m.indices.size() / 6 * 3);
  m.submeshes = {{"lower", 0, half, 0, {1}},
                 {"upper", half, static_cast<uint32_t>(m.indices.size()) - half, 1, {0}}};
  Material plain;
  plain.name = "plain";
  plain.base_color = glm::vec4(0.5f, 0.25f, 0.125f, 1.0f);
  plain.double_sided = true;
  Material textured;
  textured.name = "textured";
  textured.alpha_mode = AlphaMode::kMask;
  textured.alpha_cutoff = 0.375f;
  TextureRef& t = textured.base_color_texture;
  t.image = 0;
  t.uv_set = 1;
  t.sampler = {TextureFilter::kNearest, TextureFilter::kNearestMipmapLinear,
               TextureWrap::kMirroredRepeat, TextureWrap::kClampToEdge};
  t.transform = {glm::vec2(0.25f, -0.5f), 0.5f, glm::vec2(2.0f, 3.0f)};
  textured.metallic_factor = 0.25f;
  textured.roughness_factor = 0.75f;
  textured.normal_scale = -0.5f;
  textured.occlusion_strength = 0.625f;
  textured.emissive_factor = glm::vec3(0.1f, 0.2f, 0.3f);
  textured.emissive_strength = 6.5f;
  // Each data texture reads image 1 its own way; the emissive one reads the colour image.
  const TextureSlot data[] = {TextureSlot::kMetallicRoughness, TextureSlot::kNormal,
                              TextureSlot::kOcclusion};
  for (int i = 0; i < 3; ++i) {
    TextureRef& d = textured.texture(data[i]);
    d.image = 1;
    d.uv_set = 1;
    d.sampler.wrap_s = i == 0 ? TextureWrap::kClampToEdge : TextureWrap::kMirroredRepeat;
    d.transform.rotation = 0.125f * static_cast<float>(i + 1);
  }
  textured.emissive_texture = t;
  textured.emissive_texture.transform.offset.x = 0.75f;
  p.materials = {plain, textured};
  p.variants = {"swapped"};
  PackageImage image;
  image.name = "skin";
  image.mips = {level(3, 2, 1), level(1, 1, 2)};
  image.pot_mips = {level(4, 2, 3), level(2, 1, 4), level(1, 1, 5)};
  PackageImage normals;
  normals.name = "normals";
  normals.mips = {level(2, 2, 9), level(1, 1, 10)};
  p.images = {image, normals};
}

// A small, valid package built from the chain character: two LODs, two clips, a texture of
// rest-pose-plus-offset palettes (values vary per frame, joint and row), and looks (addLooks).
Package makePackage(TexelFormat format = TexelFormat::kRgba32F) {
  Character c = test::makeChainCharacter();
  Package p;
  addLooks(c, p);
  p.source = "chain.glb";
  p.skeleton = c.skeleton;
  p.lods.push_back(MeshLod{c.mesh, {}, 0.0f, 0.0f, 0.0f});
  MeshLod reduced{c.mesh, {0, 2}, 0.25f, 0.125f, 40.0f, 0.375f, 0.3f};
  for (glm::u16vec4& j : reduced.mesh.joints) j = glm::min(j, glm::u16vec4(1));
  reduced.mesh.uvs.clear();
  p.lods.push_back(reduced);

  AnimationTexture& t = p.animation;
  t.format = format;
  t.joint_count = 3;
  t.frame_count = 7;
  t.frames_per_row = 2;
  t.width = 2 * 9 + 1;  // one spare texel per row
  t.height = 4;
  const size_t channels = size_t{t.width} * t.height * 4;
  if (format == TexelFormat::kRgba32F) {
    t.texels32.assign(channels, 0.0f);
  } else {
    t.texels16.assign(channels, 0);
  }
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < 3; ++j) {
      JointRows rows = packRows(glm::mat4(1.0f));
      rows.rows[0].w = 0.1f * static_cast<float>(f);
      rows.rows[1].w = -0.25f * static_cast<float>(j);
      rows.rows[2].x = 0.001f * static_cast<float>(f * 3 + j);
      storeJointRows(t, f, j, rows);
    }
  }
  BakedClip walk;
  walk.name = "walk";
  walk.first_frame = 0;
  walk.frame_count = 4;
  walk.fps = 30.0f;
  walk.duration = 4.0f / 30.0f;
  walk.loop = true;
  walk.bounds = {glm::vec3(-1, 0, -0.5f), glm::vec3(1, 2, 0.5f)};
  walk.root_motion = {glm::vec3(0), glm::vec3(0, 0, 0.1f), glm::vec3(0, 0, 0.2f),
                      glm::vec3(0, 0, 0.3f)};
  walk.events = {{"step left", 0.0f}, {"step right", 0.05f}, {"end", 4.0f / 30.0f}};
  BakedClip wave;
  wave.name = "wave";
  wave.first_frame = 4;
  wave.frame_count = 3;
  wave.fps = 24.0f;
  wave.duration = 2.0f / 24.0f;
  wave.loop = false;
  wave.bounds = {glm::vec3(-0.5f), glm::vec3(0.5f, 2.5f, 0.5f)};
  p.clips = {walk, wave};
  return p;
}

Bytes toBytes(const std::string& s) {
  Bytes b(s.size());
  std::memcpy(b.data(), s.data(), s.size());
  return b;
}

Bytes serialize(const Package& p) {
  const auto dir = test::makeTempDir("pkg");
  const std::string path = (dir / "p.throng").string();
  const Status s = writePackage(p, path);
  EXPECT_TRUE(s.ok()) << s.toString();
  Bytes b = toBytes(test::readFile(path));
  std::filesystem::remove_all(dir);
  return b;
}

Result<Package> parse(const Bytes& b) {
  return parsePackage(b, "test.throng");
}

template <typename T>
void put(Bytes& b, size_t at, T value) {
  ASSERT_LE(at + sizeof(T), b.size());
  std::memcpy(b.data() + at, &value, sizeof(T));
}
template <typename T>
T get(const Bytes& b, size_t at) {
  T value{};
  std::memcpy(&value, b.data() + at, sizeof(T));
  return value;
}

// Recomputes every section checksum and the header checksum after a test edited the bytes, so
// the edit reaches the section decoders instead of being caught by the checksums.
void resign(Bytes& b) {
  const uint32_t count = get<uint32_t>(b, 24);
  for (uint32_t i = 0; i < count; ++i) {
    const size_t entry = kPackageHeaderSize + i * kPackageSectionEntrySize;
    if (entry + kPackageSectionEntrySize > b.size()) return;
    const uint64_t offset = get<uint64_t>(b, entry + 8);
    const uint64_t size = get<uint64_t>(b, entry + 16);
    if (offset > b.size() || size > b.size() - offset) continue;
    put(b, entry + 24, fnv1a64(std::span<const std::byte>(b).subspan(offset, size)));
  }
  const size_t table_end = kPackageHeaderSize + count * kPackageSectionEntrySize;
  if (table_end > b.size()) return;
  uint64_t hash = fnv1a64(std::span<const std::byte>(b).first(kPackageHeaderSize - 8));
  hash = fnv1a64(
      std::span<const std::byte>(b).subspan(kPackageHeaderSize, table_end - kPackageHeaderSize),
      hash);
  put(b, kPackageHeaderSize - 8, hash);
}

size_t sectionOffset(const Bytes& b, uint32_t tag) {
  const Result<PackageLayout> layout = readPackageLayout(b, "test");
  EXPECT_TRUE(layout.ok());
  for (const PackageSectionInfo& s : layout->sections) {
    if (s.tag == tag) return s.offset;
  }
  ADD_FAILURE() << "no section";
  return 0;
}

void expectSameMesh(const SkinnedMesh& a, const SkinnedMesh& b) {
  EXPECT_EQ(a.positions, b.positions);
  EXPECT_EQ(a.normals, b.normals);
  EXPECT_EQ(a.uvs, b.uvs);
  EXPECT_EQ(a.uvs1, b.uvs1);
  EXPECT_EQ(a.colors, b.colors);
  EXPECT_EQ(a.joints, b.joints);
  EXPECT_EQ(a.weights, b.weights);
  EXPECT_EQ(a.tangents, b.tangents);
  EXPECT_EQ(a.tangent_source, b.tangent_source);
  EXPECT_EQ(a.indices, b.indices);
  ASSERT_EQ(a.submeshes.size(), b.submeshes.size());
  for (size_t s = 0; s < a.submeshes.size(); ++s) {
    EXPECT_EQ(a.submeshes[s].name, b.submeshes[s].name);
    EXPECT_EQ(a.submeshes[s].first_index, b.submeshes[s].first_index);
    EXPECT_EQ(a.submeshes[s].index_count, b.submeshes[s].index_count);
    EXPECT_EQ(a.submeshes[s].material, b.submeshes[s].material);
    EXPECT_EQ(a.submeshes[s].variant_materials, b.submeshes[s].variant_materials);
  }
}

void expectSameChain(const std::vector<ImageLevel>& a, const std::vector<ImageLevel>& b) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t l = 0; l < a.size(); ++l) {
    EXPECT_EQ(a[l].width, b[l].width);
    EXPECT_EQ(a[l].height, b[l].height);
    EXPECT_EQ(a[l].rgba, b[l].rgba);
  }
}

void expectSamePackage(const Package& a, const Package& b) {
  EXPECT_EQ(a.source, b.source);
  ASSERT_EQ(a.skeleton.jointCount(), b.skeleton.jointCount());
  for (int j = 0; j < a.skeleton.jointCount(); ++j) {
    EXPECT_EQ(a.skeleton.names()[j], b.skeleton.names()[j]);
    EXPECT_EQ(a.skeleton.parents()[j], b.skeleton.parents()[j]);
    const Transform& ra = a.skeleton.restPoses()[j];
    const Transform& rb = b.skeleton.restPoses()[j];
    EXPECT_EQ(ra.translation, rb.translation);
    EXPECT_EQ(ra.rotation, rb.rotation);
    EXPECT_EQ(ra.scale, rb.scale);
    EXPECT_EQ(a.skeleton.inverseBinds()[j], b.skeleton.inverseBinds()[j]);
  }
  ASSERT_EQ(a.lods.size(), b.lods.size());
  for (size_t l = 0; l < a.lods.size(); ++l) {
    expectSameMesh(a.lods[l].mesh, b.lods[l].mesh);
    EXPECT_EQ(a.lods[l].palette_joints, b.lods[l].palette_joints);
    EXPECT_EQ(a.lods[l].geometric_error, b.lods[l].geometric_error);
    EXPECT_EQ(a.lods[l].skinning_error, b.lods[l].skinning_error);
    EXPECT_EQ(a.lods[l].max_distance, b.lods[l].max_distance);
    EXPECT_EQ(a.lods[l].max_error, b.lods[l].max_error);
    EXPECT_EQ(a.lods[l].p99_error, b.lods[l].p99_error);
  }
  ASSERT_EQ(a.clips.size(), b.clips.size());
  for (size_t c = 0; c < a.clips.size(); ++c) {
    const BakedClip& x = a.clips[c];
    const BakedClip& y = b.clips[c];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.first_frame, y.first_frame);
    EXPECT_EQ(x.frame_count, y.frame_count);
    EXPECT_EQ(x.fps, y.fps);
    EXPECT_EQ(x.duration, y.duration);
    EXPECT_EQ(x.loop, y.loop);
    EXPECT_EQ(x.bounds.min, y.bounds.min);
    EXPECT_EQ(x.bounds.max, y.bounds.max);
    EXPECT_EQ(x.root_motion, y.root_motion);
    ASSERT_EQ(x.events.size(), y.events.size());
    for (size_t e = 0; e < x.events.size(); ++e) {
      EXPECT_EQ(x.events[e].name, y.events[e].name);
      EXPECT_EQ(x.events[e].time, y.events[e].time);
    }
  }
  const AnimationTexture& s = a.animation;
  const AnimationTexture& t = b.animation;
  EXPECT_EQ(s.format, t.format);
  EXPECT_EQ(s.width, t.width);
  EXPECT_EQ(s.height, t.height);
  EXPECT_EQ(s.joint_count, t.joint_count);
  EXPECT_EQ(s.frame_count, t.frame_count);
  EXPECT_EQ(s.frames_per_row, t.frames_per_row);
  EXPECT_EQ(s.texels32, t.texels32);
  EXPECT_EQ(s.texels16, t.texels16);
  EXPECT_EQ(a.variants, b.variants);
  ASSERT_EQ(a.materials.size(), b.materials.size());
  for (size_t m = 0; m < a.materials.size(); ++m) {
    const Material& x = a.materials[m];
    const Material& y = b.materials[m];
    EXPECT_EQ(x.name, y.name);
    EXPECT_EQ(x.base_color, y.base_color);
    EXPECT_EQ(x.alpha_mode, y.alpha_mode);
    EXPECT_EQ(x.alpha_cutoff, y.alpha_cutoff);
    EXPECT_EQ(x.double_sided, y.double_sided);
    EXPECT_EQ(x.metallic_factor, y.metallic_factor);
    EXPECT_EQ(x.roughness_factor, y.roughness_factor);
    EXPECT_EQ(x.normal_scale, y.normal_scale);
    EXPECT_EQ(x.occlusion_strength, y.occlusion_strength);
    EXPECT_EQ(x.emissive_factor, y.emissive_factor);
    EXPECT_EQ(x.emissive_strength, y.emissive_strength);
    for (int slot = 0; slot < kTextureSlotCount; ++slot) {
      SCOPED_TRACE(textureSlotName(static_cast<TextureSlot>(slot)));
      const TextureRef& tx = x.texture(static_cast<TextureSlot>(slot));
      const TextureRef& ty = y.texture(static_cast<TextureSlot>(slot));
      EXPECT_EQ(tx.image, ty.image);
      EXPECT_EQ(tx.uv_set, ty.uv_set);
      EXPECT_EQ(tx.sampler.mag_filter, ty.sampler.mag_filter);
      EXPECT_EQ(tx.sampler.min_filter, ty.sampler.min_filter);
      EXPECT_EQ(tx.sampler.wrap_s, ty.sampler.wrap_s);
      EXPECT_EQ(tx.sampler.wrap_t, ty.sampler.wrap_t);
      EXPECT_EQ(tx.transform.offset, ty.transform.offset);
      EXPECT_EQ(tx.transform.rotation, ty.transform.rotation);
      EXPECT_EQ(tx.transform.scale, ty.transform.scale);
    }
  }
  ASSERT_EQ(a.images.size(), b.images.size());
  for (size_t i = 0; i < a.images.size(); ++i) {
    EXPECT_EQ(a.images[i].name, b.images[i].name);
    expectSameChain(a.images[i].mips, b.images[i].mips);
    expectSameChain(a.images[i].pot_mips, b.images[i].pot_mips);
  }
}

TEST(Package, RoundTripsEveryField) {
  for (TexelFormat format : {TexelFormat::kRgba32F, TexelFormat::kRgba16F}) {
    const Package p = makePackage(format);
    const auto dir = test::makeTempDir("pkg");
    const std::string path = (dir / "chain.throng").string();
    ASSERT_TRUE(writePackage(p, path).ok());
    Result<Package> back = readPackage(path);
    ASSERT_TRUE(back.ok()) << back.status().toString();
    expectSamePackage(p, *back);
    // Writing the read package again gives the same bytes.
    const std::string again = (dir / "again.throng").string();
    ASSERT_TRUE(writePackage(*back, again).ok());
    EXPECT_EQ(test::readFile(path), test::readFile(again));
    // Only the two packages are in the folder: no temporary files left behind.
    int files = 0;
    for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(dir)) ++files;
    EXPECT_EQ(files, 2);
    std::filesystem::remove_all(dir);
  }
}

TEST(Package, LoadJointRowsDecodesBothFormats) {
  const Package p32 = makePackage(TexelFormat::kRgba32F);
  const Package p16 = makePackage(TexelFormat::kRgba16F);
  for (uint32_t f = 0; f < p32.animation.frame_count; ++f) {
    for (uint32_t j = 0; j < 3; ++j) {
      const JointRows a = loadJointRows(p32.animation, f, j);
      const JointRows b = loadJointRows(p16.animation, f, j);
      EXPECT_EQ(a.rows[0].w, 0.1f * static_cast<float>(f));
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 4; ++c) {
          EXPECT_EQ(b.rows[r][c], halfToFloat(floatToHalf(a.rows[r][c])));
        }
      }
    }
  }
}

TEST(Package, HeaderIsDocumented) {
  const Bytes b = serialize(makePackage());
  EXPECT_EQ(std::memcmp(b.data(), "THRONGPK", 8), 0);
  EXPECT_EQ(get<uint32_t>(b, 8), kPackageVersion);
  EXPECT_EQ(static_cast<uint8_t>(b[12]), 0x04);  // little-endian marker 0x01020304
  EXPECT_EQ(get<uint64_t>(b, 16), b.size());
  EXPECT_EQ(get<uint32_t>(b, 24), 12u);
  const Result<PackageLayout> layout = readPackageLayout(b, "test");
  ASSERT_TRUE(layout.ok());
  for (const PackageSectionInfo& s : layout->sections) {
    EXPECT_EQ(s.offset % kPackageSectionAlignment, 0u) << s.name();
  }
  EXPECT_EQ(layout->sections[0].name(), "META");
  EXPECT_EQ(layout->sections[4].name(), "ANIM");
  EXPECT_EQ(layout->sections[5].name(), "MATL");
  EXPECT_EQ(layout->sections[6].name(), "IMGS");
  EXPECT_EQ(layout->sections[7].name(), "TANG");
  EXPECT_EQ(layout->sections[8].name(), "PBRM");
  EXPECT_EQ(layout->sections[9].name(), "VATX");
  EXPECT_EQ(layout->sections[10].name(), "ATCH");
  EXPECT_EQ(layout->sections[11].name(), "IMPS");
}

TEST(Package, RejectsTruncationAtEverySectionBoundaryAndRandomLengths) {
  const Bytes b = serialize(makePackage());
  std::vector<size_t> lengths = {0, 1, 7, 8, 39, 40, kPackageHeaderSize + 9 * 32 - 1};
  const Result<PackageLayout> layout = readPackageLayout(b, "test");
  ASSERT_TRUE(layout.ok());
  for (const PackageSectionInfo& s : layout->sections) {
    for (size_t l :
         {s.offset - 1, s.offset, s.offset + 1, s.offset + s.size - 1, s.offset + s.size}) {
      if (l < b.size()) lengths.push_back(l);
    }
  }
  std::mt19937 rng(7);
  for (int i = 0; i < 300; ++i) lengths.push_back(rng() % b.size());
  for (size_t l : lengths) {
    const Bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(l));
    const Result<Package> r = parse(cut);
    ASSERT_FALSE(r.ok()) << "length " << l;
    EXPECT_EQ(r.status().code(), ErrorCode::kParseError) << r.status().toString();
    EXPECT_NE(r.status().message().find("test.throng"), std::string::npos);
  }
  // Trailing garbage is damage too.
  Bytes longer = b;
  longer.push_back(std::byte{0});
  EXPECT_FALSE(parse(longer).ok());
}

TEST(Package, ChecksumsCatchEveryFlippedByte) {
  const Bytes b = serialize(makePackage());
  ASSERT_TRUE(parse(b).ok());
  for (size_t i = 0; i < b.size(); ++i) {
    Bytes flipped = b;
    flipped[i] ^= std::byte{0x20};
    const Result<Package> r = parse(flipped);
    ASSERT_FALSE(r.ok()) << "flipped byte " << i;
  }
}

TEST(Package, RejectsWrongMagicAndEndianness) {
  Bytes b = serialize(makePackage());
  Bytes magic = b;
  magic[0] = std::byte{'X'};
  Result<Package> r = parse(magic);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("magic"), std::string::npos);
  Bytes endian = b;
  put<uint32_t>(endian, 12, 0x04030201u);
  resign(endian);
  r = parse(endian);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.status().message().find("endianness"), std::string::npos);
}

TEST(Package, RejectsOlderFutureAndZeroVersions) {
  // Versions before kOldestReadablePackageVersion are refused with a message that says to bake
  // again; newer ones with one that says to update throng.
  for (uint32_t version :
       {kOldestReadablePackageVersion - 1, kPackageVersion + 1, 0xffffffffu, 0u}) {
    Bytes b = serialize(makePackage());
    put<uint32_t>(b, 8, version);
    resign(b);
    const Result<Package> r = parse(b);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), ErrorCode::kVersionMismatch) << r.status().toString();
    const bool newer = version > kPackageVersion;
    EXPECT_NE(r.status().message().find(newer ? "update throng" : "bake the package again"),
              std::string::npos)
        << r.status().message();
  }
  // Without re-signing too: the version is checked before the checksum.
  Bytes b = serialize(makePackage());
  put<uint32_t>(b, 8, kPackageVersion + 1);
  EXPECT_EQ(parse(b).status().code(), ErrorCode::kVersionMismatch);
}

// Applies `edit` to a fresh package's bytes, re-signs them, and expects a clean error.
template <typename Edit>
Status rejectEdited(Edit edit) {
  Bytes b = serialize(makePackage());
  edit(b);
  resign(b);
  const Result<Package> r = parse(b);
  EXPECT_FALSE(r.ok());
  return r.ok() ? Status() : r.status();
}

template <typename Edit>
void expectRejected(Edit edit) {
  const Status s = rejectEdited(edit);
  EXPECT_FALSE(s.message().empty());
}

TEST(Package, RejectsAbsurdCountsAndSizes) {
  const Bytes base = serialize(makePackage());
  const size_t skel = sectionOffset(base, kSectionSkeleton);
  const size_t lods = sectionOffset(base, kSectionLods);
  const size_t clips = sectionOffset(base, kSectionClips);
  const size_t anim = sectionOffset(base, kSectionTexture);
  const size_t meta = sectionOffset(base, kSectionMeta);
  // Section table: count, offsets and sizes.
  expectRejected([](Bytes& b) { put<uint32_t>(b, 24, 0xffffffffu); });
  expectRejected([](Bytes& b) { put<uint32_t>(b, 24, 4u); });  // a section missing
  expectRejected([](Bytes& b) { put<uint64_t>(b, kPackageHeaderSize + 8, ~uint64_t{0} - 3); });
  expectRejected([](Bytes& b) { put<uint64_t>(b, kPackageHeaderSize + 16, ~uint64_t{0}); });
  expectRejected([&](Bytes& b) {  // two sections overlapping
    put<uint64_t>(b, kPackageHeaderSize + 32 + 8, get<uint64_t>(b, kPackageHeaderSize + 8));
  });
  expectRejected([](Bytes& b) {  // a duplicate tag
    put<uint32_t>(b, kPackageHeaderSize + 32, kSectionMeta);
  });
  expectRejected([](Bytes& b) { put<uint64_t>(b, 16, ~uint64_t{0}); });  // file size
  // Strings and counts larger than the section.
  expectRejected([&](Bytes& b) { put<uint32_t>(b, meta, 0xfffffff0u); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, skel, 0xffffffffu); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, skel, 1000u); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, skel, 0u); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, skel + 4, 0x7fffffffu); });  // joint name size
  expectRejected([&](Bytes& b) { put<uint32_t>(b, lods, 0xffffffffu); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, lods, 0u); });
  // LOD 0: geometric, skinning error, max distance, max error, p99 error, palette, vertices.
  expectRejected([&](Bytes& b) { put<uint32_t>(b, lods + 24, 0x40000000u); });  // palette count
  expectRejected([&](Bytes& b) { put<uint32_t>(b, lods + 28, 0xffffffffu); });  // vertex count
  expectRejected([&](Bytes& b) { put<uint32_t>(b, lods + 28, 3u); });
  expectRejected([&](Bytes& b) { put<float>(b, lods + 12, -1.0f); });  // max distance
  expectRejected([&](Bytes& b) { put<float>(b, lods + 16, -1.0f); });  // max error
  expectRejected([&](Bytes& b) { put<float>(b, lods + 20, 1.0f); });   // p99 above max (0)
  expectRejected([&](Bytes& b) { put<uint32_t>(b, clips, 0xffffffffu); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, clips, 0u); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 4, 0xffffffffu); });  // width
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 8, 0xffffffffu); });  // height
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 4, 0x4000u); });
  expectRejected([&](Bytes& b) { put<uint8_t>(b, anim, 7); });         // format
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 12, 4u); });  // joints
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 16, 9u); });  // frames
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 20, 0u); });  // frames per row
  expectRejected([&](Bytes& b) { put<uint32_t>(b, anim + 20, 3u); });
}

TEST(Package, RejectsInconsistentContent) {
  // The writer runs the same validation as the reader: it refuses, and leaves no file.
  auto expectInvalid = [](const Package& p, const char* what) {
    const auto dir = test::makeTempDir("pkg");
    const std::string path = (dir / "bad.throng").string();
    const Status s = writePackage(p, path);
    EXPECT_FALSE(s.ok()) << what;
    EXPECT_FALSE(std::filesystem::exists(path)) << what;
    std::filesystem::remove_all(dir);
  };
  Package p = makePackage();
  p.clips[1].frame_count = 4;  // runs past the texture's 7 frames
  expectInvalid(p, "clip range");
  p = makePackage();
  p.clips[0].fps = 0.0f;
  expectInvalid(p, "fps");
  p = makePackage();
  p.clips[0].duration = NAN;
  expectInvalid(p, "duration");
  p = makePackage();
  p.clips[0].root_motion.pop_back();
  expectInvalid(p, "root motion size");
  p = makePackage();
  p.clips[0].bounds.min.x = 5.0f;
  expectInvalid(p, "bounds");
  p = makePackage();
  p.clips[0].events[1].time = 1.0f;  // past the clip's end
  expectInvalid(p, "event time");
  p = makePackage();
  std::swap(p.clips[0].events[0], p.clips[0].events[1]);
  expectInvalid(p, "events out of order");
  p = makePackage();
  p.clips[0].events[0].name.clear();
  expectInvalid(p, "unnamed event");
  p = makePackage();
  p.lods[1].palette_joints = {0, 3};
  expectInvalid(p, "palette joint");
  p = makePackage();
  p.lods[0].mesh.joints[0].y = 3;
  expectInvalid(p, "mesh joint");
  p = makePackage();
  p.lods[1].mesh.joints[0].y = 2;  // fine for the skeleton, outside LOD 1's 2-entry palette
  expectInvalid(p, "palette slot");
  p = makePackage();
  p.lods[0].mesh.indices[0] = 999;
  expectInvalid(p, "index");
  p = makePackage();
  p.animation.texels32[5] = INFINITY;
  expectInvalid(p, "texel");
  p = makePackage();
  p.animation.texels32.pop_back();
  expectInvalid(p, "texel count");
  p = makePackage();
  p.lods.clear();
  expectInvalid(p, "no LOD");
  p = makePackage();
  p.lods[1].p99_error = 0.5f;  // above its max error
  expectInvalid(p, "p99 above max");
  p = makePackage();
  p.lods[1].max_error = -1.0f;
  expectInvalid(p, "negative error");
  p = makePackage();
  p.animation.width = 8;  // narrower than a frame: a frame-spanning layout needs a multiple of 3
  expectInvalid(p, "spanning width");
}

// A frame wider than the texture spans rows of whole joints (animation_texture.h): the layout
// helper, the texel addresses and a package round trip.
TEST(Package, FramesWiderThanTheTextureSpanRows) {
  const AnimationTextureLayout one_row = chooseAnimationTextureLayout(3, 7, 19);
  EXPECT_EQ(one_row.frames_per_row, 2u);
  EXPECT_EQ(one_row.width, 18u);
  EXPECT_EQ(one_row.height, 4u);
  // 700 joints (2100 texels) in at most 2048: two rows of 350 joints per frame.
  const AnimationTextureLayout wide = chooseAnimationTextureLayout(700, 5, 2048);
  EXPECT_EQ(wide.frames_per_row, 1u);
  EXPECT_EQ(wide.width, 1050u);
  EXPECT_EQ(wide.height, 10u);
  // 3 joints in 8 texels: 2 joints per row, 2 rows per frame.
  const AnimationTextureLayout narrow = chooseAnimationTextureLayout(3, 7, 8);
  EXPECT_EQ(narrow.width, 6u);
  EXPECT_EQ(narrow.height, 14u);

  Package p = makePackage();
  AnimationTexture& t = p.animation;
  t.width = narrow.width;
  t.height = static_cast<uint32_t>(narrow.height);
  t.frames_per_row = narrow.frames_per_row;
  EXPECT_EQ(t.rowsPerFrame(), 2u);
  EXPECT_EQ(t.jointsPerRow(), 2u);
  EXPECT_EQ(t.texelX(3, 0, 1), 1u);
  EXPECT_EQ(t.texelX(3, 2, 2), 2u);
  EXPECT_EQ(t.texelY(3, 1), 6u);
  EXPECT_EQ(t.texelY(3, 2), 7u);
  t.texels32.assign(size_t{t.width} * t.height * 4, 0.0f);
  // Every (frame, joint, row) has its own texel: no texel is used twice.
  std::vector<int> uses(size_t{t.width} * t.height, 0);
  for (uint32_t f = 0; f < t.frame_count; ++f) {
    for (uint32_t j = 0; j < t.joint_count; ++j) {
      for (uint32_t r = 0; r < 3; ++r) {
        ASSERT_LT(t.texelX(f, j, r), t.width);
        ASSERT_LT(t.texelY(f, j), t.height);
        ++uses[t.channelIndex(f, j, r) / 4];
      }
      JointRows rows = packRows(glm::mat4(1.0f));
      rows.rows[0].w = static_cast<float>(f);
      rows.rows[1].w = static_cast<float>(j);
      storeJointRows(t, f, j, rows);
    }
  }
  for (int u : uses) EXPECT_LE(u, 1);
  const auto dir = test::makeTempDir("pkg-span");
  const std::string path = (dir / "span.throng").string();
  ASSERT_TRUE(writePackage(p, path).ok());
  Result<Package> back = readPackage(path);
  ASSERT_TRUE(back.ok()) << back.status().toString();
  expectSamePackage(p, *back);
  EXPECT_EQ(loadJointRows(back->animation, 5, 2).rows[0].w, 5.0f);
  EXPECT_EQ(loadJointRows(back->animation, 5, 2).rows[1].w, 2.0f);
  std::filesystem::remove_all(dir);
}

TEST(Package, RejectsNonFiniteValuesAndBadSkeletonOrder) {
  const Bytes base = serialize(makePackage());
  const size_t lods = sectionOffset(base, kSectionLods);
  const size_t skel = sectionOffset(base, kSectionSkeleton);
  const size_t anim = sectionOffset(base, kSectionTexture);
  Status s = rejectEdited([&](Bytes& b) { put<float>(b, lods + 32, NAN); });  // position x
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData) << s.toString();
  s = rejectEdited([&](Bytes& b) { put<float>(b, anim + 32, INFINITY); });
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData) << s.toString();
  // Joint 0 ("root", 4 chars): name (4 + 4) then parent; make the root its own child.
  s = rejectEdited([&](Bytes& b) { put<int32_t>(b, skel + 4 + 8, 0); });
  EXPECT_NE(s.message().find("parent"), std::string::npos) << s.toString();
  // Joint 1 ("mid") given a parent index after itself.
  const size_t joint1 = skel + 4 + 8 + 4 + 40 + 64;
  s = rejectEdited([&](Bytes& b) { put<int32_t>(b, joint1 + 7, 2); });
  EXPECT_FALSE(s.ok());
  // A rest rotation of NaN is caught by buildSkeleton.
  s = rejectEdited([&](Bytes& b) { put<float>(b, skel + 4 + 8 + 4 + 12, NAN); });
  EXPECT_EQ(s.code(), ErrorCode::kInvalidData) << s.toString();
}

TEST(Package, RandomMutationsNeverCrash) {
  const Bytes base = serialize(makePackage());
  std::mt19937 rng(1234);
  int accepted = 0;
  for (int i = 0; i < 3000; ++i) {
    Bytes b = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t at = rng() % b.size();
      b[at] = static_cast<std::byte>(rng() & 0xff);
    }
    if (rng() % 2 == 0) resign(b);
    const Result<Package> r = parse(b);
    if (r.ok()) ++accepted;  // a harmless edit (a float, a name byte) may be valid
  }
  EXPECT_LT(accepted, 3000);
}

TEST(Package, ReadErrorsNameTheFile) {
  const Result<Package> missing = readPackage("/nonexistent/x.throng");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), ErrorCode::kIoError);
  EXPECT_NE(missing.status().message().find("/nonexistent/x.throng"), std::string::npos);
  const Status s = writePackage(makePackage(), "/nonexistent/dir/x.throng");
  EXPECT_EQ(s.code(), ErrorCode::kIoError);
}

TEST(Package, OlderVersionsAskForANewBake) {
  Bytes b = serialize(makePackage());
  put<uint32_t>(b, 8, kOldestReadablePackageVersion - 1);
  resign(b);
  const Result<Package> r = parse(b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), ErrorCode::kVersionMismatch);
  EXPECT_NE(r.status().message().find("bake the package again"), std::string::npos)
      << r.status().message();
}

TEST(Package, RejectsInconsistentLooks) {
  auto expectInvalid = [](const Package& p, const char* what, const char* words) {
    const auto dir = test::makeTempDir("pkg");
    const std::string path = (dir / "bad.throng").string();
    const Status s = writePackage(p, path);
    EXPECT_FALSE(s.ok()) << what;
    EXPECT_NE(s.message().find(words), std::string::npos) << what << ": " << s.message();
    EXPECT_FALSE(std::filesystem::exists(path)) << what;
    std::filesystem::remove_all(dir);
  };
  Package p = makePackage();
  p.lods[0].mesh.submeshes[0].material = 2;
  expectInvalid(p, "material index", "material 2 does not exist");
  p = makePackage();
  p.lods[1].mesh.submeshes[0].variant_materials = {0, 1};
  expectInvalid(p, "variant count", "2 variant materials for 1 variants");
  p = makePackage();
  p.lods[0].mesh.submeshes[1].variant_materials = {5};
  expectInvalid(p, "variant material", "material 5 does not exist");
  p = makePackage();
  p.lods[1].mesh.uvs1.clear();
  expectInvalid(p, "uv set", "samples uv set 1");
  p = makePackage();
  p.materials[1].base_color_texture.image = 2;
  expectInvalid(p, "image index", "base colour texture image 2 does not exist");
  p = makePackage();
  p.materials[0].base_color.g = 1.5f;
  expectInvalid(p, "colour", "outside [0, 1]");
  p = makePackage();
  p.materials[1].alpha_cutoff = -1.0f;
  expectInvalid(p, "cutoff", "alpha cutoff");
  p = makePackage();
  p.materials[1].base_color_texture.sampler.mag_filter = TextureFilter::kLinearMipmapLinear;
  expectInvalid(p, "mag filter", "filters");
  p = makePackage();
  p.materials[1].base_color_texture.sampler.wrap_t = static_cast<TextureWrap>(0x2900);
  expectInvalid(p, "wrap", "wraps");
  p = makePackage();
  p.materials[1].base_color_texture.transform.scale.x = NAN;
  expectInvalid(p, "transform", "transform");
  p = makePackage();
  p.lods[0].mesh.colors[3].a = 2.0f;
  expectInvalid(p, "vertex colour", "colour is outside");
  p = makePackage();
  p.lods[0].mesh.colors.pop_back();
  expectInvalid(p, "colour count", "colors");
  p = makePackage();
  p.images[0].mips.pop_back();
  expectInvalid(p, "short chain", "not 1x1");
  p = makePackage();
  p.images[0].mips[1] = level(2, 1, 0);
  expectInvalid(p, "level size", "the chain needs 1x1");
  p = makePackage();
  p.images[0].mips[0].rgba.pop_back();
  expectInvalid(p, "pixel bytes", "holds");
  p = makePackage();
  p.images[0].pot_mips = {level(3, 2, 0), level(1, 1, 0)};
  expectInvalid(p, "pot copy", "power-of-two copy is 3x2");
  p = makePackage();
  p.images[0].mips = {level(kMaxImageSize + 1, 1, 0)};
  expectInvalid(p, "image size", "limit");
  // Metallic-roughness: factors, every texture slot, the colour space of images, tangents.
  p = makePackage();
  p.materials[1].roughness_factor = 1.25f;
  expectInvalid(p, "roughness", "roughness factor is 1.25, outside [0, 1]");
  p = makePackage();
  p.materials[1].normal_texture.image = 3;
  expectInvalid(p, "normal image", "normal texture image 3 does not exist (2 images)");
  p = makePackage();
  p.materials[1].occlusion_texture.sampler.min_filter = static_cast<TextureFilter>(7);
  expectInvalid(p, "occlusion filter", "occlusion texture filters");
  p = makePackage();
  p.materials[0].emissive_texture.image = 1;  // the data image read as colour
  p.materials[0].emissive_texture.uv_set = 1;
  expectInvalid(p, "colour space", "image 1 is read as sRGB colour (material 0 ('plain')");
  p = makePackage();
  p.lods[1].mesh.tangents.clear();
  p.lods[1].mesh.tangent_source = TangentSource::kNone;
  expectInvalid(p, "tangents",
                "LOD 1: sub-mesh 0 ('lower'): material 1 ('textured') has a normal "
                "texture, which needs tangents; the mesh has none");
  p = makePackage();
  p.lods[0].mesh.tangents[2].w = 0.0f;
  expectInvalid(p, "handedness", "vertex 2 tangent handedness (w) is 0, not +1 or -1");
}

// A version 3 file of `p`: the same sections less TANG and PBRM, version 3 in the header.
Bytes asVersion3(const Package& p) {
  std::vector<test::PackageSection> sections;
  const Bytes v4 = serialize(p);
  const std::string file(reinterpret_cast<const char*>(v4.data()), v4.size());
  for (const test::PackageSection& s : test::splitPackage(file)) {
    if (s.tag != kSectionTangents && s.tag != kSectionPbr) sections.push_back(s);
  }
  Bytes b = toBytes(test::buildPackage(sections));
  put<uint32_t>(b, 8, 3);
  resign(b);
  return b;
}

TEST(Package, Version3ReadsWithoutTangentsAndWithTheLambertLook) {
  Package p = makePackage();
  const Result<Package> back = parse(asVersion3(p));
  ASSERT_TRUE(back.ok()) << back.status().toString();
  // What version 3 held is read as it was.
  ASSERT_EQ(back->materials.size(), 2u);
  EXPECT_EQ(back->materials[1].base_color_texture.transform.scale, glm::vec2(2.0f, 3.0f));
  EXPECT_EQ(back->lods[0].mesh.positions, p.lods[0].mesh.positions);
  // What it lacked has the documented defaults.
  for (const MeshLod& lod : back->lods) {
    EXPECT_TRUE(lod.mesh.tangents.empty());
    EXPECT_EQ(lod.mesh.tangent_source, TangentSource::kNone);
  }
  for (const Material& m : back->materials) {
    EXPECT_EQ(m.metallic_factor, kVersion3MetallicFactor);
    EXPECT_EQ(m.roughness_factor, kVersion3RoughnessFactor);
    EXPECT_EQ(m.normal_scale, 1.0f);
    EXPECT_EQ(m.occlusion_strength, 1.0f);
    EXPECT_EQ(m.emissive_factor, glm::vec3(0.0f));
    EXPECT_EQ(m.emissive_strength, 1.0f);
    for (int slot = 1; slot < kTextureSlotCount; ++slot) {
      EXPECT_FALSE(m.texture(static_cast<TextureSlot>(slot)).present());
    }
  }
  EXPECT_EQ(kVersion3MetallicFactor, 0.0f);
  EXPECT_EQ(kVersion3RoughnessFactor, 1.0f);
  // Saving it again writes version 4, which reads back the same.
  const auto dir = test::makeTempDir("pkg-v3");
  const std::string path = (dir / "upgraded.throng").string();
  ASSERT_TRUE(writePackage(*back, path).ok());
  EXPECT_EQ(test::readAt<uint32_t>(test::readFile(path), 8), kPackageVersion);
  Result<Package> again = readPackage(path);
  ASSERT_TRUE(again.ok()) << again.status().toString();
  expectSamePackage(*back, *again);
  std::filesystem::remove_all(dir);
}

TEST(Package, RejectsBadPbrAndTangentBytes) {
  const Bytes base = serialize(makePackage());
  const size_t tang = sectionOffset(base, kSectionTangents);
  const size_t pbrm = sectionOffset(base, kSectionPbr);
  // TANG: u32 LOD count, LOD 0: u8 source then 20 x 16 bytes, LOD 1: u8 source ...
  Status s = rejectEdited([&](Bytes& b) { put<uint32_t>(b, tang, 1); });
  EXPECT_NE(s.message().find("section TANG at byte 4: 1 LODs, section LODS has 2"),
            std::string::npos)
      << s.message();
  s = rejectEdited([&](Bytes& b) { put<uint8_t>(b, tang + 4, 4); });
  EXPECT_NE(s.message().find("tangent source is 4, not 0..3"), std::string::npos) << s.message();
  s = rejectEdited([&](Bytes& b) { put<uint8_t>(b, tang + 4 + 1 + 20 * 16, 0); });
  EXPECT_EQ(s.code(), ErrorCode::kParseError) << s.message();  // LOD 1's tangents left over
  s = rejectEdited([&](Bytes& b) { put<float>(b, tang + 4 + 1 + 16 * 7 + 12, -0.25f); });
  EXPECT_NE(s.message().find("LOD 0: vertex 7 tangent handedness (w) is -0.25"), std::string::npos)
      << s.message();
  // PBRM: u32 material count, material 0: metallic, roughness, normal scale, occlusion strength,
  // emissive (3), strength, 4 texture records of 36 bytes (image, uv set, ...).
  s = rejectEdited([&](Bytes& b) { put<uint32_t>(b, pbrm, 3); });
  EXPECT_NE(s.message().find("section PBRM at byte 4: 3 materials, section MATL has 2"),
            std::string::npos)
      << s.message();
  s = rejectEdited([&](Bytes& b) { put<float>(b, pbrm + 4, 2.0f); });
  EXPECT_NE(s.message().find("material 0 ('plain'): metallic factor is 2, outside [0, 1]"),
            std::string::npos)
      << s.message();
  s = rejectEdited([&](Bytes& b) { put<uint32_t>(b, pbrm + 4 + 32 + 4, 2); });
  EXPECT_NE(s.message().find("texture uv set 2 is not 0 or 1"), std::string::npos) << s.message();
  const size_t material1 = pbrm + 4 + 32 + 4 * 36;
  s = rejectEdited([&](Bytes& b) { put<int32_t>(b, material1 + 32 + 36, 5); });
  EXPECT_NE(s.message().find("material 1 ('textured'): normal texture image 5 does not exist"),
            std::string::npos)
      << s.message();
}

TEST(Package, RejectsBadLooksBytes) {
  const Bytes base = serialize(makePackage());
  const size_t matl = sectionOffset(base, kSectionMaterials);
  const size_t imgs = sectionOffset(base, kSectionImages);
  // MATL: u32 variant count, "swapped" (4 + 7), u32 material count, material 0: "plain" (4 + 5),
  // colour (16), alpha mode (1), sides (1), ...
  const size_t material0 = matl + 4 + 11 + 4;
  expectRejected([&](Bytes& b) { put<uint32_t>(b, matl, 0xffffffffu); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, matl + 15, 0x7fffffffu); });
  Status s = rejectEdited([&](Bytes& b) { put<uint8_t>(b, material0 + 9 + 16, 3); });
  EXPECT_NE(s.message().find("alpha mode 3"), std::string::npos) << s.message();
  s = rejectEdited([&](Bytes& b) { put<uint8_t>(b, material0 + 9 + 17, 2); });
  EXPECT_NE(s.message().find("double-sided flag"), std::string::npos) << s.message();
  // IMGS: u32 image count, "skin" (4 + 4), u32 levels, u32 pot levels, level 0: u32 w, u32 h.
  expectRejected([&](Bytes& b) { put<uint32_t>(b, imgs, 0xffffffffu); });
  expectRejected([&](Bytes& b) { put<uint32_t>(b, imgs + 12, 0xffffffffu); });
  s = rejectEdited([&](Bytes& b) { put<uint32_t>(b, imgs + 20, 100000u); });
  EXPECT_NE(s.message().find("exceeds the limit"), std::string::npos) << s.message();
  s = rejectEdited([&](Bytes& b) { put<uint32_t>(b, imgs + 20, 5000u); });
  EXPECT_EQ(s.code(), ErrorCode::kParseError) << s.message();  // the pixels do not fit
}

}  // namespace
}  // namespace throng
