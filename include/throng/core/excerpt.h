// Short, printable, one-line quotes of untrusted text for error messages.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace throng {

// A quoted value (a token, a name, a uri) never takes more than about this many bytes of a
// message: enough to recognise it, short enough that a 200 MB value cannot flood a terminal.
inline constexpr size_t kExcerptBytes = 64;

// Whole messages are cut to this size (a safety net for values quoted without excerpt()).
inline constexpr size_t kMaxMessageBytes = 1024;

// `text` on one line: control bytes escaped (\n, \t, \r, \xHH), cut after about `max_bytes`
// bytes (never inside a UTF-8 sequence) with "...(N bytes)" telling the full size.
std::string excerpt(std::string_view text, size_t max_bytes = kExcerptBytes);

}  // namespace throng
