// Warnings on the terminal (grouped by kind and file) and as JSON data.
#include "warning_output.h"

#include <cstdio>
#include <utility>
#include <variant>
#include <vector>

#include <fmt/core.h>

namespace throng::cli {
namespace {

Verbosity g_verbosity = Verbosity::kNormal;

// The file a warning is about: its "file" detail, else the command's input.
std::string fileOf(const Warning& warning, const std::string& source) {
  if (const WarningValue* file = warning.find("file")) {
    if (const std::string* text = std::get_if<std::string>(file)) return *text;
  }
  return source;
}

}  // namespace

void setVerbosity(Verbosity verbosity) {
  g_verbosity = verbosity;
}

Verbosity verbosity() {
  return g_verbosity;
}

std::vector<std::string> warningLines(std::span<const Warning> warnings, const std::string& source,
                                      Verbosity verbosity) {
  std::vector<std::string> lines;
  if (verbosity == Verbosity::kQuiet) return lines;
  if (verbosity == Verbosity::kVerbose) {
    for (const Warning& w : warnings) lines.push_back(w.message);
    return lines;
  }
  // Groups in the order of their first warning; a handful of kinds, so a linear search.
  struct Group {
    WarningKind kind;
    std::string file;
    std::vector<const Warning*> members;
  };
  std::vector<Group> groups;
  for (const Warning& w : warnings) {
    const std::string file = fileOf(w, source);
    Group* group = nullptr;
    for (Group& g : groups) {
      if (g.kind == w.kind && g.file == file) group = &g;
    }
    if (group == nullptr) group = &groups.emplace_back(Group{w.kind, file, {}});
    group->members.push_back(&w);
  }
  for (const Group& g : groups) {
    if (g.members.size() == 1) {
      lines.push_back(g.members[0]->message);
      continue;
    }
    std::string examples;
    for (size_t i = 0; i < g.members.size() && i < kGroupExamples; ++i) {
      examples += (i == 0 ? "" : ", ") + g.members[i]->subject;
    }
    if (g.members.size() > kGroupExamples) examples += ", ...";
    lines.push_back(fmt::format("{}{} {}: {} (-v lists all)", g.file.empty() ? "" : g.file + ": ",
                                g.members.size(), warningKindSummary(g.kind), examples));
  }
  return lines;
}

void printWarnings(std::span<const Warning> warnings, const std::string& source) {
  for (const std::string& line : warningLines(warnings, source, g_verbosity)) {
    fmt::print(stderr, "throng: warning: {}\n", line);
  }
}

nlohmann::ordered_json warningsJson(std::span<const Warning> warnings) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Warning& w : warnings) {
    nlohmann::ordered_json details = nlohmann::ordered_json::object();
    for (const WarningDetail& d : w.details) {
      std::visit([&](const auto& value) { details[d.key] = value; }, d.value);
    }
    out.push_back({{"kind", warningKindName(w.kind)},
                   {"message", w.message},
                   {"subject", w.subject},
                   {"details", std::move(details)}});
  }
  return out;
}

}  // namespace throng::cli
