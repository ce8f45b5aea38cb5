// docs/errors.md against the code: every message the sources build beside an error code is in the
// catalogue, every error code is listed, and every test the catalogue names exists.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <map>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "support/test_support.h"
#include "throng/core/status.h"

namespace throng {
namespace {

// Fixed pieces shorter than this say too little to look for ("{}: {}", "LOD ").
constexpr size_t kMinPieceBytes = 8;
// A message literal starts this close after its error code (one Status(...) or return statement).
constexpr size_t kMessageWindowBytes = 600;

std::string squeezeSpaces(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n' || c == '\t';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

std::string catalogue() {
  return test::readFile(std::string(THRONG_SOURCE_DIR) + "/docs/errors.md");
}

// The C++ string literals at the start of `code` (adjacent ones joined), unescaped.
std::string leadingLiterals(std::string_view code) {
  std::string text;
  size_t i = 0;
  for (;;) {
    while (i < code.size() && (code[i] == ' ' || code[i] == '\n')) ++i;
    if (i >= code.size() || code[i] != '"') return text;
    for (++i; i < code.size() && code[i] != '"'; ++i) {
      if (code[i] == '\\' && i + 1 < code.size()) {
        ++i;
        text += code[i] == 'n' ? '\n' : code[i];
      } else {
        text += code[i];
      }
    }
    ++i;
  }
}

// The longest fixed piece of a message format: the text between its {} fields, trimmed.
std::string longestPiece(const std::string& format) {
  static const std::regex kSplit(R"(\{[^}]*\}|\n)");
  std::string best;
  for (std::sregex_token_iterator it(format.begin(), format.end(), kSplit, -1), end; it != end;
       ++it) {
    std::string piece = *it;
    const char* trim = " :;,.()'\"";
    piece.erase(0, piece.find_first_not_of(trim));
    piece.erase(piece.find_last_not_of(trim) + 1);
    if (piece.size() > best.size()) best = piece;
  }
  return best.size() >= kMinPieceBytes ? best : std::string();
}

struct Message {
  std::string where;  // file:line
  std::string piece;
};

// Every message literal that follows an ErrorCode::k... in the same statement, in src/ and the
// CLI (messages built by helpers such as a parser's error(...) are documented, not found here).
std::vector<Message> sourceMessages() {
  namespace fs = std::filesystem;
  std::vector<Message> messages;
  const std::string root = THRONG_SOURCE_DIR;
  for (const char* folder : {"/src", "/tools"}) {
    for (const auto& entry : fs::recursive_directory_iterator(root + folder)) {
      if (entry.path().extension() != ".cpp") continue;
      const std::string code = test::readFile(entry.path().string());
      for (size_t at = code.find("ErrorCode::k"); at != std::string::npos;
           at = code.find("ErrorCode::k", at + 1)) {
        // The statement's end: a message's first quote comes before it (a comparison such as
        // `code() != ErrorCode::kLimitExceeded) { status_ = s; }` has none).
        const size_t stop = code.find(';', at);
        const size_t window = std::min({stop, code.size(), at + kMessageWindowBytes});
        const size_t quote = code.find('"', at);
        if (quote == std::string::npos || quote >= window) continue;
        const std::string piece =
            longestPiece(leadingLiterals(std::string_view(code).substr(quote)));
        if (piece.empty()) continue;
        const auto line = std::count(code.begin(), code.begin() + static_cast<long>(at), '\n') + 1;
        messages.push_back(
            {fs::relative(entry.path(), root).string() + ":" + std::to_string(line), piece});
      }
    }
  }
  return messages;
}

TEST(ErrorsDoc, EveryMessageBuiltBesideAnErrorCodeIsInTheCatalogue) {
  const std::string doc = squeezeSpaces(catalogue());
  ASSERT_FALSE(doc.empty());
  const std::vector<Message> messages = sourceMessages();
  // The library has well over a hundred: finding few means the scan is broken, not the code.
  EXPECT_GT(messages.size(), 150u);
  for (const Message& m : messages) {
    EXPECT_NE(doc.find(squeezeSpaces(m.piece)), std::string::npos)
        << m.where << ": the message with '" << m.piece << "' is not in docs/errors.md";
  }
}

TEST(ErrorsDoc, EveryErrorCodeIsListed) {
  const std::string doc = catalogue();
  for (int code = 0; code <= static_cast<int>(ErrorCode::kVersionMismatch); ++code) {
    const std::string row =
        "| " + std::to_string(code) + " | " + errorCodeName(static_cast<ErrorCode>(code)) + " |";
    EXPECT_NE(doc.find(row), std::string::npos) << "docs/errors.md lacks the row '" << row << "'";
  }
}

// Full names of the tests in the other test programs (from --gtest_list_tests) and in this one.
std::set<std::string> allTestNames() {
  std::set<std::string> names;
  const testing::UnitTest& self = *testing::UnitTest::GetInstance();
  for (int i = 0; i < self.total_test_suite_count(); ++i) {
    const testing::TestSuite* suite = self.GetTestSuite(i);
    for (int t = 0; t < suite->total_test_count(); ++t)
      names.insert(std::string(suite->name()) + "." + suite->GetTestInfo(t)->name());
  }
  std::stringstream programs(THRONG_TEST_PROGRAMS);
  for (std::string program; std::getline(programs, program, ',');) {
    const std::string output = test::runShell("'" + program + "' --gtest_list_tests").output;
    std::string suite;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      if (line[0] != ' ') {
        suite = line.substr(0, line.find('.') + 1);
        continue;
      }
      const size_t begin = line.find_first_not_of(' ');
      names.insert(suite + line.substr(begin, line.find_first_of(" #", begin) - begin));
    }
  }
  return names;
}

// `Suite.Name` is a test (also one instance of a parameterised Suite.Name); `Suite/Case` is the
// case Case of the table-driven suite Suite (any instantiation, any test of it).
bool exists(const std::set<std::string>& names, const std::string& ref) {
  const size_t slash = ref.find('/');
  for (const std::string& name : names) {
    if (slash == std::string::npos) {
      if (name == ref || name.ends_with("/" + ref) || name.starts_with(ref + "/") ||
          name.find("/" + ref + "/") != std::string::npos) {
        return true;
      }
    } else {
      const std::string suite = ref.substr(0, slash), test_case = ref.substr(slash + 1);
      if (name.find("/" + suite + ".") != std::string::npos && name.ends_with("/" + test_case))
        return true;
    }
  }
  return false;
}

TEST(ErrorsDoc, EveryTestTheCatalogueNamesExists) {
  const std::set<std::string> names = allTestNames();
  ASSERT_GT(names.size(), 500u) << "the test programs did not list their tests";
  // Inside backquotes: Suite.Name, Suite/Case, or a continuation .Name / /Case of the reference
  // before it on the same line.
  static const std::regex kRef(R"(`([A-Z]\w*[./][A-Z]\w*|[./][A-Z]\w*)`)");
  std::istringstream lines(catalogue());
  int checked = 0;
  for (std::string line; std::getline(lines, line);) {
    std::string stem;  // "Suite." or "Suite/"
    for (std::sregex_iterator it(line.begin(), line.end(), kRef), end; it != end; ++it) {
      std::string ref = (*it)[1];
      if (ref[0] == '.' || ref[0] == '/') {
        if (stem.empty()) {
          ADD_FAILURE() << "docs/errors.md: '" << ref << "' continues no test name: " << line;
          continue;
        }
        ref = stem + ref.substr(1);
      }
      stem = ref.substr(0, ref.find_first_of("./") + 1);
      ++checked;
      EXPECT_TRUE(exists(names, ref))
          << "docs/errors.md names the test '" << ref << "', which does not exist";
    }
  }
  EXPECT_GT(checked, 100);
}

}  // namespace
}  // namespace throng
