// Command scripts: players' commands as text, one per line, read from a string or a stream and
// played into a Crowd as simulated time passes (format: docs/formats.md, "Command script").
#pragma once

#include <cstdint>
#include <istream>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "throng/core/animation_texture.h"
#include "throng/core/attachment.h"
#include "throng/core/status.h"
#include "throng/crowd/crowd.h"

namespace throng {

// Agents a line addresses: first..last (inclusive), or every agent of the crowd.
struct AgentGroup {
  uint32_t first = 0;
  uint32_t last = 0;
  bool all = false;
};

// What a line does: a Command (submitted), or one of the calls that act at once.
enum class ScriptAction : uint8_t {
  kCommand,      // `type`: Crowd::submit
  kLayer,        // "layer CLIP MASK [WEIGHT [FADE]]": Crowd::playLayer
  kStopLayer,    // "stop-layer [FADE]": Crowd::stopLayer
  kAttachments,  // "attachments all|none|NAME[,NAME...]": Crowd::setAttachments
};

// One line of a script.
struct ScriptCommand {
  double time = 0.0;  // seconds since the script started, >= 0
  AgentGroup agents;
  ScriptAction action = ScriptAction::kCommand;
  CommandType type = CommandType::kIdle;
  glm::vec2 target{0.0f};   // walk-to / run-to: world x, z
  std::string clip;         // play: clip name, or its index in decimal, as written
  bool loop = false;        // play: "loop" (true) or "once" (false, the default)
  uint16_t clip_index = 0;  // play, layer: filled by bindCommandScript
  std::string mask;         // layer: mask name, or its index in decimal, as written
  uint8_t mask_index = 0;   // layer: filled by bindCommandScript
  float weight = 1.0f;      // layer: 0..1
  float fade = 0.25f;       // layer, stop-layer: seconds, >= 0
  // attachments: the props named, as written ("all", "none" or names / decimal indices), and the
  // mask bindCommandScript makes of them (bit i: attachment i).
  std::vector<std::string> attachment_names;
  uint32_t attachments = 0;
  uint32_t line = 0;  // 1-based line of the source (0: not from text)
};

struct CommandScript {
  std::string source;  // what messages call the script: a file path, "stdin", a socket's peer
  std::vector<ScriptCommand> commands;  // times never decrease
};

// Longest line accepted: a script line is a few dozen characters, so anything much longer is
// not a script (a binary file given by mistake) and is refused before it is tokenised.
inline constexpr size_t kMaxScriptLineBytes = 4096;
// A command is due when its time is at most now + this: absorbs the rounding of times written in
// decimal (0.1) against clocks that count ticks (3 * (1 / 30)).
inline constexpr double kScriptTimeEpsilon = 1e-6;

// One line of text (without its newline). Blank lines and comments (from '#' to the end of the
// line) give no command. Errors (kParseError) read "<source>:<line>: <what>", e.g.
// "fight.txt:7: unknown command 'jump' (idle, walk-to, run-to, attack, die, play)".
Result<std::optional<ScriptCommand>> parseScriptLine(std::string_view text, uint32_t line,
                                                     std::string_view source);
// A whole script; times must not decrease from one command to the next (parse error otherwise).
Result<CommandScript> parseCommandScript(std::string_view text, std::string_view source);
// Reads `in` to its end, line by line (a file, a pipe, a socket wrapped in a stream).
Result<CommandScript> readCommandScript(std::istream& in, std::string_view source);

// Resolves every play and layer command's clip (by name, else by decimal index) against `clips`,
// every layer's mask against `masks` and every attachments line's props against `attachments`
// (likewise), and checks that every group lies within a crowd of `agent_count` agents. Errors
// (kInvalidArgument) name the source and the line, and list the clips, masks, props or the agent
// range.
Status bindCommandScript(CommandScript& script, std::span<const BakedClip> clips,
                         uint32_t agent_count, std::span<const JointMask> masks = {},
                         std::span<const Attachment> attachments = {});

// The line that reads back as `command` ("0.5 3..7 walk-to 1.25 -4"), without a newline.
std::string formatScriptCommand(const ScriptCommand& command);
// A header comment and one line per command: parseCommandScript gives the commands back.
std::string formatCommandScript(const CommandScript& script);

// Submits script.commands[*next ...] whose time is due at `now` (seconds; see
// kScriptTimeEpsilon) to `crowd`, one Command per agent of each group, and advances *next past
// them (layer, stop-layer and attachments lines call Crowd::playLayer, stopLayer and
// setAttachments at once). Call before each Crowd::update with the simulated time the update
// starts at. Requires a bound script. Returns the number of Commands submitted and calls made.
size_t submitDueCommands(const CommandScript& script, double now, size_t* next, Crowd& crowd);

}  // namespace throng
