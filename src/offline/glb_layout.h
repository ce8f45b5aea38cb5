// The GLB container's layout (glTF 2.0 spec, "Binary glTF Layout"), for the importer's readers:
// the 12-byte header (magic, version, length), then chunks of an 8-byte header (length, type)
// and their data.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>

namespace throng::gltf {

inline constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
inline constexpr uint32_t kGlbVersion = 2;
inline constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
inline constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
inline constexpr size_t kGlbHeaderBytes = 12;
inline constexpr size_t kChunkHeaderBytes = 8;

// The little-endian 32-bit word at `offset` (the caller checks that 4 bytes are there). glTF is
// little-endian, as every platform throng targets.
inline uint32_t readGlbU32(std::string_view bytes, size_t offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;
}

}  // namespace throng::gltf
