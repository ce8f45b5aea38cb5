// Subcommand registry of the throng CLI: each subcommand file registers itself at start-up.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

namespace throng::cli {

// Adds a subcommand's options to `sub` and returns the action that runs it (exit code).
using SetupFn = std::function<std::function<int()>(CLI::App& sub)>;

struct CommandInfo {
  std::string name;
  std::string description;
  SetupFn setup;
};

std::vector<CommandInfo>& commandRegistry();

// Use at namespace scope in a subcommand's file, under a name of the file's own (the subcommands
// may be compiled together as one unity source, THRONG_UNITY_BUILD):
//   const bool kInspectRegistered = registerCommand({"inspect", "...", setupInspect});
bool registerCommand(CommandInfo info);

// Exit codes (docs/errors.md, "Command line"): a usage error is the command line's fault (an
// unknown flag, a count of zero or below, an unknown clip, path or LOD); a failure is the input's
// or the run's (a missing or corrupt file, a device that cannot be created).
inline constexpr int kExitFailure = 1;
inline constexpr int kExitUsage = 2;

// Prints "throng: <message>" (one line naming the file and the place) to stderr and returns
// kExitFailure.
int fail(const std::string& message);
// Prints "throng: <message>" (one line naming the flag and what it allows) to stderr and
// returns kExitUsage.
int usageError(const std::string& message);

}  // namespace throng::cli
