// Command scripts: tokenising, parsing, binding to a crowd's clips and agents, writing, playing.
#include "throng/crowd/command_script.h"

#include <charconv>
#include <cmath>
#include <sstream>
#include <type_traits>

#include <fmt/core.h>

#include "core/number_text.h"

namespace throng {
namespace {

constexpr const char* kCommandList =
    "idle, walk-to, run-to, attack, die, play, layer, stop-layer, attachments";

// The lines that call the crowd at once rather than submit a Command.
struct ActionName {
  ScriptAction action;
  const char* name;
};
constexpr ActionName kActionNames[] = {{ScriptAction::kLayer, "layer"},
                                       {ScriptAction::kStopLayer, "stop-layer"},
                                       {ScriptAction::kAttachments, "attachments"}};

const char* actionName(ScriptAction action) {
  for (const ActionName& a : kActionNames) {
    if (a.action == action) return a.name;
  }
  return "?";
}

struct CommandName {
  CommandType type;
  const char* name;
  int arguments;  // beyond the command word (play takes 1 or 2)
};
constexpr CommandName kCommandNames[] = {
    {CommandType::kIdle, "idle", 0},    {CommandType::kWalkTo, "walk-to", 2},
    {CommandType::kRunTo, "run-to", 2}, {CommandType::kAttack, "attack", 0},
    {CommandType::kDie, "die", 0},      {CommandType::kPlay, "play", 1},
};

const char* commandName(CommandType type) {
  for (const CommandName& c : kCommandNames) {
    if (c.type == type) return c.name;
  }
  return "?";
}

struct LineError {
  std::string_view source;
  uint32_t line;
  Status operator()(const std::string& what) const {
    return Status(ErrorCode::kParseError, fmt::format("{}:{}: {}", source, line, what));
  }
};

// Splits a line into words at spaces and tabs; "double quoted" words may hold spaces; '#' outside
// quotes ends the line.
Result<std::vector<std::string_view>> tokenize(std::string_view text, const LineError& error) {
  std::vector<std::string_view> words;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if (c == ' ' || c == '\t' || c == '\r') {
      ++i;
    } else if (c == '#') {
      break;
    } else if (c == '"') {
      const size_t end = text.find('"', i + 1);
      if (end == std::string_view::npos) return error("a quoted name has no closing '\"'");
      words.push_back(text.substr(i + 1, end - i - 1));
      i = end + 1;
    } else {
      size_t end = i;
      while (end < text.size() && text[end] != ' ' && text[end] != '\t' && text[end] != '\r' &&
             text[end] != '#') {
        ++end;
      }
      words.push_back(text.substr(i, end - i));
      i = end;
    }
  }
  return words;
}

template <typename T>
bool parseNumber(std::string_view word, T& out) {
  const char* begin = word.data();
  const char* end = word.data() + word.size();
  if (begin != end && *begin == '+') ++begin;  // from_chars takes no leading '+'
  if constexpr (std::is_same_v<T, float>) {
    return parseFloat(word.substr(begin - word.data()), out) == std::errc();
  } else if constexpr (std::is_same_v<T, double>) {
    return parseDouble(word.substr(begin - word.data()), out) == std::errc();
  } else {
    const auto [at, ec] = std::from_chars(begin, end, out);
    return ec == std::errc() && at == end && begin != end;
  }
}

Result<AgentGroup> parseGroup(std::string_view word, const LineError& error) {
  AgentGroup group;
  if (word == "all") {
    group.all = true;
    return group;
  }
  const size_t dots = word.find("..");
  if (dots == std::string_view::npos) {
    if (!parseNumber(word, group.first)) {
      return error(fmt::format("'{}' is not an agent (an index, a range a..b, or all)", word));
    }
    group.last = group.first;
    return group;
  }
  if (!parseNumber(word.substr(0, dots), group.first) ||
      !parseNumber(word.substr(dots + 2), group.last)) {
    return error(fmt::format("'{}' is not an agent range (a..b with whole numbers)", word));
  }
  if (group.last < group.first) {
    return error(fmt::format("agent range {} runs backwards", word));
  }
  return group;
}

// The arguments of a layer, stop-layer or attachments line (words[3] on) into `command`.
Status parseAction(const std::vector<std::string_view>& words, const LineError& error,
                   ScriptCommand& command) {
  const size_t arguments = words.size() - 3;
  auto fraction = [&](std::string_view word, float& out, const char* what, bool unit) {
    if (!parseNumber(word, out) || !std::isfinite(out) || out < 0.0f || (unit && out > 1.0f)) {
      return error(fmt::format("{}: '{}' is not a {}", actionName(command.action), word, what));
    }
    return Status::okStatus();
  };
  switch (command.action) {
    case ScriptAction::kLayer:
      if (arguments < 2 || arguments > 4) {
        return error("layer takes a clip, a mask, and then a weight (0..1) and a fade (seconds)");
      }
      command.clip = std::string(words[3]);
      command.mask = std::string(words[4]);
      if (arguments >= 3) {
        if (Status s = fraction(words[5], command.weight, "weight (0..1)", true); !s.ok()) return s;
      }
      if (arguments == 4) {
        if (Status s = fraction(words[6], command.fade, "fade (seconds >= 0)", false); !s.ok()) {
          return s;
        }
      }
      return Status::okStatus();
    case ScriptAction::kStopLayer:
      if (arguments > 1) return error("stop-layer takes at most a fade (seconds)");
      if (arguments == 1) return fraction(words[3], command.fade, "fade (seconds >= 0)", false);
      return Status::okStatus();
    case ScriptAction::kAttachments: {
      if (arguments != 1) {
        return error("attachments takes all, none or props by name or index, comma-separated");
      }
      std::string_view list = words[3];
      for (size_t start = 0; start <= list.size();) {
        const size_t comma = std::min(list.find(',', start), list.size());
        const std::string_view name = list.substr(start, comma - start);
        if (name.empty()) return error(fmt::format("attachments: '{}' has an empty name", list));
        command.attachment_names.emplace_back(name);
        start = comma + 1;
      }
      return Status::okStatus();
    }
    case ScriptAction::kCommand:
      break;
  }
  return Status::okStatus();
}

bool needsQuotes(std::string_view word) {
  if (word.empty()) return true;
  for (char c : word) {
    if (c == ' ' || c == '\t' || c == '#' || c == '\r') return true;
  }
  return false;
}

// A name as a line writes it: quoted when it holds spaces or '#'; one holding a double quote
// cannot be quoted and is written as its index.
std::string quotedName(const std::string& name, int index) {
  if (name.find('"') != std::string::npos) return fmt::format("{}", index);
  if (needsQuotes(name)) return fmt::format("\"{}\"", name);
  return name;
}

}  // namespace

Result<std::optional<ScriptCommand>> parseScriptLine(std::string_view text, uint32_t line,
                                                     std::string_view source) {
  const LineError error{source, line};
  if (text.size() > kMaxScriptLineBytes) {
    return error(fmt::format("line of {} bytes, longer than the {} a command line may have",
                             text.size(), kMaxScriptLineBytes));
  }
  Result<std::vector<std::string_view>> tokens = tokenize(text, error);
  if (!tokens.ok()) return tokens.status();
  const std::vector<std::string_view>& words = *tokens;
  if (words.empty()) return std::optional<ScriptCommand>();
  if (words.size() < 3) {
    return error("a command line reads: time agents command [arguments], e.g. '0.5 3 walk-to 4 2'");
  }
  ScriptCommand command;
  command.line = line;
  if (!parseNumber(words[0], command.time) || !std::isfinite(command.time) || command.time < 0.0) {
    return error(fmt::format("'{}' is not a time (seconds, a number >= 0)", words[0]));
  }
  Result<AgentGroup> group = parseGroup(words[1], error);
  if (!group.ok()) return group.status();
  command.agents = *group;
  for (const ActionName& a : kActionNames) {
    if (words[2] == a.name) {
      command.action = a.action;
      if (Status s = parseAction(words, error, command); !s.ok()) return s;
      return std::optional<ScriptCommand>(std::move(command));
    }
  }
  const CommandName* name = nullptr;
  for (const CommandName& c : kCommandNames) {
    if (words[2] == c.name) name = &c;
  }
  if (!name) return error(fmt::format("unknown command '{}' ({})", words[2], kCommandList));
  command.type = name->type;
  const size_t arguments = words.size() - 3;
  switch (command.type) {
    case CommandType::kWalkTo:
    case CommandType::kRunTo:
      if (arguments != 2 || !parseNumber(words[3], command.target.x) ||
          !parseNumber(words[4], command.target.y) || !std::isfinite(command.target.x) ||
          !std::isfinite(command.target.y)) {
        return error(fmt::format("{} takes a target: two numbers, world x and z", name->name));
      }
      break;
    case CommandType::kPlay:
      if (arguments < 1 || arguments > 2) {
        return error("play takes a clip (name or index) and then once or loop");
      }
      command.clip = std::string(words[3]);
      if (arguments == 2) {
        if (words[4] != "once" && words[4] != "loop") {
          return error(fmt::format("play: '{}' is neither once nor loop", words[4]));
        }
        command.loop = words[4] == "loop";
      }
      break;
    default:
      if (arguments != 0) {
        return error(fmt::format("{} takes no arguments, found '{}'", name->name, words[3]));
      }
      break;
  }
  return std::optional<ScriptCommand>(std::move(command));
}

Result<CommandScript> readCommandScript(std::istream& in, std::string_view source) {
  CommandScript script;
  script.source = std::string(source);
  std::string text;
  uint32_t line = 0;
  while (std::getline(in, text)) {
    ++line;
    Result<std::optional<ScriptCommand>> command = parseScriptLine(text, line, source);
    if (!command.ok()) return command.status();
    if (!command->has_value()) continue;
    if (!script.commands.empty() && (*command)->time < script.commands.back().time) {
      return Status(ErrorCode::kParseError,
                    fmt::format("{}:{}: time {} comes before the previous command's {} (times "
                                "must not decrease)",
                                source, line, (*command)->time, script.commands.back().time));
    }
    script.commands.push_back(std::move(**command));
  }
  if (in.bad()) {
    return Status(ErrorCode::kIoError,
                  fmt::format("{}: reading stopped after line {}", source, line));
  }
  return script;
}

Result<CommandScript> parseCommandScript(std::string_view text, std::string_view source) {
  std::istringstream in{std::string(text)};
  return readCommandScript(in, source);
}

namespace {

// Index of the entry named `name` in `list` (anything with a .name), else its decimal index; -1.
template <typename T>
int findNamed(std::span<const T> list, std::string_view name) {
  for (size_t i = 0; i < list.size(); ++i) {
    if (list[i].name == name) return static_cast<int>(i);
  }
  size_t index = 0;
  if (parseNumber(name, index) && index < list.size()) return static_cast<int>(index);
  return -1;
}

template <typename T>
std::string namedList(std::span<const T> list) {
  std::string out;
  for (size_t i = 0; i < list.size(); ++i) {
    out += fmt::format("{}{} {}", i == 0 ? "" : ", ", i, list[i].name);
  }
  return out.empty() ? "none" : out;
}

// The attachments line's mask from its names (all, none, names or indices).
Status bindAttachments(const CommandScript& script, std::span<const Attachment> attachments,
                       ScriptCommand& c) {
  c.attachments = 0;
  for (const std::string& name : c.attachment_names) {
    if (name == "all") {
      c.attachments = kAllAttachments;
      continue;
    }
    if (name == "none") continue;
    const int found = findNamed(attachments, name);
    if (found < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}:{}: no prop '{}' (props: {})", script.source, c.line, name,
                                namedList(attachments)));
    }
    c.attachments |= 1u << found;
  }
  return Status::okStatus();
}

}  // namespace

Status bindCommandScript(CommandScript& script, std::span<const BakedClip> clips,
                         uint32_t agent_count, std::span<const JointMask> masks,
                         std::span<const Attachment> attachments) {
  for (ScriptCommand& c : script.commands) {
    if (!c.agents.all && c.agents.last >= agent_count) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}:{}: agent {} is not in the crowd (agents 0..{})", script.source,
                                c.line, c.agents.last, static_cast<int64_t>(agent_count) - 1));
    }
    if (c.action == ScriptAction::kAttachments) {
      if (Status s = bindAttachments(script, attachments, c); !s.ok()) return s;
      continue;
    }
    if (c.action == ScriptAction::kLayer) {
      const int mask = findNamed(masks, c.mask);
      if (mask < 0) {
        return Status(ErrorCode::kInvalidArgument,
                      fmt::format("{}:{}: no mask '{}' (masks: {}; name them at bake with --mask)",
                                  script.source, c.line, c.mask, namedList(masks)));
      }
      c.mask_index = static_cast<uint8_t>(mask);
    } else if (c.action != ScriptAction::kCommand || c.type != CommandType::kPlay) {
      continue;
    }
    const int found = findClip(clips, c.clip);
    if (found < 0) {
      return Status(ErrorCode::kInvalidArgument,
                    fmt::format("{}:{}: no clip '{}' (clips: {})", script.source, c.line, c.clip,
                                clipList(clips)));
    }
    c.clip_index = static_cast<uint16_t>(found);
  }
  return Status::okStatus();
}

std::string formatScriptCommand(const ScriptCommand& c) {
  std::string agents = c.agents.all ? "all"
                       : c.agents.first == c.agents.last
                           ? fmt::format("{}", c.agents.first)
                           : fmt::format("{}..{}", c.agents.first, c.agents.last);
  // Shortest forms that read back to the same double / float.
  if (c.action != ScriptAction::kCommand) {
    std::string out = fmt::format("{} {} {}", c.time, agents, actionName(c.action));
    if (c.action == ScriptAction::kLayer) {
      out += fmt::format(" {} {} {} {}", quotedName(c.clip, c.clip_index),
                         quotedName(c.mask, c.mask_index), c.weight, c.fade);
    } else if (c.action == ScriptAction::kStopLayer) {
      out += fmt::format(" {}", c.fade);
    } else {
      std::string names;
      for (const std::string& name : c.attachment_names) names += (names.empty() ? "" : ",") + name;
      out += " " + names;
    }
    return out;
  }
  std::string out = fmt::format("{} {} {}", c.time, agents, commandName(c.type));
  if (c.type == CommandType::kWalkTo || c.type == CommandType::kRunTo) {
    out += fmt::format(" {} {}", c.target.x, c.target.y);
  } else if (c.type == CommandType::kPlay) {
    out += " " + quotedName(c.clip, c.clip_index);
    out += c.loop ? " loop" : " once";
  }
  return out;
}

std::string formatCommandScript(const CommandScript& script) {
  std::string out =
      "# throng command script: time (seconds)  agents (index, a..b or all)  command  "
      "[arguments]\n";
  for (const ScriptCommand& c : script.commands) out += formatScriptCommand(c) + "\n";
  return out;
}

size_t submitDueCommands(const CommandScript& script, double now, size_t* next, Crowd& crowd) {
  size_t submitted = 0;
  for (; *next < script.commands.size(); ++*next) {
    const ScriptCommand& c = script.commands[*next];
    if (c.time > now + kScriptTimeEpsilon) break;
    const uint32_t first = c.agents.all ? 0 : c.agents.first;
    const uint32_t last = c.agents.all ? crowd.agentCount() : c.agents.last + 1;  // exclusive
    for (uint32_t a = first; a < last; ++a) {
      switch (c.action) {
        case ScriptAction::kCommand:
          crowd.submit({a, c.type, c.target, c.clip_index, c.loop});
          break;
        case ScriptAction::kLayer:
          crowd.playLayer(a, c.clip_index, c.mask_index, c.weight, c.fade);
          break;
        case ScriptAction::kStopLayer:
          crowd.stopLayer(a, c.fade);
          break;
        case ScriptAction::kAttachments:
          crowd.setAttachments(a, c.attachments);
          break;
      }
      ++submitted;
    }
  }
  return submitted;
}

}  // namespace throng
