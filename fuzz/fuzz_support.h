// Shared pieces of the libFuzzer targets: a private scratch folder and the message checks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>

#include "throng/core/status.h"

namespace throng::fuzz {

// A folder of this process (in /dev/shm when it exists), created on first use and removed at exit.
const std::filesystem::path& scratchDir();

// Writes `bytes` to `path` (the fuzzed file a reader then opens by name).
void writeBytes(const std::filesystem::path& path, std::string_view bytes);

// Traps (a finding) unless `status` is an error whose message is one line of bounded length that
// starts with `source` (then ':' or ' '): the contract of every reader's errors (docs/errors.md).
void checkError(const Status& status, std::string_view source);

// Prints `what` and the status's message to stderr, then traps (a finding): the log then says which
// check failed, not only that a signal arrived.
[[noreturn]] void reportAndTrap(std::string_view what, const Status& status);

}  // namespace throng::fuzz
