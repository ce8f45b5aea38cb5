// docs/errors.md against the code: every message the sources build beside an error code is in the
// catalogue, every error code is listed, every test the catalogue names exists, and every message
// of its tables is triggered, whole, by the tests its row names.
#include <algorithm>
#include <cctype>
#include <cstdio>
#include <cstring>
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
// Messages a failing catalogue row shows of those its tests triggered.
constexpr size_t kExamplesShown = 6;

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

// A test program and the full names of its tests (from --gtest_list_tests).
struct Program {
  std::string path;
  std::vector<std::string> tests;
};

std::vector<Program> testPrograms() {
  std::vector<Program> programs;
  std::stringstream paths(std::string(THRONG_TEST_PROGRAMS) + ",/proc/self/exe");
  for (std::string path; std::getline(paths, path, ',');) {
    if (path == "/proc/self/exe") path = std::filesystem::read_symlink(path).string();
    Program program{path, {}};
    const std::string output = test::runShell("'" + path + "' --gtest_list_tests").output;
    std::string suite;
    std::istringstream lines(output);
    for (std::string line; std::getline(lines, line);) {
      if (line.empty()) continue;
      if (line[0] != ' ') {
        suite = line.substr(0, line.find('.') + 1);
        continue;
      }
      const size_t begin = line.find_first_not_of(' ');
      program.tests.push_back(suite + line.substr(begin, line.find_first_of(" #", begin) - begin));
    }
    programs.push_back(std::move(program));
  }
  return programs;
}

// Whether the full test name `name` is the test `ref` of the catalogue: `Suite.Name` (also any
// instance of a parameterised Suite.Name), or `Suite/Case`, the case Case of the table-driven
// suite Suite (any instantiation, any test of it).
bool names(const std::string& name, const std::string& ref) {
  const size_t slash = ref.find('/');
  if (slash == std::string::npos) {
    return name == ref || name.ends_with("/" + ref) || name.starts_with(ref + "/") ||
           name.find("/" + ref + "/") != std::string::npos;
  }
  const std::string suite = ref.substr(0, slash), test_case = ref.substr(slash + 1);
  return name.find("/" + suite + ".") != std::string::npos && name.ends_with("/" + test_case);
}

// The tests named in `text` inside backquotes: Suite.Name, Suite/Case, or a continuation .Name
// / /Case of the reference before it in the same text.
std::vector<std::string> testReferences(const std::string& text, std::string* error) {
  static const std::regex kRef(R"(`([A-Z]\w*[./][A-Z]\w*|[./][A-Z]\w*)`)");
  std::vector<std::string> refs;
  std::string stem;  // "Suite." or "Suite/"
  for (std::sregex_iterator it(text.begin(), text.end(), kRef), end; it != end; ++it) {
    std::string ref = (*it)[1];
    if (ref[0] == '.' || ref[0] == '/') {
      if (stem.empty()) {
        *error = "'" + ref + "' continues no test name";
        continue;
      }
      ref = stem + ref.substr(1);
    }
    stem = ref.substr(0, ref.find_first_of("./") + 1);
    refs.push_back(ref);
  }
  return refs;
}

TEST(ErrorsDoc, EveryTestTheCatalogueNamesExists) {
  std::set<std::string> all;
  for (const Program& program : testPrograms())
    all.insert(program.tests.begin(), program.tests.end());
  ASSERT_GT(all.size(), 500u) << "the test programs did not list their tests";
  std::istringstream lines(catalogue());
  int checked = 0;
  for (std::string line; std::getline(lines, line);) {
    std::string error;
    for (const std::string& ref : testReferences(line, &error)) {
      ++checked;
      EXPECT_TRUE(std::any_of(all.begin(), all.end(),
                              [&](const std::string& name) { return names(name, ref); }))
          << "docs/errors.md names the test '" << ref << "', which does not exist";
    }
    EXPECT_TRUE(error.empty()) << "docs/errors.md: " << error << ": " << line;
  }
  EXPECT_GT(checked, 100);
}

// A row of one of the catalogue's tables that has a message column: the messages it documents
// and the tests that trigger them (or, when it names none, why none can).
struct Row {
  int line = 0;
  std::string text;
  std::vector<std::string> messages;  // backquoted in the message column, outside parentheses
  std::vector<std::string> tests;     // named in the test column (or the message column's cell)
  std::string test_cell;
};

// The cells of a table line, split at '|' outside backquotes.
std::vector<std::string> cells(const std::string& line) {
  std::vector<std::string> out;
  std::string cell;
  bool quoted = false;
  for (size_t i = 1; i < line.size(); ++i) {
    const char c = line[i];
    if (c == '`') quoted = !quoted;
    if (c == '|' && !quoted) {
      const size_t begin = cell.find_first_not_of(' ');
      out.push_back(begin == std::string::npos
                        ? ""
                        : cell.substr(begin, cell.find_last_not_of(' ') + 1 - begin));
      cell.clear();
      continue;
    }
    cell += c;
  }
  return out;
}

// The backquoted spans of `cell` that stand outside parentheses (inside them: notes such as
// "(also `magFilter`)").
std::vector<std::string> messagePatterns(const std::string& cell) {
  std::vector<std::string> out;
  int depth = 0;
  for (size_t i = 0; i < cell.size(); ++i) {
    if (cell[i] == '(') ++depth;
    if (cell[i] == ')') --depth;
    if (cell[i] != '`') continue;
    const size_t end = cell.find('`', i + 1);
    if (end == std::string::npos) break;
    if (depth == 0) out.push_back(cell.substr(i + 1, end - i - 1));
    i = end;
  }
  return out;
}

std::vector<Row> catalogueRows() {
  std::vector<Row> rows;
  std::istringstream lines(catalogue());
  int number = 0, message_column = -1, test_column = -1;
  bool in_table = false;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (!line.starts_with("|")) {
      in_table = false;
      continue;
    }
    const std::vector<std::string> row = cells(line);
    if (!in_table) {  // the header
      in_table = true;
      message_column = test_column = -1;
      for (size_t c = 0; c < row.size(); ++c) {
        if (row[c].starts_with("message") || row[c] == "reason")
          message_column = static_cast<int>(c);
        if (row[c] == "test") test_column = static_cast<int>(c);
      }
      continue;
    }
    if (message_column < 0 || row[0].starts_with("---")) continue;
    Row r;
    r.line = number;
    r.text = line;
    if (message_column < static_cast<int>(row.size()))
      r.messages = messagePatterns(row[static_cast<size_t>(message_column)]);
    if (test_column >= 0 && test_column < static_cast<int>(row.size()))
      r.test_cell = row[static_cast<size_t>(test_column)];
    std::string error;
    // "no test: <why>" may name tests in its reasons: they trigger none of the row's messages.
    if (!r.test_cell.starts_with("no test")) r.tests = testReferences(r.test_cell, &error);
    rows.push_back(std::move(r));
  }
  return rows;
}

// A catalogue message as a regular expression of the whole message: the catalogue's placeholders
// (`N`, `M`, `X`, any single capital letter as a word, `WxH`, `0xNNNN`, `<what>`, `...`) match
// any text; what comes before the message is a file and place ending in ": " (`<file>: `, the
// CLI's `throng: `).
std::regex messageRegex(const std::string& pattern) {
  std::string re = "^(?:.*: )?";
  auto is_word = [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; };
  for (size_t i = 0; i < pattern.size();) {
    const char c = pattern[i];
    const bool starts_word = i == 0 || !is_word(pattern[i - 1]);
    if (pattern.compare(i, 3, "...") == 0) {
      re += ".*";
      i += 3;
    } else if (c == '<' && pattern.find('>', i) != std::string::npos) {
      re += ".+";
      i = pattern.find('>', i) + 1;
    } else if (starts_word && pattern.compare(i, 2, "0x") == 0 && i + 2 < pattern.size() &&
               std::isupper(static_cast<unsigned char>(pattern[i + 2]))) {
      re += "0x[0-9A-Fa-f]+";
      i += 2;
      while (i < pattern.size() && std::isupper(static_cast<unsigned char>(pattern[i]))) ++i;
    } else if (starts_word && std::isupper(static_cast<unsigned char>(c)) &&
               i + 2 < pattern.size() && pattern[i + 1] == 'x' &&
               std::isupper(static_cast<unsigned char>(pattern[i + 2])) &&
               (i + 3 == pattern.size() || !is_word(pattern[i + 3]))) {
      re += "[0-9]+x[0-9]+";  // WxH
      i += 3;
    } else if (starts_word && std::isupper(static_cast<unsigned char>(c)) &&
               (i + 1 == pattern.size() || !is_word(pattern[i + 1]))) {
      re += ".+?";
      ++i;
    } else {
      if (std::strchr(R"(\^$.|?*+()[]{})", c) != nullptr) re += '\\';
      re += c;
      ++i;
    }
  }
  return std::regex(re + "$");
}

// The messages each test triggered: `tests` of `program` run once (their outcome is the other
// ctest cases' business), recorded through THRONG_MESSAGE_LOG (support/message_log.h).
void triggerMessages(const Program& program, const std::set<std::string>& tests,
                     const std::filesystem::path& log,
                     std::map<std::string, std::vector<std::string>>& messages) {
  std::string filter;
  for (const std::string& t : tests) filter += (filter.empty() ? "" : ":") + t;
  std::filesystem::remove(log);
  const test::CliResult run = test::runShell("THRONG_MESSAGE_LOG='" + log.string() + "' '" +
                                             program.path + "' --gtest_filter='" + filter + "'");
  std::istringstream lines(test::readFile(log));
  for (std::string line; std::getline(lines, line);) {
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) messages[line.substr(0, tab)].push_back(line.substr(tab + 1));
  }
  EXPECT_NE(run.output.find("[==========]"), std::string::npos)
      << program.path << " did not run its tests:\n"
      << run.output.substr(0, 2000);
}

// Every row's messages, each matched whole by a message its tests trigger; a row that names no
// test says why none can trigger it ("no test: <why>").
TEST(ErrorsDoc, EveryRowsMessagesAreTriggeredByTheTestsItNames) {
  const std::vector<Row> rows = catalogueRows();
  ASSERT_GT(rows.size(), 150u) << "the catalogue's tables were not found";
  const std::vector<Program> programs = testPrograms();
  // Which program runs each referenced test.
  std::map<std::string, std::set<std::string>> chosen;  // program path -> full test names
  for (const Row& row : rows) {
    for (const std::string& ref : row.tests) {
      for (const Program& program : programs) {
        if (program.path.find("throng_tools_tests") != std::string::npos &&
            ref.starts_with("ErrorsDoc"))
          continue;
        for (const std::string& name : program.tests)
          if (names(name, ref)) chosen[program.path].insert(name);
      }
    }
  }
  const auto dir = test::makeTempDir("errors-doc");
  std::map<std::string, std::vector<std::string>> messages;  // full test name -> messages
  for (const Program& program : programs) {
    if (chosen.count(program.path))
      triggerMessages(program, chosen[program.path], dir / "log", messages);
  }
  int matched = 0;
  for (const Row& row : rows) {
    if (row.tests.empty()) {
      static const std::regex kWhy(R"(^no test: .{12,})");
      EXPECT_TRUE(std::regex_search(row.test_cell, kWhy))
          << "docs/errors.md:" << row.line << ": a row that names no test says why none can "
          << "trigger it ('no test: <why>'): " << row.text;
      continue;
    }
    EXPECT_FALSE(row.messages.empty())
        << "docs/errors.md:" << row.line << ": no message in backquotes: " << row.text;
    std::vector<const std::string*> seen;
    for (const auto& [name, list] : messages) {
      if (std::any_of(row.tests.begin(), row.tests.end(),
                      [&](const std::string& ref) { return names(name, ref); })) {
        for (const std::string& m : list) seen.push_back(&m);
      }
    }
    for (const std::string& pattern : row.messages) {
      const std::regex re = messageRegex(pattern);
      const bool found = std::any_of(
          seen.begin(), seen.end(), [&](const std::string* m) { return std::regex_match(*m, re); });
      matched += found;
      if (found) continue;
      std::string examples;
      for (size_t i = 0; i < seen.size() && i < kExamplesShown; ++i) examples += "\n  " + *seen[i];
      ADD_FAILURE() << "docs/errors.md:" << row.line << ": no test it names (" << row.test_cell
                    << ") triggers `" << pattern << "`; of the " << seen.size()
                    << " messages they trigger:" << examples;
    }
  }
  EXPECT_GT(matched, 200);
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace throng
