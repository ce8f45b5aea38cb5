// How the CLI shows warnings: one line per kind and file on stderr (every one with -v, none with
// -q), or as data inside a command's --json object.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "throng/core/warning.h"

namespace throng::cli {

// -q: no warnings (errors still print); default: grouped; -v: every warning's message.
enum class Verbosity : uint8_t { kQuiet, kNormal, kVerbose };
void setVerbosity(Verbosity verbosity);
Verbosity verbosity();

// A line that groups warnings shows this many of their subjects, then "...".
inline constexpr size_t kGroupExamples = 3;

// The lines printWarnings prints at `verbosity` (without "throng: warning: "): warnings of one
// kind about one file (their "file" detail, else `source`) make one line, in the order their
// first one came, "<file>: <count> <kind summary>: <subject>, <subject>, <subject>, ...
// (-v lists all)"; a kind that occurs once keeps its message. kVerbose: every message;
// kQuiet: none.
std::vector<std::string> warningLines(std::span<const Warning> warnings, const std::string& source,
                                      Verbosity verbosity);
// Prints warningLines(warnings, source, verbosity()) to stderr, each after "throng: warning: ".
void printWarnings(std::span<const Warning> warnings, const std::string& source);

// The warnings as data, one object each: {"kind", "message", "subject", "details": {key:
// value}}, in order.
nlohmann::ordered_json warningsJson(std::span<const Warning> warnings);

}  // namespace throng::cli
