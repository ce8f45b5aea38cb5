// Numbers as text, alike on every standard library: strict parsing of floating-point numbers and
// the shortest text that reads back to the same float.
#pragma once

#include <string>
#include <string_view>
#include <system_error>

namespace throng {

// Parses all of `text` as std::from_chars does in its general format: an optional '-', decimal
// digits with an optional fraction and exponent, or inf / infinity / nan; no '+', no spaces, no
// hexadecimal. Returns std::errc() and sets `value`; std::errc::invalid_argument when `text` is
// not entirely such a number; std::errc::result_out_of_range when it overflows the type (or
// underflows to zero). `value` is left alone on error.
std::errc parseFloat(std::string_view text, float& value);
std::errc parseDouble(std::string_view text, double& value);

// Appends the shortest text that parseFloat reads back to `value`, bit for bit (finite values;
// inf and nan are written as such).
void appendFloat(std::string& out, float value);

namespace detail {
// The implementation used where the standard library has no floating-point std::from_chars /
// std::to_chars (__cpp_lib_to_chars undefined: emscripten 3.1.6's libc++, the web build): strtof /
// strtod (the "C" locale's, the only one a browser has) and fmt's shortest round-trip format,
// which may pick other characters than std::to_chars for the same float (240823470 for
// 240823472). Built everywhere so that the tests check it against the standard one.
std::errc parseFloatPortable(std::string_view text, float& value);
std::errc parseDoublePortable(std::string_view text, double& value);
void appendFloatPortable(std::string& out, float value);
}  // namespace detail

}  // namespace throng
