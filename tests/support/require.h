// THRONG_REQUIRE: the one way a test gives up for a missing input (shared assets, a tool, the
// viewer build, a GL capability). Outside CI it skips with its reason; with the environment
// variable CI set it fails, unless the test is on tests/skips_allowed.txt (one reason per entry).
#pragma once

#include <string>

#include <gtest/gtest.h>

namespace throng::test {

// Whether this run is CI's: the environment variable CI is set to anything but "", "0" or
// "false" (CI services and scripts/fresh-machine-check set CI=true).
bool inCi();
// The reason tests/skips_allowed.txt gives for `test` ("Suite.Name", a parameterised test's full
// name, or a pattern ending in '*'), or "" when it is not listed.
std::string allowedSkipReason(const std::string& test);
// The full name of the running test ("Suite.Name", "Prefix/Suite.Name/Param").
std::string currentTestName();
// Whether a missing input must fail the running test: in CI, and not on the allow-list.
bool missingInputFails();

}  // namespace throng::test

// Gives up on the current test (a void function: a TEST body, SetUp, or a helper called with
// ASSERT_NO_FATAL_FAILURE) when `condition` is false: a failure in CI (see above), a skip that
// says `reason` (a std::string expression) elsewhere.
#define THRONG_REQUIRE(condition, reason)                                               \
  do {                                                                                  \
    if (!(condition)) {                                                                 \
      const std::string throng_require_reason_ = (reason);                              \
      if (::throng::test::missingInputFails()) {                                        \
        GTEST_FAIL() << "missing in CI: " << throng_require_reason_                     \
                     << " (CI fails on a missing input; tests/skips_allowed.txt lists " \
                        "the skips CI allows)";                                         \
      }                                                                                 \
      GTEST_SKIP() << throng_require_reason_;                                           \
    }                                                                                   \
  } while (0)
