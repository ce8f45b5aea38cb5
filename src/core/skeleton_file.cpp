// Skeleton file (.skel) writer and validating reader; the format is documented in docs/formats.md.
#include "throng/core/skeleton_file.h"

#include <algorithm>
#include <cassert>
#include <charconv>
#include <cmath>
#include <initializer_list>
#include <unordered_map>
#include <vector>

#include <fmt/format.h>

#include "core/number_text.h"
#include "throng/core/excerpt.h"
#include "throng/core/file_io.h"

namespace throng {
namespace {

// The matrix line is informative (the reader rebuilds the joint from its TRS lines); a
// hand-edited file may round it, so it only has to agree with toMatrix(TRS) to this relative
// tolerance, far below anything visible and far above float rounding.
constexpr float kMatrixAgreement = 1e-5f;

// ---------------------------------------------------------------------------------------------
// Writing

void appendQuoted(std::string& out, std::string_view name) {
  out.push_back('"');
  for (const char c : name) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (byte < 0x20 || byte == 0x7f) {
      out += fmt::format("\\x{:02x}", byte);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

// Row-major: the first four numbers are the matrix's first row (m[0][0] m[1][0] m[2][0] m[3][0]).
// "keyword v0 v1 ...\n".
void appendLine(std::string& out, std::string_view keyword, std::initializer_list<float> values) {
  out += keyword;
  for (const float v : values) {
    out.push_back(' ');
    appendFloat(out, v);
  }
  out.push_back('\n');
}

// The matrix row by row, as the format writes it.
void appendMatrix(std::string& out, std::string_view keyword, const glm::mat4& m) {
  appendLine(out, keyword,
             {m[0][0], m[1][0], m[2][0], m[3][0], m[0][1], m[1][1], m[2][1], m[3][1], m[0][2],
              m[1][2], m[2][2], m[3][2], m[0][3], m[1][3], m[2][3], m[3][3]});
}

// ---------------------------------------------------------------------------------------------
// Reading

struct Line {
  int number = 0;                   // 1-based line number in the file
  std::vector<std::string> tokens;  // quoted tokens are stored unescaped, with quoted[i] set
  std::vector<bool> quoted;
};

struct ParsedJoint {
  std::string name;
  bool has_parent = false;
  std::string parent;
  std::vector<std::string> children;
  Transform rest;
  glm::mat4 matrix{1.0f};
  glm::mat4 inverse_bind{1.0f};
  int joint_line = 0;
  int parent_line = 0;
  int children_line = 0;
  int matrix_line = 0;
  int inverse_bind_line = 0;
};

class Parser {
 public:
  Parser(std::string_view text, std::string_view source) : text_(text), source_(source) {}

  Result<Skeleton> run();

 private:
  Status error(ErrorCode code, int line, std::string_view message) const {
    return Status(code, fmt::format("{}:{}: {}", source_, line, message));
  }
  // Splits the next meaningful line (not blank, not a comment) into tokens; false at the end.
  bool nextLine(Line& line, Status& status);
  Status expectLine(Line& line, std::string_view keyword, std::string_view what);
  Status parseName(const Line& line, size_t index, std::string& name) const;
  Status parseInt(const Line& line, size_t index, int& value) const;
  Status parseFloats(const Line& line, float* values, int count) const;
  Status parseJoint(ParsedJoint& joint, int declared, int count_line);
  Status checkHierarchy(std::vector<int>& order) const;

  std::string_view text_;
  std::string_view source_;
  size_t pos_ = 0;
  int line_number_ = 0;
  std::vector<ParsedJoint> joints_;
};

bool Parser::nextLine(Line& line, Status& status) {
  while (pos_ < text_.size()) {
    size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view raw = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++line_number_;
    if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);

    line.number = line_number_;
    line.tokens.clear();
    line.quoted.clear();
    size_t i = 0;
    while (true) {
      while (i < raw.size() && (raw[i] == ' ' || raw[i] == '\t')) ++i;
      if (i >= raw.size()) break;
      if (line.tokens.empty() && raw[i] == '#') break;  // a comment line
      std::string token;
      if (raw[i] == '"') {
        ++i;
        bool closed = false;
        while (i < raw.size()) {
          const char c = raw[i++];
          if (c == '"') {
            closed = true;
            break;
          }
          if (c != '\\') {
            token.push_back(c);
            continue;
          }
          if (i >= raw.size()) break;
          const char e = raw[i++];
          if (e == '"' || e == '\\') {
            token.push_back(e);
          } else if (e == 'x' && i + 2 <= raw.size()) {
            unsigned value = 0;
            const auto r = std::from_chars(raw.data() + i, raw.data() + i + 2, value, 16);
            if (r.ec != std::errc() || r.ptr != raw.data() + i + 2) {
              status = error(ErrorCode::kParseError, line.number,
                             "bad escape in quoted name: \\x needs two hex digits");
              return false;
            }
            token.push_back(static_cast<char>(value));
            i += 2;
          } else {
            status =
                error(ErrorCode::kParseError, line.number,
                      fmt::format("bad escape '\\{}' in quoted name (use \\\\, \\\" or \\xHH)", e));
            return false;
          }
        }
        if (!closed) {
          status = error(ErrorCode::kParseError, line.number, "unterminated quoted name");
          return false;
        }
        if (i < raw.size() && raw[i] != ' ' && raw[i] != '\t') {
          status = error(ErrorCode::kParseError, line.number,
                         "a quoted name must be followed by a space or the end of the line");
          return false;
        }
        line.tokens.push_back(std::move(token));
        line.quoted.push_back(true);
      } else {
        const size_t start = i;
        while (i < raw.size() && raw[i] != ' ' && raw[i] != '\t') ++i;
        line.tokens.emplace_back(raw.substr(start, i - start));
        line.quoted.push_back(false);
      }
    }
    if (!line.tokens.empty()) return true;
  }
  return false;
}

Status Parser::expectLine(Line& line, std::string_view keyword, std::string_view what) {
  Status status;
  if (!nextLine(line, status)) {
    if (!status.ok()) return status;
    return error(ErrorCode::kParseError, line_number_,
                 fmt::format("unexpected end of file: expected '{}' ({}); the file is truncated",
                             keyword, what));
  }
  if (line.quoted[0] || line.tokens[0] != keyword) {
    return error(
        ErrorCode::kParseError, line.number,
        fmt::format("expected '{}' ({}), found '{}'", keyword, what, excerpt(line.tokens[0])));
  }
  return {};
}

Status Parser::parseName(const Line& line, size_t index, std::string& name) const {
  if (index >= line.tokens.size()) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("missing name after '{}'", excerpt(line.tokens[0])));
  }
  if (!line.quoted[index]) {
    return error(
        ErrorCode::kParseError, line.number,
        fmt::format("names are written in double quotes, found '{}'", excerpt(line.tokens[index])));
  }
  name = line.tokens[index];
  if (name.empty()) return error(ErrorCode::kInvalidData, line.number, "empty joint name");
  return {};
}

Status Parser::parseInt(const Line& line, size_t index, int& value) const {
  if (index >= line.tokens.size()) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("missing count after '{}'", excerpt(line.tokens[0])));
  }
  const std::string& token = line.tokens[index];
  const auto r = std::from_chars(token.data(), token.data() + token.size(), value);
  if (line.quoted[index] || r.ec != std::errc() || r.ptr != token.data() + token.size() ||
      value < 0) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("'{}' is not a non-negative integer", excerpt(token)));
  }
  return {};
}

Status Parser::parseFloats(const Line& line, float* values, int count) const {
  const int found = static_cast<int>(line.tokens.size()) - 1;
  if (found != count) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("expected {} numbers after '{}', found {}", count,
                             excerpt(line.tokens[0]), found));
  }
  for (int i = 0; i < count; ++i) {
    const std::string& token = line.tokens[i + 1];
    const std::errc parsed = parseFloat(token, values[i]);
    if (parsed == std::errc::result_out_of_range) {
      return error(ErrorCode::kInvalidData, line.number,
                   fmt::format("number {} after '{}' ('{}') is out of the float range", i + 1,
                               excerpt(line.tokens[0]), excerpt(token)));
    }
    if (line.quoted[i + 1] || parsed != std::errc()) {
      return error(ErrorCode::kParseError, line.number,
                   fmt::format("number {} after '{}' ('{}') is not a number", i + 1,
                               excerpt(line.tokens[0]), excerpt(token)));
    }
    if (!std::isfinite(values[i])) {
      return error(ErrorCode::kInvalidData, line.number,
                   fmt::format("number {} after '{}' is not finite ('{}')", i + 1,
                               excerpt(line.tokens[0]), excerpt(token)));
    }
  }
  return {};
}

glm::mat4 rowMajorToMat4(const float* v) {
  glm::mat4 m;
  for (int r = 0; r < 4; ++r) {
    for (int c = 0; c < 4; ++c) m[c][r] = v[r * 4 + c];
  }
  return m;
}

Status Parser::parseJoint(ParsedJoint& joint, int declared, int count_line) {
  Line line;
  if (Status s = expectLine(line, "joint", "the next joint"); !s.ok()) {
    if (line.number == line_number_ && !line.tokens.empty() && !line.quoted[0] &&
        line.tokens[0] == "end") {
      return error(ErrorCode::kInvalidData, line.number,
                   fmt::format("'end' after fewer joints than the {} declared on line {}", declared,
                               count_line));
    }
    return s;
  }
  joint.joint_line = line.number;
  if (Status s = parseName(line, 1, joint.name); !s.ok()) return s;
  if (line.tokens.size() != 2) {
    return error(ErrorCode::kParseError, line.number, "'joint' takes exactly one quoted name");
  }
  const std::string what = fmt::format("of joint \"{}\"", joint.name);

  if (Status s = expectLine(line, "parent", "the parent " + what); !s.ok()) return s;
  joint.parent_line = line.number;
  if (line.tokens.size() != 2) {
    return error(ErrorCode::kParseError, line.number,
                 "'parent' takes one quoted name, or - for a root joint");
  }
  if (!line.quoted[1] && line.tokens[1] == "-") {
    joint.has_parent = false;
  } else {
    joint.has_parent = true;
    if (Status s = parseName(line, 1, joint.parent); !s.ok()) return s;
  }

  if (Status s = expectLine(line, "children", "the children " + what); !s.ok()) return s;
  joint.children_line = line.number;
  int child_count = 0;
  if (Status s = parseInt(line, 1, child_count); !s.ok()) return s;
  const int listed = static_cast<int>(line.tokens.size()) - 2;
  if (listed != child_count) {
    return error(ErrorCode::kInvalidData, line.number,
                 fmt::format("joint \"{}\" declares {} children but lists {}", joint.name,
                             child_count, listed));
  }
  for (int i = 0; i < child_count; ++i) {
    std::string child;
    if (Status s = parseName(line, 2 + i, child); !s.ok()) return s;
    joint.children.push_back(std::move(child));
  }

  float v[16];
  if (Status s = expectLine(line, "translation", "the translation " + what); !s.ok()) return s;
  if (Status s = parseFloats(line, v, 3); !s.ok()) return s;
  joint.rest.translation = glm::vec3(v[0], v[1], v[2]);

  if (Status s = expectLine(line, "rotation", "the rotation " + what); !s.ok()) return s;
  if (Status s = parseFloats(line, v, 4); !s.ok()) return s;
  joint.rest.rotation = glm::quat(v[3], v[0], v[1], v[2]);  // file order x y z w
  const float length = glm::length(joint.rest.rotation);
  if (!(length > 0.5f && length < 2.0f)) {
    return error(ErrorCode::kInvalidData, line.number,
                 fmt::format("rotation of joint \"{}\" is not a unit quaternion (length {})",
                             joint.name, length));
  }

  if (Status s = expectLine(line, "scale", "the scale " + what); !s.ok()) return s;
  if (Status s = parseFloats(line, v, 3); !s.ok()) return s;
  joint.rest.scale = glm::vec3(v[0], v[1], v[2]);

  if (Status s = expectLine(line, "matrix", "the relative matrix " + what); !s.ok()) return s;
  joint.matrix_line = line.number;
  if (Status s = parseFloats(line, v, 16); !s.ok()) return s;
  joint.matrix = rowMajorToMat4(v);
  const glm::mat4 from_trs = toMatrix(joint.rest);
  float largest = 1.0f;
  for (int c = 0; c < 4; ++c) {
    for (int r = 0; r < 4; ++r) largest = std::max(largest, std::abs(from_trs[c][r]));
  }
  const float difference = maxAbsDifference(joint.matrix, from_trs);
  if (difference > kMatrixAgreement * largest) {
    return error(ErrorCode::kInvalidData, line.number,
                 fmt::format("relative matrix of joint \"{}\" disagrees with its translation, "
                             "rotation and scale (largest difference {})",
                             joint.name, difference));
  }

  if (Status s = expectLine(line, "inverse_bind", "the inverse bind matrix " + what); !s.ok()) {
    return s;
  }
  joint.inverse_bind_line = line.number;
  if (Status s = parseFloats(line, v, 16); !s.ok()) return s;
  joint.inverse_bind = rowMajorToMat4(v);
  if (!isInvertible(joint.inverse_bind)) {
    return error(ErrorCode::kInvalidData, line.number,
                 fmt::format("inverse bind matrix of joint \"{}\" is not invertible", joint.name));
  }
  return {};
}

// Checks that parents and child lists describe the same acyclic tree; on success `order` lists
// the joints depth first from the roots (in file order), children in their listed order.
Status Parser::checkHierarchy(std::vector<int>& order) const {
  const int count = static_cast<int>(joints_.size());
  std::unordered_map<std::string_view, int> index;
  for (int i = 0; i < count; ++i) {
    const auto [it, inserted] = index.emplace(joints_[i].name, i);
    if (!inserted) {
      return error(ErrorCode::kInvalidData, joints_[i].joint_line,
                   fmt::format("duplicate joint name \"{}\" (first on line {})", joints_[i].name,
                               joints_[it->second].joint_line));
    }
  }
  std::vector<int> parent(count, -1);
  for (int i = 0; i < count; ++i) {
    const ParsedJoint& joint = joints_[i];
    if (!joint.has_parent) continue;
    const auto it = index.find(joint.parent);
    if (it == index.end()) {
      return error(ErrorCode::kInvalidData, joint.parent_line,
                   fmt::format("parent \"{}\" of joint \"{}\" is not a joint of this file",
                               joint.parent, joint.name));
    }
    parent[i] = it->second;
  }
  for (int i = 0; i < count; ++i) {
    const ParsedJoint& joint = joints_[i];
    std::vector<bool> seen(count, false);
    for (const std::string& child_name : joint.children) {
      const auto it = index.find(child_name);
      if (it == index.end()) {
        return error(ErrorCode::kInvalidData, joint.children_line,
                     fmt::format("child \"{}\" of joint \"{}\" is not a joint of this file",
                                 child_name, joint.name));
      }
      const int child = it->second;
      if (seen[child]) {
        return error(ErrorCode::kInvalidData, joint.children_line,
                     fmt::format("joint \"{}\" lists child \"{}\" twice", joint.name, child_name));
      }
      seen[child] = true;
      if (parent[child] != i) {
        const ParsedJoint& c = joints_[child];
        return error(
            ErrorCode::kInvalidData, joint.children_line,
            fmt::format("joint \"{}\" lists child \"{}\", but the parent of \"{}\" is {} "
                        "(line {})",
                        joint.name, child_name, child_name,
                        c.has_parent ? fmt::format("\"{}\"", c.parent) : "none", c.parent_line));
      }
    }
  }
  // Every joint with a parent must be listed by it. Counts agree with the lists (checked while
  // parsing) and every listed child names its lister as parent, so a missing entry shows here.
  std::vector<int> listed_count(count, 0);
  for (int i = 0; i < count; ++i) {
    if (parent[i] >= 0) ++listed_count[parent[i]];
  }
  for (int i = 0; i < count; ++i) {
    if (listed_count[i] == static_cast<int>(joints_[i].children.size())) continue;
    for (int c = 0; c < count; ++c) {
      if (parent[c] != i) continue;
      bool listed = false;
      for (const std::string& name : joints_[i].children)
        listed = listed || name == joints_[c].name;
      if (!listed) {
        return error(
            ErrorCode::kInvalidData, joints_[i].children_line,
            fmt::format("joint \"{}\" does not list its child \"{}\" (whose parent is "
                        "\"{}\" on line {})",
                        joints_[i].name, joints_[c].name, joints_[i].name, joints_[c].parent_line));
      }
    }
  }
  // Cycles: a parent chain longer than the joint count loops.
  for (int i = 0; i < count; ++i) {
    int steps = 0;
    for (int j = parent[i]; j >= 0; j = parent[j]) {
      if (j == i || ++steps > count) {
        return error(
            ErrorCode::kInvalidData, joints_[i].parent_line,
            fmt::format("joint \"{}\" is its own ancestor (a cycle of parents)", joints_[i].name));
      }
    }
  }
  // Depth-first order from the roots, following the child lists.
  order.clear();
  std::vector<int> stack;
  for (int root = 0; root < count; ++root) {
    if (parent[root] >= 0) continue;
    stack.push_back(root);
    while (!stack.empty()) {
      const int j = stack.back();
      stack.pop_back();
      order.push_back(j);
      const auto& children = joints_[j].children;
      for (auto it = children.rbegin(); it != children.rend(); ++it) stack.push_back(index.at(*it));
    }
  }
  assert(static_cast<int>(order.size()) == count);
  return {};
}

Result<Skeleton> Parser::run() {
  Line line;
  Status status;
  if (!nextLine(line, status)) {
    if (!status.ok()) return status;
    return error(
        ErrorCode::kParseError, std::max(line_number_, 1),
        fmt::format("empty file: expected '{} {}'", kSkeletonFileMagic, kSkeletonFileVersion));
  }
  if (line.quoted[0] || line.tokens[0] != kSkeletonFileMagic) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("not a throng skeleton file: expected '{} {}', found '{}'",
                             kSkeletonFileMagic, kSkeletonFileVersion, excerpt(line.tokens[0])));
  }
  int version = 0;
  if (line.tokens.size() != 2) {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("expected '{} <version>'", kSkeletonFileMagic));
  }
  if (Status s = parseInt(line, 1, version); !s.ok()) return s;
  if (version != kSkeletonFileVersion) {
    return error(ErrorCode::kVersionMismatch, line.number,
                 fmt::format("skeleton file version {} is not supported (this build reads "
                             "version {})",
                             version, kSkeletonFileVersion));
  }

  if (Status s = expectLine(line, "joints", "the joint count"); !s.ok()) return s;
  const int count_line = line.number;
  int joint_count = 0;
  if (Status s = parseInt(line, 1, joint_count); !s.ok()) return s;
  if (line.tokens.size() != 2) {
    return error(ErrorCode::kParseError, line.number, "'joints' takes one count");
  }
  if (joint_count > kMaxJoints) {
    return error(ErrorCode::kLimitExceeded, line.number,
                 fmt::format("{} joints is more than the limit of {}", joint_count, kMaxJoints));
  }

  joints_.resize(joint_count);
  for (ParsedJoint& joint : joints_) {
    if (Status s = parseJoint(joint, joint_count, count_line); !s.ok()) return s;
  }
  if (!nextLine(line, status)) {
    if (!status.ok()) return status;
    return error(ErrorCode::kParseError, line_number_,
                 "unexpected end of file: expected 'end'; the file is truncated");
  }
  if (!line.quoted[0] && line.tokens[0] == "joint") {
    return error(
        ErrorCode::kInvalidData, line.number,
        fmt::format("more joints than the {} declared on line {}", joint_count, count_line));
  }
  if (!line.quoted[0] && line.tokens[0] == "end" && line.tokens.size() != 1) {
    return error(ErrorCode::kParseError, line.number, "'end' takes nothing after it");
  }
  if (line.quoted[0] || line.tokens[0] != "end") {
    return error(ErrorCode::kParseError, line.number,
                 fmt::format("expected 'end', found '{}'", excerpt(line.tokens[0])));
  }
  if (nextLine(line, status)) {
    return error(ErrorCode::kParseError, line.number, "unexpected text after 'end'");
  }
  if (!status.ok()) return status;

  std::vector<int> order;
  if (Status s = checkHierarchy(order); !s.ok()) return s;
  RawSkeleton raw;
  raw.joints.reserve(order.size());
  for (const int i : order) {
    ParsedJoint& joint = joints_[i];
    RawJoint& out = raw.joints.emplace_back();
    out.name = joint.name;
    out.parent = joint.has_parent ? joint.parent : std::string();
    out.rest = joint.rest;
    out.inverse_bind = joint.inverse_bind;
  }
  return buildSkeleton(raw, source_);
}

}  // namespace

std::string formatSkeletonText(const Skeleton& skeleton) {
  std::string out;
  out += fmt::format("{} {}\n", kSkeletonFileMagic, kSkeletonFileVersion);
  out += fmt::format("joints {}\n", skeleton.jointCount());
  const auto names = skeleton.names();
  const auto parents = skeleton.parents();
  const auto rest = skeleton.restPoses();
  const auto inverse_binds = skeleton.inverseBinds();
  for (int j = 0; j < skeleton.jointCount(); ++j) {
    out += "joint ";
    appendQuoted(out, names[j]);
    out += "\nparent ";
    if (parents[j] == kNoParent) {
      out += "-";
    } else {
      appendQuoted(out, names[parents[j]]);
    }
    const std::vector<int> children = skeleton.children(j);
    out += fmt::format("\nchildren {}", children.size());
    for (const int c : children) {
      out.push_back(' ');
      appendQuoted(out, names[c]);
    }
    const Transform& t = rest[j];
    out.push_back('\n');
    appendLine(out, "translation", {t.translation.x, t.translation.y, t.translation.z});
    appendLine(out, "rotation", {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w});
    appendLine(out, "scale", {t.scale.x, t.scale.y, t.scale.z});
    appendMatrix(out, "matrix", toMatrix(t));
    appendMatrix(out, "inverse_bind", inverse_binds[j]);
  }
  out += "end\n";
  return out;
}

Status writeSkeletonFile(const Skeleton& skeleton, const std::string& path) {
  return writeFileAtomically(path, formatSkeletonText(skeleton));
}

Result<Skeleton> parseSkeletonText(std::string_view text, std::string_view source_name) {
  return Parser(text, source_name).run();
}

Result<Skeleton> readSkeletonFile(const std::string& path) {
  Result<std::string> text = readFileBytes(path, kMaxSkeletonFileBytes);
  if (!text.ok()) return text.status();
  return parseSkeletonText(*text, path);
}

}  // namespace throng
