// Entry point of the throng CLI: builds the subcommands from the registry and runs one.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>
#include <string>

#include <fmt/core.h>

#include "command.h"
#include "throng/version.h"
#include "warning_output.h"

namespace throng::cli {

std::vector<CommandInfo>& commandRegistry() {
  static std::vector<CommandInfo> registry;
  return registry;
}

bool registerCommand(CommandInfo info) {
  commandRegistry().push_back(std::move(info));
  return true;
}

int fail(const std::string& message) {
  fmt::print(stderr, "throng: {}\n", message);
  return kExitFailure;
}

int usageError(const std::string& message) {
  fmt::print(stderr, "throng: {}\n", message);
  return kExitUsage;
}

// CLI11's type names in words, for conversion errors.
std::string describeType(const std::string& type) {
  if (type == "INT") return "a whole number";
  if (type == "UINT") return "a whole number >= 0";
  if (type == "FLOAT") return "a number";
  return "a " + type;
}

}  // namespace throng::cli

int main(int argc, char** argv) {
  using namespace throng::cli;
  CLI::App app{"throng: crowds of skeletal-animated characters in a handful of draw calls"};
  app.set_version_flag("--version", "throng " THRONG_VERSION_STRING);
  app.require_subcommand(1);
  // -v and -q may come before or after the subcommand (fallthrough, set before the subcommands
  // are added, which inherit it).
  bool verbose = false, quiet = false;
  app.add_flag("-v,--verbose", verbose, "list every warning in full (default: one line per kind)");
  app.add_flag("-q,--quiet", quiet, "print no warnings (errors still print)")->excludes("-v");
  app.fallthrough();
  auto& registry = commandRegistry();
  std::sort(registry.begin(), registry.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  std::map<CLI::App*, std::function<int()>> actions;
  for (const CommandInfo& info : registry) {
    CLI::App* sub = app.add_subcommand(info.name, info.description);
    actions[sub] = info.setup(*sub);
  }
  const bool known =
      argc > 1 && std::any_of(registry.begin(), registry.end(),
                              [&](const CommandInfo& c) { return c.name == argv[1]; });
  if (argc > 1 && argv[1][0] != '-' && !known) {
    std::string names;
    for (const CommandInfo& info : registry) names += (names.empty() ? "" : ", ") + info.name;
    return usageError(fmt::format("{}: no such command (commands: {})", argv[1], names));
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    // --help prints the help and succeeds; every other parse error is a usage error: one line
    // naming the flag and exit code 2, whatever CLI11's own code would be.
    if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);
    CLI::App* parsed = nullptr;
    for (const auto& [sub, action] : actions) {
      if (sub->parsed()) parsed = sub;
    }
    std::string message = e.what();
    std::replace(message.begin(), message.end(), '\n', ' ');
    // CLI11 says "Could not convert: --agents = many"; say what the flag takes instead.
    const std::string kConvert = "Could not convert: ";
    if (parsed && message.rfind(kConvert, 0) == 0) {
      const std::string rest = message.substr(kConvert.size());
      const size_t equals = rest.find(" = ");
      if (equals != std::string::npos) {
        const std::string flag = rest.substr(0, equals);
        const CLI::Option* option = parsed->get_option_no_throw(flag);
        message = fmt::format("{} {}: must be {}", flag, rest.substr(equals + 3),
                              option ? describeType(option->get_type_name()) : "another value");
      }
    }
    return usageError(message + (parsed ? fmt::format(" (see throng {} --help)", parsed->get_name())
                                        : std::string(" (see throng --help)")));
  }
  setVerbosity(quiet ? Verbosity::kQuiet : verbose ? Verbosity::kVerbose : Verbosity::kNormal);
  for (auto& [sub, action] : actions) {
    if (sub->parsed()) return action();
  }
  return kExitUsage;
}
