// The test tree's rules for giving up: a test skips only through THRONG_REQUIRE
// (tests/support/require.h, a failure in CI), and tests/skips_allowed.txt gives a reason for each
// test CI may skip.
#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include "support/test_support.h"

namespace throng {
namespace {

namespace fs = std::filesystem;

TEST(SkipRules, TestsSkipOnlyThroughThrongRequire) {
  const fs::path tests = fs::path(THRONG_SOURCE_DIR) / "tests";
  const fs::path helper = tests / "support" / "require.h";
  int files = 0;
  for (const auto& entry : fs::recursive_directory_iterator(tests)) {
    const std::string ext = entry.path().extension().string();
    if (ext != ".cpp" && ext != ".h") continue;
    ++files;
    if (entry.path() == helper || entry.path() == fs::path(__FILE__)) continue;
    const std::string code = test::readFile(entry.path());
    EXPECT_EQ(code.find("GTEST_"
                        "SKIP"),
              std::string::npos)
        << entry.path().string() << ": skips without THRONG_REQUIRE (CI would not fail on it)";
  }
  EXPECT_GT(files, 100);
}

// The Python suite is one ctest test, so a pytest skip is invisible to scripts/check-skips.sh:
// only conftest.py's asset() may skip, and it fails instead when CI is set (its in_ci()).
TEST(SkipRules, PythonTestsSkipOnlyWhereCiFails) {
  const fs::path dir = fs::path(THRONG_SOURCE_DIR) / "python" / "tests";
  int files = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".py") continue;
    ++files;
    const std::string code = test::readFile(entry.path());
    const bool skips = code.find("pytest.skip") != std::string::npos ||
                       code.find("importorskip") != std::string::npos ||
                       code.find("skipif") != std::string::npos;
    if (entry.path().filename() == "conftest.py") {
      EXPECT_NE(code.find("if in_ci():\n            pytest.fail("), std::string::npos)
          << entry.path().string() << ": asset() must fail in CI before it skips";
    } else {
      EXPECT_FALSE(skips) << entry.path().string()
                          << ": skips (only conftest.py's asset() may, failing in CI)";
    }
  }
  EXPECT_GT(files, 3);
}

TEST(SkipRules, EveryAllowedSkipSaysWhy) {
  std::istringstream lines(
      test::readFile(fs::path(THRONG_SOURCE_DIR) / "tests" / "skips_allowed.txt"));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t gap = line.find_first_of(" \t");
    ASSERT_NE(gap, std::string::npos) << "an entry without a reason: " << line;
    EXPECT_NE(line.find_first_not_of(" \t", gap), std::string::npos)
        << "an entry without a reason: " << line;
    EXPECT_EQ(test::allowedSkipReason(line.substr(0, gap)).empty(), false) << line;
  }
}

// With CI set a missing input fails; outside CI it skips (the helper's two answers).
TEST(SkipRules, CiDecidesWhetherAMissingInputFails) {
  const char* saved = std::getenv("CI");
  const std::string before = saved ? saved : "";
  setenv("CI", "true", 1);
  EXPECT_TRUE(test::inCi());
  EXPECT_TRUE(test::missingInputFails());  // this test is not on the allow-list
  for (const char* off : {"", "0", "false"}) {
    setenv("CI", off, 1);
    EXPECT_FALSE(test::inCi()) << "CI=" << off;
    EXPECT_FALSE(test::missingInputFails());
  }
  if (saved) {
    setenv("CI", before.c_str(), 1);
  } else {
    unsetenv("CI");
  }
}

}  // namespace
}  // namespace throng
