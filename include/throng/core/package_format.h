// The on-disk layout of .throng packages (docs/formats.md): constants, checksum and section table.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/status.h"

namespace throng {

// "THRONGPK": the first 8 bytes of every package.
inline constexpr std::array<char, 8> kPackageMagic = {'T', 'H', 'R', 'O', 'N', 'G', 'P', 'K'};
// The version this library writes; bumped whenever a reader of the previous version could not
// read the new files. Version 2 added materials, images, vertex colours, a second uv set and
// sub-mesh materials; animation events (per clip, in CLIP); version 3 each LOD's max and p99 error;
// version 4 glTF metallic-roughness materials (section PBRM) and vertex tangents (section TANG);
// version 5 baked morph targets (section VATX: vertex animation textures or target deltas), props
// carried by joints and joint masks (section ATCH); version 6 the impostor (section IMPS).
inline constexpr uint32_t kPackageVersion = 6;
// The oldest version this library reads. From version 3 on every library reads every version
// from 3 up to its own kPackageVersion (docs/formats.md, "Compatibility"; each is kept as test
// data in tests/core/data/packages); versions 1 and 2 came before that promise and are refused
// with kVersionMismatch, as is a version newer than kPackageVersion.
inline constexpr uint32_t kOldestReadablePackageVersion = 3;
// Written as the uint32 0x01020304; every number in the file is little-endian.
inline constexpr uint32_t kPackageEndianMarker = 0x01020304u;
// magic(8) version(4) endian(4) file_size(8) section_count(4) reserved(4) header_checksum(8).
inline constexpr size_t kPackageHeaderSize = 40;
// tag(4) reserved(4) offset(8) size(8) checksum(8).
inline constexpr size_t kPackageSectionEntrySize = 32;
// Sections start at multiples of this (so texel data can be mapped in place if a reader wants).
inline constexpr size_t kPackageSectionAlignment = 16;
// A package has a handful of sections; more is corruption, not content.
inline constexpr uint32_t kMaxPackageSections = 64;

// Section tags (four ASCII characters, stored as a little-endian uint32).
inline constexpr uint32_t packageTag(const char (&s)[5]) {
  return static_cast<uint32_t>(static_cast<uint8_t>(s[0])) |
         static_cast<uint32_t>(static_cast<uint8_t>(s[1])) << 8 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[2])) << 16 |
         static_cast<uint32_t>(static_cast<uint8_t>(s[3])) << 24;
}
inline constexpr uint32_t kSectionMeta = packageTag("META");         // source file name
inline constexpr uint32_t kSectionSkeleton = packageTag("SKEL");     // joints
inline constexpr uint32_t kSectionLods = packageTag("LODS");         // mesh levels of detail
inline constexpr uint32_t kSectionClips = packageTag("CLIP");        // clip table
inline constexpr uint32_t kSectionTexture = packageTag("ANIM");      // animation texture
inline constexpr uint32_t kSectionMaterials = packageTag("MATL");    // materials, variant names
inline constexpr uint32_t kSectionImages = packageTag("IMGS");       // RGBA8 mip chains
inline constexpr uint32_t kSectionTangents = packageTag("TANG");     // per LOD tangents (v4)
inline constexpr uint32_t kSectionPbr = packageTag("PBRM");          // metallic-roughness etc. (v4)
inline constexpr uint32_t kSectionMorph = packageTag("VATX");        // baked morph targets (v5)
inline constexpr uint32_t kSectionAttachments = packageTag("ATCH");  // props, masks (v5)
inline constexpr uint32_t kSectionImpostor = packageTag("IMPS");     // impostor atlases (v6)

// What a version 3 package's materials read as: they had a base colour only, which throng drew
// with Lambert diffuse light. A dielectric (metallic 0) of roughness 1 is the metallic-roughness
// material closest to that: all its light is diffuse, with no visible highlight; glTF's own
// default (metallic 1) would draw every old package as dark metal. Normal, occlusion and emissive
// stay at their defaults (none, 1, black), and the meshes have no tangents.
inline constexpr float kVersion3MetallicFactor = 0.0f;
inline constexpr float kVersion3RoughnessFactor = 1.0f;

// FNV-1a 64 (Fowler, Noll, Vo) of `bytes`, continuing from `hash` (start with the offset basis).
inline constexpr uint64_t kFnvOffsetBasis = 0xcbf29ce484222325ull;
uint64_t fnv1a64(std::span<const std::byte> bytes, uint64_t hash = kFnvOffsetBasis);

struct PackageSectionInfo {
  uint32_t tag = 0;
  uint64_t offset = 0;  // bytes from the start of the file
  uint64_t size = 0;    // bytes
  uint64_t checksum = 0;
  std::string name() const;  // the tag as text, e.g. "SKEL"
};

struct PackageLayout {
  uint32_t version = 0;
  uint64_t file_size = 0;
  std::vector<PackageSectionInfo> sections;  // in table order
};

// Checks the header and the section table of `bytes` (magic, endianness, version, file size,
// header checksum, section ranges and checksums) without decoding the sections. Errors name
// `source`: kParseError for damage, kVersionMismatch (one line saying what to do) for a version
// outside [kOldestReadablePackageVersion, kPackageVersion].
Result<PackageLayout> readPackageLayout(std::span<const std::byte> bytes, std::string_view source);

}  // namespace throng
