// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#include "offline/gltf_read_document.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string_view>

#include <fmt/format.h>

#include "offline/gltf_read_draco.h"
#include "offline/gltf_read_image.h"
#include "offline/gltf_read_meshopt.h"
#include "offline/gltf_read_prepare.h"

namespace throng::gltf {
namespace {

// GLB container layout (glTF 2.0 spec, "Binary glTF Layout").
constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kGlbVersion = 2;
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
constexpr size_t kGlbHeaderBytes = 12;
constexpr size_t kChunkHeaderBytes = 8;

uint32_t readU32(const std::vector<unsigned char>& bytes, size_t offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;  // glTF is little-endian, as every platform throng targets
}

// Checks the GLB header and chunk table so that tinygltf only ever sees consistent lengths.
Status checkGlbContainer(const std::string& path, const std::vector<unsigned char>& bytes) {
  const size_t size = bytes.size();
  if (size < kGlbHeaderBytes + kChunkHeaderBytes) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated GLB: {} bytes, the header alone needs {}", path, size,
                        kGlbHeaderBytes + kChunkHeaderBytes)};
  }
  const uint32_t version = readU32(bytes, 4);
  if (version != kGlbVersion) {
    return {ErrorCode::kUnsupported,
            fmt::format("{}: GLB version {} (only version 2 is supported)", path, version)};
  }
  const uint32_t length = readU32(bytes, 8);
  if (length != size) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated or padded GLB: header says {} bytes, file has {}", path,
                        length, size)};
  }
  const uint64_t json_length = readU32(bytes, 12);
  if (readU32(bytes, 16) != kChunkJson) {
    return {ErrorCode::kParseError, fmt::format("{}: GLB chunk 0 is not JSON", path)};
  }
  const uint64_t json_end = kGlbHeaderBytes + kChunkHeaderBytes + json_length;
  if (json_length == 0 || json_end > size) {
    return {ErrorCode::kParseError,
            fmt::format("{}: GLB JSON chunk of {} bytes does not fit in the {}-byte file", path,
                        json_length, size)};
  }
  if (json_end == size) return {};
  if (json_end + kChunkHeaderBytes > size) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated GLB: chunk header at byte {} cut off", path, json_end)};
  }
  const uint64_t bin_length = readU32(bytes, json_end);
  if (readU32(bytes, json_end + 4) != kChunkBin) {
    return {ErrorCode::kParseError, fmt::format("{}: GLB chunk 1 is not BIN", path)};
  }
  if (json_end + kChunkHeaderBytes + bin_length > size) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated GLB: BIN chunk of {} bytes at byte {} ends past the "
                        "{}-byte file",
                        path, bin_length, json_end, size)};
  }
  return {};
}

}  // namespace

std::string place(const Document& doc, const std::string& what) {
  return fmt::format("{}: {}", doc.path, what);
}

Result<Document> loadDocument(const std::string& path) {
  Document doc;
  doc.path = path;

  std::ifstream file(path, std::ios::binary);
  if (!file) return Status(ErrorCode::kIoError, fmt::format("{}: cannot open file", path));
  std::vector<unsigned char> bytes((std::istreambuf_iterator<char>(file)),
                                   std::istreambuf_iterator<char>());
  if (file.bad()) return Status(ErrorCode::kIoError, fmt::format("{}: read error", path));
  if (bytes.size() > kMaxGltfFileBytes) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: {} bytes; files over {} bytes are not supported", path,
                              bytes.size(), kMaxGltfFileBytes));
  }
  if (bytes.empty()) return Status(ErrorCode::kParseError, fmt::format("{}: empty file", path));

  const bool binary = bytes.size() >= 4 && readU32(bytes, 0) == kGlbMagic;
  if (binary) {
    if (Status status = checkGlbContainer(path, bytes); !status.ok()) return status;
  }

  if (Status status = prepareForTinygltf(path, bytes, binary); !status.ok()) return status;

  const std::string base_dir = std::filesystem::path(path).parent_path().string();
  tinygltf::TinyGLTF loader;
  // Images stay encoded until a material needs them (gltf_read_image.h).
  loader.SetImageLoader(&keepEncodedImage, nullptr);
  std::string err;
  std::string warn;
  bool loaded = false;
  try {
    if (binary) {
      loaded = loader.LoadBinaryFromMemory(&doc.model, &err, &warn, bytes.data(),
                                           static_cast<unsigned int>(bytes.size()), base_dir);
    } else {
      loaded = loader.LoadASCIIFromString(&doc.model, &err, &warn,
                                          reinterpret_cast<const char*>(bytes.data()),
                                          static_cast<unsigned int>(bytes.size()), base_dir);
    }
  } catch (const std::exception& e) {
    return Status(ErrorCode::kParseError, fmt::format("{}: not valid glTF: {}", path, e.what()));
  } catch (...) {
    return Status(ErrorCode::kParseError, fmt::format("{}: not valid glTF", path));
  }
  auto trim = [](std::string text) {
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (char& c : text) {
      if (c == '\n') c = ';';
    }
    return text;
  };
  if (!loaded) {
    const bool io = err.find("File not found") != std::string::npos ||
                    err.find("File read error") != std::string::npos ||
                    err.find("File size mismatch") != std::string::npos;
    return Status(
        io ? ErrorCode::kIoError : ErrorCode::kParseError,
        fmt::format("{}: {}{}", path, io ? "cannot load external buffer: " : "not valid glTF: ",
                    trim(err.empty() ? std::string("unknown error") : err)));
  }
  if (!warn.empty()) doc.warnings.push_back(fmt::format("{}: {}", path, trim(warn)));

  if (Status s = checkRequiredExtensions(path, doc.model.extensionsRequired); !s.ok()) return s;
  noteUsedExtensions(doc);
  if (Status s = decodeMeshoptViews(doc); !s.ok()) return s;
  if (Status s = decodeDracoPrimitives(doc); !s.ok()) return s;
  return doc;
}

}  // namespace throng::gltf
