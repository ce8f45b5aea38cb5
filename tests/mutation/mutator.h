// Seeded mutations of reader inputs for the mutation tests: byte-level damage and hostile numbers.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "throng/core/status.h"

namespace throng::test {

// Mutations per input: a few hundred, as the issue asks; each is a separate, reproducible case
// (the seed is the input's name and the mutation's number).
inline constexpr int kMutationsPerInput = 200;

// A reader must finish each input within this many seconds: a hang detector for mutated files,
// generous enough for sanitizer builds on a loaded machine (a clean input takes milliseconds).
inline constexpr double kSecondsPerInput = 20.0;

// Deterministic randomness for one input: the same name and index give the same mutation.
std::mt19937_64 mutationRng(const std::string& name, int index);

// Byte-level damage: flips a few bits, truncates, cuts a range out, overwrites a 4-byte word
// with a hostile number (0, 1, 0xFFFFFFFF, 2^31, 10^9, x1000 of its value), swaps two words, or
// duplicates a range. `protect` bytes at the start are left alone (e.g. a header the test keeps).
std::string mutateBytes(std::string bytes, std::mt19937_64& rng, size_t protect = 0);

// Hostile numbers in a glTF document: picks numeric members (counts, offsets, lengths, indices,
// strides, times) and sets them past the end, to huge or negative values, or swaps two of them;
// sometimes deletes a member or an array element instead.
void mutateGltfJson(nlohmann::json& document, std::mt19937_64& rng);

// The outcome every reader owes: `ok`, or an error whose message is one line of bounded size
// starting with `source` (then ':' or ' '). Adds a test failure naming `label` otherwise.
void expectCleanOutcome(bool ok, const Status& status, const std::string& source,
                        const std::string& label);

// Runs `read` and fails the test (naming `label`) when it took more than kSecondsPerInput.
void expectWithinTimeLimit(const std::function<void()>& read, const std::string& label);

}  // namespace throng::test
