// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#include "offline/gltf_read_document.h"

#include <cstdint>
#include <cstring>
#include <exception>
#include <filesystem>
#include <limits>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "offline/gltf_json_scan.h"
#include "offline/gltf_uri.h"
#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"

namespace throng::gltf {
namespace {

// GLB container layout (glTF 2.0 spec, "Binary glTF Layout").
constexpr uint32_t kGlbMagic = 0x46546C67;  // "glTF"
constexpr uint32_t kGlbVersion = 2;
constexpr uint32_t kChunkJson = 0x4E4F534A;  // "JSON"
constexpr uint32_t kChunkBin = 0x004E4942;   // "BIN\0"
constexpr size_t kGlbHeaderBytes = 12;
constexpr size_t kChunkHeaderBytes = 8;
// tinygltf takes the byte count as `unsigned int`; larger files cannot be handed to it.
constexpr uint64_t kMaxFileBytes = std::numeric_limits<unsigned int>::max();
// tinygltf's own messages may quote whole values (a 200 MB data uri); this much of them is enough.
constexpr size_t kMaxQuotedMessageBytes = 160;

uint32_t readU32(std::string_view bytes, size_t offset) {
  uint32_t value = 0;
  std::memcpy(&value, bytes.data() + offset, sizeof(value));
  return value;  // glTF is little-endian, as every platform throng targets
}

// Checks the GLB header and chunk table so that tinygltf only ever sees consistent lengths.
Status checkGlbContainer(const std::string& path, std::string_view bytes) {
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

// Images are irrelevant to throng: accept them without decoding.
bool skipImage(tinygltf::Image*, const int, std::string*, std::string*, int, int,
               const unsigned char*, int, void*) {
  return true;
}

// Extensions that only touch materials, textures, lights or cameras: ignoring them cannot change
// the skeleton, mesh or clips, so they are fine even when "required".
bool isIgnorableExtension(std::string_view name) {
  return name.starts_with("KHR_materials_") || name == "KHR_texture_transform" ||
         name == "KHR_texture_basisu" || name == "EXT_texture_webp" ||
         name == "KHR_lights_punctual" || name == "KHR_xmp_json_ld" || name == "KHR_xmp" ||
         name == "KHR_materials_variants";
}

// Extensions whose data the importer reads correctly.
bool isSupportedExtension(std::string_view name) {
  return name == "KHR_mesh_quantization";
}

}  // namespace

std::string place(const Document& doc, const std::string& what) {
  return fmt::format("{}: {}", doc.path, what);
}

Result<Document> loadDocument(const std::string& path, const ImportOptions& options) {
  Document doc;
  doc.path = path;

  Result<std::string> read = readFileBytes(path, kMaxFileBytes);
  if (!read.ok()) return read.status();
  const std::string& bytes = *read;
  if (bytes.empty()) return Status(ErrorCode::kParseError, fmt::format("{}: empty file", path));

  const bool binary = bytes.size() >= 4 && readU32(bytes, 0) == kGlbMagic;
  std::string_view json = bytes;
  if (binary) {
    if (Status status = checkGlbContainer(path, bytes); !status.ok()) return status;
    json = json.substr(kGlbHeaderBytes + kChunkHeaderBytes, readU32(bytes, 12));
  }
  const JsonScan scan = scanJson(json);
  if (scan.too_deep) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: JSON nested more than {} levels deep", path, kMaxJsonDepth));
  }
  for (size_t b = 0; b < scan.buffers.size(); ++b) {
    if (scan.buffers[b].has_byte_length && scan.buffers[b].byte_length == 0) {
      return Status(ErrorCode::kInvalidData,
                    fmt::format("{}: buffer {}: byteLength is 0 (a buffer holds at least one byte)",
                                path, b));
    }
  }

  UriRules rules;
  rules.base_dir = std::filesystem::path(path).parent_path();
  for (const std::string& root : options.allowed_roots) rules.allowed_roots.emplace_back(root);
  UriLoader files(path, std::move(rules), scan);
  tinygltf::TinyGLTF loader;
  loader.SetImageLoader(&skipImage, nullptr);
  files.install(loader);
  const std::string base_dir(UriLoader::kBaseDir);
  std::string err;
  std::string warn;
  bool loaded = false;
  try {
    if (binary) {
      loaded = loader.LoadBinaryFromMemory(&doc.model, &err, &warn,
                                           reinterpret_cast<const unsigned char*>(bytes.data()),
                                           static_cast<unsigned int>(bytes.size()), base_dir);
    } else {
      loaded = loader.LoadASCIIFromString(&doc.model, &err, &warn, bytes.data(),
                                          static_cast<unsigned int>(bytes.size()), base_dir);
    }
  } catch (const std::bad_alloc&) {
    return Status(ErrorCode::kLimitExceeded,
                  fmt::format("{}: not enough memory to parse the glTF JSON", path));
  } catch (const std::exception& e) {
    // tinygltf trusts some values it never checks (an empty buffer, an index) and then throws
    // from the standard library; its text means nothing to a user, so it only comes last.
    return Status(ErrorCode::kParseError,
                  fmt::format("{}: not valid glTF: an inconsistent value made the glTF parser "
                              "stop (its own words: '{}')",
                              path, excerpt(e.what())));
  } catch (...) {
    return Status(ErrorCode::kParseError, fmt::format("{}: not valid glTF", path));
  }
  if (Status refused = files.failure(loaded); !refused.ok()) return refused;
  // tinygltf's texts: marker paths back to uris, on one line, and short (they may quote a whole
  // data uri).
  auto trim = [](std::string text) {
    text = UriLoader::withoutMarker(std::move(text));
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    for (size_t at = text.find('\n'); at != std::string::npos; at = text.find('\n', at)) {
      text.replace(at, 1, "; ");
    }
    return excerpt(text, kMaxQuotedMessageBytes);
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
  uint64_t input_bytes = bytes.size();
  for (const tinygltf::Buffer& buffer : doc.model.buffers) input_bytes += buffer.data.size();
  doc.decode_budget = kDecodeBudgetAllowance + kDecodeBudgetPerByte * input_bytes;
  if (!warn.empty()) doc.warnings.push_back(fmt::format("{}: {}", path, trim(warn)));

  for (const std::string& name : doc.model.extensionsRequired) {
    if (!isSupportedExtension(name) && !isIgnorableExtension(name)) {
      return Status(
          ErrorCode::kUnsupported,
          fmt::format("{}: requires extension {}, which throng does not support", path, name));
    }
  }
  for (const std::string& name : doc.model.extensionsUsed) {
    if (isSupportedExtension(name)) {
      if (name == "KHR_mesh_quantization") doc.quantized = true;
      continue;
    }
    doc.warnings.push_back(fmt::format("{}: extension {} is ignored", path, name));
  }
  return doc;
}

}  // namespace throng::gltf
