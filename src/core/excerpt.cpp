// Short, printable, one-line quotes of untrusted text for error messages.
#include "throng/core/excerpt.h"

#include <algorithm>

#include <fmt/format.h>

namespace throng {

std::string excerpt(std::string_view text, size_t max_bytes) {
  std::string out;
  out.reserve(std::min(text.size(), max_bytes) + 16);
  size_t i = 0;
  for (; i < text.size() && out.size() < max_bytes; ++i) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte == '\n') {
      out += "\\n";
    } else if (byte == '\r') {
      out += "\\r";
    } else if (byte == '\t') {
      out += "\\t";
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out.push_back(static_cast<char>(byte));
    }
  }
  if (i == text.size()) return out;
  // Cut before a whole UTF-8 sequence so the excerpt stays valid UTF-8 where the text was
  // (bytes >= 0x80 are copied as they are, so the tail of `out` mirrors the text).
  if ((static_cast<unsigned char>(text[i]) & 0xC0) == 0x80) {
    while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
    if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0) out.pop_back();
  }
  return out + fmt::format("...({} bytes)", text.size());
}

}  // namespace throng
