// External uris of a .gltf: the one place that decides which file a buffer or image uri may read.
#include "offline/gltf_uri.h"

#include <algorithm>
#include <cctype>
#include <system_error>

#include <fmt/format.h>

#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"

namespace throng::gltf {
namespace {

namespace fs = std::filesystem;

int hexValue(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// tinygltf 2.7's dlib::urldecode, byte for byte, so that the uri tinygltf asks for can be matched
// with the one written in the JSON: "+" becomes a space and a bad "%" escape becomes a NUL byte.
std::string tinygltfDecode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && s.size() > i + 2) {
      const int hi = std::max(hexValue(s[i + 1]), 0);
      const int lo = std::max(hexValue(s[i + 2]), 0);
      out += static_cast<char>((hi << 4) | lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// RFC 3986: scheme = ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) ":".
bool hasScheme(std::string_view uri) {
  if (uri.empty() || std::isalpha(static_cast<unsigned char>(uri[0])) == 0) return false;
  for (size_t i = 1; i < uri.size(); ++i) {
    const char c = uri[i];
    if (c == ':') return true;
    if (std::isalnum(static_cast<unsigned char>(c)) == 0 && c != '+' && c != '-' && c != '.') {
      return false;
    }
  }
  return false;
}

// Whether `path` is `root` or lies below it (both absolute and normalised).
bool isInside(const fs::path& path, fs::path root) {
  if (!root.has_filename() && root.has_parent_path() && root != root.root_path()) {
    root = root.parent_path();  // "/a/b/" -> "/a/b"
  }
  auto p = path.begin();
  for (auto r = root.begin(); r != root.end(); ++r, ++p) {
    if (r->empty()) continue;  // a trailing separator
    if (p == path.end() || *p != *r) return false;
  }
  return true;
}

fs::path absoluteNormal(const fs::path& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path.empty() ? fs::path(".") : path, ec);
  if (ec) absolute = path;
  return absolute.lexically_normal();
}

Status refuse(const std::string& what) {
  return Status(ErrorCode::kInvalidData, what);
}

}  // namespace

Result<std::string> percentDecode(std::string_view uri) {
  std::string out;
  out.reserve(uri.size());
  for (size_t i = 0; i < uri.size(); ++i) {
    if (uri[i] != '%') {
      out += uri[i];
      continue;
    }
    const bool complete = i + 2 < uri.size();
    const int hi = complete ? hexValue(uri[i + 1]) : -1;
    const int lo = complete ? hexValue(uri[i + 2]) : -1;
    if (hi < 0 || lo < 0) {
      return refuse(
          fmt::format("bad percent escape at character {} (\"%\" needs two hex digits)", i + 1));
    }
    out += static_cast<char>((hi << 4) | lo);
    i += 2;
  }
  return out;
}

Result<fs::path> resolveUri(const UriRules& rules, std::string_view uri) {
  if (uri.empty()) return refuse("is empty");
  if (uri.find('\0') != std::string_view::npos) return refuse("contains a NUL byte");
  if (hasScheme(uri)) {
    return refuse(
        "is not a relative path (it has a scheme); only relative paths and data: uris "
        "are read");
  }
  if (uri.find('\\') != std::string_view::npos) {
    return refuse("contains a backslash (glTF uris separate folders with '/')");
  }
  const bool absolute = uri.front() == '/';
  if (absolute && rules.allowed_roots.empty()) {
    return refuse("is an absolute path; only relative paths are read");
  }
  // An absolute path may only lead into a root the caller named, never just the file's folder.
  const fs::path base = absoluteNormal(rules.base_dir);
  std::vector<fs::path> roots;
  if (!absolute) roots.push_back(base);
  for (const fs::path& root : rules.allowed_roots) roots.push_back(absoluteNormal(root));

  const fs::path joined = (base / fs::path(std::string(uri))).lexically_normal();
  bool inside = false;
  for (const fs::path& root : roots) inside = inside || isInside(joined, root);
  if (!inside) {
    return refuse(absolute ? std::string("is an absolute path outside the allowed roots")
                           : fmt::format("leads outside the glTF file's folder ({}) and the "
                                         "allowed roots",
                                         excerpt(base.string())));
  }
  std::error_code ec;
  const fs::path canonical = fs::canonical(joined, ec);
  if (ec) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: {}", excerpt(joined.string()), ec.message()));
  }
  inside = false;
  for (const fs::path& root : roots) {
    std::error_code root_ec;
    const fs::path real_root = fs::canonical(root, root_ec);
    inside = inside || (!root_ec && isInside(canonical, real_root));
  }
  if (!inside) {
    return refuse(
        fmt::format("goes through a symbolic link to {}, outside the glTF file's folder "
                    "and the allowed roots",
                    excerpt(canonical.string())));
  }
  return canonical;
}

UriLoader::UriLoader(std::string source, UriRules rules, const JsonScan& scan)
    : source_(std::move(source)), rules_(std::move(rules)) {
  auto add = [&](const std::vector<JsonScan::Entry>& entries, bool image, const char* kind) {
    for (size_t i = 0; i < entries.size(); ++i) {
      const JsonScan::Entry& e = entries[i];
      if (!e.has_uri || e.data_uri) continue;
      known_.push_back({e.uri, tinygltfDecode(e.uri), fmt::format("{} {}", kind, i), image});
    }
  };
  add(scan.buffers, false, "buffer");  // buffers first: a uri used by both is read as a buffer
  add(scan.images, true, "image");
  for (size_t i = 0; i < known_.size(); ++i) by_decoded_.emplace(known_[i].tiny_decoded, i);
}

void UriLoader::install(tinygltf::TinyGLTF& loader) {
  loader.SetFsCallbacks({&fileExists, &expandFilePath, &readWholeFile, &writeWholeFile, this});
}

Status UriLoader::failure(bool loaded) const {
  if (!refused_.ok()) return refused_;
  if (!loaded && !unreadable_.ok()) return unreadable_;
  return {};
}

std::string UriLoader::withoutMarker(std::string text) {
  const std::string marker = std::string(kBaseDir) + "/";
  for (size_t at = text.find(marker); at != std::string::npos; at = text.find(marker, at)) {
    text.erase(at, marker.size());
  }
  return text;
}

bool UriLoader::fileExists(const std::string& path, void*) {
  // Only the first place tinygltf tries (its base folder, i.e. the marker) is offered; it never
  // falls back to the working folder, and read() decides about the file itself.
  return path.starts_with(std::string(kBaseDir) + "/");
}

std::string UriLoader::expandFilePath(const std::string& path, void*) {
  return path;  // no "~" or environment expansion
}

bool UriLoader::readWholeFile(std::vector<unsigned char>* out, std::string* err,
                              const std::string& path, void* user) {
  auto* self = static_cast<UriLoader*>(user);
  const std::string marker = std::string(kBaseDir) + "/";
  std::string message;
  const bool ok = path.starts_with(marker) && self->read(path.substr(marker.size()), *out, message);
  if (!ok && err != nullptr) *err = message.empty() ? "refused" : message;
  return ok;
}

bool UriLoader::writeWholeFile(std::string* err, const std::string&,
                               const std::vector<unsigned char>&, void*) {
  if (err != nullptr) *err = "the importer writes no files";
  return false;
}

bool UriLoader::read(const std::string& tiny_decoded, std::vector<unsigned char>& out,
                     std::string& err) {
  const auto found = by_decoded_.find(tiny_decoded);
  const Known* known = found == by_decoded_.end() ? nullptr : &known_[found->second];
  if (known == nullptr) {  // cannot happen for a document tinygltf parsed like the scan did
    err = "uri not found in the document";
    if (refused_.ok()) {
      refused_ = Status(ErrorCode::kInvalidData,
                        fmt::format("{}: uri '{}' is not listed by any buffer or image", source_,
                                    excerpt(tiny_decoded)));
    }
    return false;
  }
  const std::string where =
      fmt::format("{}: {} uri '{}'", source_, known->what, excerpt(known->raw));
  Result<std::string> decoded = percentDecode(known->raw);
  Result<fs::path> path =
      decoded.ok() ? resolveUri(rules_, *decoded) : Result<fs::path>(decoded.status());
  Result<std::string> bytes = path.ok() ? readFileBytes(path->string(), kMaxExternalFileBytes)
                                        : Result<std::string>(path.status());
  if (bytes.ok()) {
    if (read_sizes_.emplace(path->string(), bytes->size()).second) distinct_bytes_ += bytes->size();
    loaded_bytes_ += bytes->size();
    if (loaded_bytes_ > 2 * distinct_bytes_ + kExternalRereadAllowance) {
      err = "the same files are read too often";
      if (refused_.ok()) {
        size_t naming = 0;  // which of them tinygltf is loading is not known: name the uri
        for (const Known& k : known_) naming += k.tiny_decoded == tiny_decoded ? 1 : 0;
        refused_ = Status(
            ErrorCode::kLimitExceeded,
            fmt::format("{}: uri '{}' (named {} times) is read too often: the "
                        "document's uris would load {} bytes from {} bytes of files",
                        source_, excerpt(known->raw), naming, loaded_bytes_, distinct_bytes_));
      }
      return false;
    }
    out.assign(bytes->begin(), bytes->end());
    return true;
  }
  const Status& why = bytes.status();
  err = why.message();
  Status failure(why.code(), fmt::format("{}: {}", where, why.message()));
  if (why.code() == ErrorCode::kInvalidData) {
    if (refused_.ok()) refused_ = failure;
  } else if (!known->image && unreadable_.ok()) {
    unreadable_ = failure;
  }
  return false;
}

}  // namespace throng::gltf
