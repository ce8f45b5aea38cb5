// Numbers as text: std::from_chars / std::to_chars where the library has them for floats, else
// strtof / strtod and fmt.
#include "core/number_text.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdlib>

#include <fmt/format.h>

namespace throng {
namespace detail {
namespace {

// What from_chars rejects and strto* would take: leading spaces, '+', hexadecimal.
bool fromCharsRejects(std::string_view text) {
  if (text.empty() || text[0] == '+' || text.find_first_of(" \t\n\v\f\r") == 0) return true;
  const std::string_view digits = text[0] == '-' ? text.substr(1) : text;
  return digits.size() >= 2 && digits[0] == '0' && (digits[1] == 'x' || digits[1] == 'X');
}

template <typename T, typename Parse>
std::errc parsePortable(std::string_view text, T& value, Parse parse) {
  if (fromCharsRejects(text)) return std::errc::invalid_argument;
  const std::string terminated(text);  // strto* read up to a NUL
  char* end = nullptr;
  errno = 0;
  const T parsed = parse(terminated.c_str(), &end);
  if (end != terminated.c_str() + terminated.size()) return std::errc::invalid_argument;
  // ERANGE also flags subnormal results, which from_chars returns as values.
  if (errno == ERANGE && (std::isinf(parsed) || parsed == T(0))) {
    return std::errc::result_out_of_range;
  }
  value = parsed;
  return std::errc();
}

}  // namespace

std::errc parseFloatPortable(std::string_view text, float& value) {
  return parsePortable(text, value, [](const char* s, char** end) { return std::strtof(s, end); });
}

std::errc parseDoublePortable(std::string_view text, double& value) {
  return parsePortable(text, value, [](const char* s, char** end) { return std::strtod(s, end); });
}

void appendFloatPortable(std::string& out, float value) {
  fmt::format_to(std::back_inserter(out), "{}", value);
}

}  // namespace detail

#ifdef __cpp_lib_to_chars
namespace {

template <typename T>
std::errc parseStandard(std::string_view text, T& value) {
  T parsed{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), parsed);
  if (end != text.data() + text.size()) return std::errc::invalid_argument;
  if (ec == std::errc()) value = parsed;
  return ec;
}

}  // namespace

std::errc parseFloat(std::string_view text, float& value) {
  return parseStandard(text, value);
}
std::errc parseDouble(std::string_view text, double& value) {
  return parseStandard(text, value);
}

void appendFloat(std::string& out, float value) {
  char buffer[32];  // the longest shortest float ("-1.17549435e-38") takes 15
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), value);
  out.append(buffer, result.ptr);
}
#else
std::errc parseFloat(std::string_view text, float& value) {
  return detail::parseFloatPortable(text, value);
}
std::errc parseDouble(std::string_view text, double& value) {
  return detail::parseDoublePortable(text, value);
}
void appendFloat(std::string& out, float value) {
  detail::appendFloatPortable(out, value);
}
#endif

}  // namespace throng
