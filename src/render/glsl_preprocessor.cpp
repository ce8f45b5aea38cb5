// The GLSL preprocessor and tokens of render/glsl_preprocessor.h.
#include "render/glsl_preprocessor.h"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace throng::render {
namespace {

bool identifierChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

// #if's expression by recursive descent over its tokens (|| && comparisons + - unary, parentheses).
long parseAnd(const std::vector<std::string>& t, size_t& at);
long parseCompare(const std::vector<std::string>& t, size_t& at);
long parseSum(const std::vector<std::string>& t, size_t& at);
long parseUnary(const std::vector<std::string>& t, size_t& at);

long parseOr(const std::vector<std::string>& t, size_t& at) {
  long v = parseAnd(t, at);
  while (at < t.size() && t[at] == "||") v = (parseAnd(t, ++at) != 0) || v;
  return v;
}
long parseAnd(const std::vector<std::string>& t, size_t& at) {
  long v = parseCompare(t, at);
  while (at < t.size() && t[at] == "&&") v = (parseCompare(t, ++at) != 0) && v;
  return v;
}
long parseCompare(const std::vector<std::string>& t, size_t& at) {
  long v = parseSum(t, at);
  while (at < t.size()) {
    const std::string op = t[at];
    if (op != "==" && op != "!=" && op != "<" && op != ">" && op != "<=" && op != ">=") break;
    const long r = parseSum(t, ++at);
    v = op == "=="   ? v == r
        : op == "!=" ? v != r
        : op == "<"  ? v < r
        : op == ">"  ? v > r
        : op == "<=" ? v <= r
                     : v >= r;
  }
  return v;
}
long parseSum(const std::vector<std::string>& t, size_t& at) {
  long v = parseUnary(t, at);
  while (at < t.size() && (t[at] == "+" || t[at] == "-")) {
    const bool plus = t[at] == "+";
    const long r = parseUnary(t, ++at);
    v = plus ? v + r : v - r;
  }
  return v;
}
long parseUnary(const std::vector<std::string>& t, size_t& at) {
  if (at >= t.size()) return 0;
  if (t[at] == "!") return !parseUnary(t, ++at);
  if (t[at] == "-") return -parseUnary(t, ++at);
  if (t[at] == "(") {
    const long v = parseOr(t, ++at);
    ++at;  // ")"
    return v;
  }
  return std::strtol(t[at++].c_str(), nullptr, 10);
}

}  // namespace

std::string glslWithoutComments(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s.compare(i, 2, "//") == 0) {
      while (i < s.size() && s[i] != '\n') ++i;
      out += '\n';
    } else if (s.compare(i, 2, "/*") == 0) {
      const size_t end = s.find("*/", i + 2);
      for (size_t k = i; k < std::min(end, s.size()); ++k) out += s[k] == '\n' ? "\n" : "";
      out += ' ';
      i = end == std::string_view::npos ? s.size() : end + 1;
    } else {
      out += s[i];
    }
  }
  return out;
}

std::vector<std::string> glslTokens(std::string_view s) {
  std::vector<std::string> out;
  for (size_t i = 0; i < s.size();) {
    const char c = s[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (identifierChar(c)) {
      size_t j = i;
      while (j < s.size() && (identifierChar(s[j]) || s[j] == '.')) ++j;
      out.emplace_back(s.substr(i, j - i));
      i = j;
    } else {
      // Two-character operators the #if expressions use.
      static const char* const kPairs[] = {"&&", "||", "==", "!=", "<=", ">="};
      bool pair = false;
      for (const char* p : kPairs) {
        if (s.compare(i, 2, p) == 0) {
          out.emplace_back(p);
          i += 2;
          pair = true;
          break;
        }
      }
      if (!pair) out.emplace_back(1, s[i++]);
    }
  }
  return out;
}

GlslPreprocessor::GlslPreprocessor(std::map<std::string, std::string> predefined)
    : macros_(std::move(predefined)) {}

std::string GlslPreprocessor::run(std::string_view source) {
  const std::string text = glslWithoutComments(source);
  struct Level {
    bool active, taken, parent;
  };
  std::vector<Level> stack;
  std::string out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string_view line(text.data() + start, end - start);
    start = end + 1;
    const bool active = stack.empty() || stack.back().active;
    const size_t first = line.find_first_not_of(" \t");
    if (first == std::string_view::npos) continue;
    if (line[first] != '#') {
      if (active) out += expand(line) + "\n";
      continue;
    }
    std::string_view rest = line.substr(first + 1);
    rest.remove_prefix(std::min(rest.find_first_not_of(" \t"), rest.size()));
    size_t word_end = 0;
    while (word_end < rest.size() && identifierChar(rest[word_end])) ++word_end;
    const std::string word(rest.substr(0, word_end));
    rest.remove_prefix(word_end);
    const std::vector<std::string> args = glslTokens(rest);
    if (word == "ifdef" || word == "ifndef") {
      const bool defined = !args.empty() && macros_.count(args[0]);
      const bool on = active && (word == "ifdef" ? defined : !defined);
      stack.push_back({on, on, active});
    } else if (word == "if") {
      const bool on = active && evaluate(args);
      stack.push_back({on, on, active});
    } else if (word == "elif") {
      Level& l = stack.back();
      l.active = l.parent && !l.taken && evaluate(args);
      l.taken = l.taken || l.active;
    } else if (word == "else") {
      Level& l = stack.back();
      l.active = l.parent && !l.taken;
      l.taken = true;
    } else if (word == "endif") {
      stack.pop_back();
    } else if (!active) {
      continue;
    } else if (word == "define" && !args.empty()) {
      // Function-like macros (NAME immediately followed by '(') are only recorded as defined.
      const size_t name_at = rest.find(args[0]);
      std::string_view body = rest.substr(name_at + args[0].size());
      if (!body.empty() && body.front() == '(') {
        macros_[args[0]] = "";
        function_like_.insert(args[0]);
      } else {
        body.remove_prefix(std::min(body.find_first_not_of(" \t"), body.size()));
        macros_[args[0]] = std::string(body);
      }
    } else if (word == "undef" && !args.empty()) {
      macros_.erase(args[0]);
    }
  }
  return out;
}

std::string GlslPreprocessor::expand(std::string_view line, int depth) const {
  std::string out;
  for (size_t i = 0; i < line.size();) {
    if (identifierChar(line[i]) && !std::isdigit(static_cast<unsigned char>(line[i]))) {
      size_t j = i;
      while (j < line.size() && identifierChar(line[j])) ++j;
      const std::string name(line.substr(i, j - i));
      const auto it = macros_.find(name);
      if (it != macros_.end() && !function_like_.count(name) && depth < 16) {
        out += expand(it->second, depth + 1);
      } else {
        out += name;
      }
      i = j;
    } else {
      out += line[i++];
    }
  }
  return out;
}

bool GlslPreprocessor::evaluate(const std::vector<std::string>& raw) const {
  std::vector<std::string> t;
  for (size_t i = 0; i < raw.size(); ++i) {
    if (raw[i] == "defined") {
      const bool paren = i + 1 < raw.size() && raw[i + 1] == "(";
      const std::string& name = raw[i + (paren ? 2 : 1)];
      t.push_back(macros_.count(name) ? "1" : "0");
      i += paren ? 3 : 1;
    } else if (identifierChar(raw[i][0]) && !std::isdigit(static_cast<unsigned char>(raw[i][0]))) {
      for (const std::string& e : glslTokens(expand(raw[i]))) {
        t.push_back(identifierChar(e[0]) && !std::isdigit(static_cast<unsigned char>(e[0])) ? "0"
                                                                                            : e);
      }
    } else {
      t.push_back(raw[i]);
    }
  }
  size_t at = 0;
  return parseOr(t, at) != 0;
}

std::vector<GlslDeclaration> globalDeclarations(std::string_view text, std::string_view qualifier) {
  // Qualifiers and precisions before a declaration's type.
  static const char* const kSkip[] = {"highp",  "mediump",   "lowp",     "flat",
                                      "smooth", "invariant", "centroid", "const"};
  const auto skipped = [&](const std::string& token) {
    return token == qualifier || std::any_of(std::begin(kSkip), std::end(kSkip),
                                             [&](const char* s) { return token == s; });
  };
  std::vector<GlslDeclaration> out;
  int depth = 0;
  std::vector<std::string> statement;
  for (const std::string& token : glslTokens(text)) {
    if (token == "{") ++depth;
    if (token == "}") --depth;
    if (depth != 0 || token == "}") {
      statement.clear();
      continue;
    }
    if (token != ";") {
      statement.push_back(token);
      continue;
    }
    if (std::find(statement.begin(), statement.end(), qualifier) != statement.end()) {
      size_t i = 0;
      while (i < statement.size() && skipped(statement[i])) ++i;
      const std::string type = i < statement.size() ? statement[i] : "?";
      for (++i; i < statement.size(); ++i) {
        if (statement[i] == ",") continue;
        int count = 1;
        const bool array = i + 1 < statement.size() && statement[i + 1] == "[";
        if (array) count = i + 2 < statement.size() ? std::atoi(statement[i + 2].c_str()) : 0;
        out.push_back({type, statement[i], count});
        if (array) i += 3;
      }
    }
    statement.clear();
  }
  return out;
}

}  // namespace throng::render
