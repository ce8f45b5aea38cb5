// External uris of a .gltf: the one place that decides which file a buffer or image uri may read.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include <tiny_gltf.h>

#include "offline/gltf_json_scan.h"
#include "throng/core/status.h"

namespace throng::gltf {

// An external file (a .bin buffer, an image) is never larger than what tinygltf can index.
inline constexpr uint64_t kMaxExternalFileBytes = 0xFFFFFFFFu;

// Buffers may name the same file more than once, but a document's external reads stay linear in
// the bytes of the files it names: all reads together load at most twice the distinct files'
// bytes plus this allowance (a thousand buffers naming one large file would otherwise load it a
// thousand times).
inline constexpr uint64_t kExternalRereadAllowance = uint64_t{16} << 20;

// Where the external files of one document may come from.
struct UriRules {
  std::filesystem::path base_dir;                    // the .gltf's folder; uris are relative to it
  std::vector<std::filesystem::path> allowed_roots;  // more folders uris may lead into
};

// RFC 3986 percent-decoding of a uri: "%XX" becomes the byte XX, nothing else changes ('+' stays).
// kInvalidData for a '%' not followed by two hex digits.
Result<std::string> percentDecode(std::string_view uri);

// The file a (percent-decoded) uri names, as a canonical path. The uri must be a relative path
// (no scheme, no backslash, no NUL byte; an absolute path only inside an allowed root); resolved
// against rules.base_dir and normalised, it must lie inside base_dir or one of the allowed roots,
// and so must the file it leads to after every symbolic link is followed. Errors: kInvalidData for
// a uri that breaks these rules, kIoError for a file that does not exist. Messages describe the
// problem only (the caller prefixes the document and the uri).
Result<std::filesystem::path> resolveUri(const UriRules& rules, std::string_view uri);

// Routes every file tinygltf opens for one document through resolveUri and readFileBytes (regular
// files only, opened without blocking, at most kMaxExternalFileBytes). Usage: install() on the
// loader, pass kBaseDir as the loader's base folder, then check failure() after loading: it holds
// the first uri that broke the rules (fatal even where tinygltf would only warn, as for images) or,
// when loading failed, the first file that could not be read.
class UriLoader {
 public:
  // What tinygltf receives as the document's folder: a marker, so that every path it builds is
  // recognisably "<marker>/<uri>" and the real folder stays with the rules.
  static constexpr std::string_view kBaseDir = "\x01throng-uri";

  // `source` names the document in messages; `scan` lists its buffers and images (raw uris).
  UriLoader(std::string source, UriRules rules, const JsonScan& scan);

  void install(tinygltf::TinyGLTF& loader);

  // The first refused uri (kInvalidData; kLimitExceeded past kExternalRereadAllowance), else the
  // first unreadable buffer file (kIoError), else ok. `loaded` is what tinygltf returned: an
  // unreadable buffer only matters when it failed; an unreadable image never does here (tinygltf
  // warns, and decodeImage reports it when a material uses the image).
  Status failure(bool loaded) const;

  // `text` (a tinygltf message) with the marker paths turned back into the uris they stand for.
  static std::string withoutMarker(std::string text);

 private:
  struct Known {
    std::string raw;           // as written in the JSON
    std::string tiny_decoded;  // as tinygltf decodes it before asking for the file
    std::string what;          // "buffer 2" or "image 0"
    bool image = false;
  };

  static bool fileExists(const std::string& path, void* user);
  static std::string expandFilePath(const std::string& path, void* user);
  static bool readWholeFile(std::vector<unsigned char>* out, std::string* err,
                            const std::string& path, void* user);
  static bool writeWholeFile(std::string* err, const std::string& path,
                             const std::vector<unsigned char>& contents, void* user);

  bool read(const std::string& tiny_decoded, std::vector<unsigned char>& out, std::string& err);

  std::string source_;
  UriRules rules_;
  std::vector<Known> known_;
  // tinygltf-decoded uri -> its first entry in known_ (a file may list many uris: no linear scan).
  std::unordered_map<std::string, size_t> by_decoded_;
  Status refused_;                                        // a uri that broke the rules
  Status unreadable_;                                     // a file that could not be read
  std::unordered_map<std::string, uint64_t> read_sizes_;  // canonical path -> bytes
  uint64_t distinct_bytes_ = 0;                           // sum of read_sizes_
  uint64_t loaded_bytes_ = 0;                             // every read, repeats included
};

}  // namespace throng::gltf
