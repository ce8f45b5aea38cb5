// A streaming pre-check of a glTF document's JSON before tinygltf parses it.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace throng::gltf {

// JSON nested deeper than this is refused before tinygltf sees it: tinygltf copies `extras` and
// `extensions` recursively, so deep nesting would exhaust the stack; real glTF files nest about 6
// levels (extras rarely more than a few more).
inline constexpr int kMaxJsonDepth = 64;

// What loading needs to know of `buffers` and `images` before tinygltf loads them.
struct JsonScan {
  struct Entry {
    bool has_uri = false;
    std::string uri;  // as written (percent-encoded); empty for data URIs, which are not stored
    bool data_uri = false;
    bool has_byte_length = false;
    uint64_t byte_length = 0;  // buffers only
  };
  bool valid_json = false;  // false: syntax error (tinygltf reports it) or too deep
  bool too_deep = false;    // nesting beyond kMaxJsonDepth
  std::vector<Entry> buffers;
  std::vector<Entry> images;
};

// Scans `json` in one pass with constant stack depth, keeping only the buffer and image entries.
JsonScan scanJson(std::string_view json);

}  // namespace throng::gltf
