// THRONG_REQUIRE's decisions: whether the run is CI's and which skips CI allows.
#include "support/require.h"

#include <cstdlib>
#include <fstream>
#include <string_view>

namespace throng::test {

bool inCi() {
  const char* ci = std::getenv("CI");
  if (ci == nullptr) return false;
  const std::string_view value(ci);
  return !value.empty() && value != "0" && value != "false";
}

std::string allowedSkipReason(const std::string& test) {
  // Lines: a test name or a pattern ending in '*', white space, the reason; '#' starts a comment.
  std::ifstream list(std::string(THRONG_SOURCE_DIR) + "/tests/skips_allowed.txt");
  for (std::string line; std::getline(list, line);) {
    if (line.empty() || line[0] == '#') continue;
    const size_t gap = line.find_first_of(" \t");
    if (gap == std::string::npos) continue;  // no reason: not an entry (check-skips.sh says so)
    const std::string name = line.substr(0, gap);
    const bool pattern = name.ends_with('*');
    const bool match = pattern ? test.starts_with(name.substr(0, name.size() - 1)) : test == name;
    const size_t reason = line.find_first_not_of(" \t", gap);
    if (match && reason != std::string::npos) return line.substr(reason);
  }
  return "";
}

std::string currentTestName() {
  const testing::TestInfo* info = testing::UnitTest::GetInstance()->current_test_info();
  if (info == nullptr) return "";
  return std::string(info->test_suite_name()) + "." + info->name();
}

bool missingInputFails() {
  return inCi() && allowedSkipReason(currentTestName()).empty();
}

}  // namespace throng::test
