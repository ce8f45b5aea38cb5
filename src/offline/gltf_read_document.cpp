// Loading a glTF file into a tinygltf::Model with every failure turned into a Status.
#include "offline/gltf_read_document.h"

#include <cstdint>
#include <exception>
#include <filesystem>
#include <limits>
#include <new>
#include <string_view>

#include <fmt/format.h>

#include "offline/glb_layout.h"
#include "offline/gltf_json_scan.h"
#include "offline/gltf_read_draco.h"
#include "offline/gltf_read_image.h"
#include "offline/gltf_read_meshopt.h"
#include "offline/gltf_read_prepare.h"
#include "offline/gltf_uri.h"
#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"

namespace throng::gltf {
namespace {

// tinygltf's own messages may quote whole values (a 200 MB data uri); this much of them is enough.
constexpr size_t kMaxQuotedMessageBytes = 160;

// Checks the GLB header and chunk table so that tinygltf only ever sees consistent lengths.
Status checkGlbContainer(const std::string& path, std::string_view bytes) {
  const size_t size = bytes.size();
  if (size < kGlbHeaderBytes + kChunkHeaderBytes) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated GLB: {} bytes, the header alone needs {}", path, size,
                        kGlbHeaderBytes + kChunkHeaderBytes)};
  }
  const uint32_t version = readGlbU32(bytes, 4);
  if (version != kGlbVersion) {
    return {ErrorCode::kUnsupported,
            fmt::format("{}: GLB version {} (only version 2 is supported)", path, version)};
  }
  const uint32_t length = readGlbU32(bytes, 8);
  if (length != size) {
    return {ErrorCode::kParseError,
            fmt::format("{}: truncated or padded GLB: header says {} bytes, file has {}", path,
                        length, size)};
  }
  const uint64_t json_length = readGlbU32(bytes, 12);
  if (readGlbU32(bytes, 16) != kChunkJson) {
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
  const uint64_t bin_length = readGlbU32(bytes, json_end);
  if (readGlbU32(bytes, json_end + 4) != kChunkBin) {
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

Warning& warn(Document& doc, WarningKind kind, const std::string& what, std::string subject) {
  doc.warnings.push_back(makeWarning(kind, place(doc, what), std::move(subject)));
  return doc.warnings.back().with("file", doc.path);
}

Result<Document> loadDocument(const std::string& path, const ImportOptions& options) {
  Document doc;
  doc.path = path;

  Result<std::string> read = readFileBytes(path, kMaxGltfFileBytes);
  if (!read.ok()) return read.status();
  std::string bytes = std::move(*read);
  if (bytes.empty()) return Status(ErrorCode::kParseError, fmt::format("{}: empty file", path));

  const bool binary = bytes.size() >= 4 && readGlbU32(bytes, 0) == kGlbMagic;
  std::string_view json = bytes;
  if (binary) {
    if (Status status = checkGlbContainer(path, bytes); !status.ok()) return status;
    json = json.substr(kGlbHeaderBytes + kChunkHeaderBytes, readGlbU32(bytes, 12));
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

  if (Status status = prepareForTinygltf(path, bytes, binary); !status.ok()) return status;

  UriRules rules;
  rules.base_dir = std::filesystem::path(path).parent_path();
  for (const std::string& root : options.allowed_roots) rules.allowed_roots.emplace_back(root);
  UriLoader files(path, std::move(rules), scan);
  tinygltf::TinyGLTF loader;
  // Images stay encoded until a material needs them (gltf_read_image.h).
  loader.SetImageLoader(&keepEncodedImage, nullptr);
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
  if (!warn.empty()) {
    const std::string text = trim(warn);
    gltf::warn(doc, WarningKind::kLoaderNote, text, excerpt(text)).with("text", text);
  }

  if (Status s = checkRequiredExtensions(path, doc.model.extensionsRequired); !s.ok()) return s;
  noteUsedExtensions(doc);
  if (Status s = decodeMeshoptViews(doc); !s.ok()) return s;
  if (Status s = decodeDracoPrimitives(doc); !s.ok()) return s;
  return doc;
}

}  // namespace throng::gltf
