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

// Use at namespace scope in a subcommand's file:
//   static const bool kRegistered = registerCommand({"inspect", "...", setupInspect});
bool registerCommand(CommandInfo info);

// Prints "throng: <message>" to stderr and returns the exit code for a failed command.
int fail(const std::string& message);

}  // namespace throng::cli
