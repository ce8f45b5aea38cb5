// Entry point of the throng CLI: builds the subcommands from the registry and runs one.
#include <algorithm>
#include <cstdio>
#include <map>
#include <memory>

#include <fmt/core.h>

#include "command.h"
#include "throng/version.h"

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
  return 1;
}

}  // namespace throng::cli

int main(int argc, char** argv) {
  using namespace throng::cli;
  CLI::App app{"throng: crowds of skeletal-animated characters in a handful of draw calls"};
  app.set_version_flag("--version", "throng " THRONG_VERSION_STRING);
  app.require_subcommand(1);
  auto& registry = commandRegistry();
  std::sort(registry.begin(), registry.end(),
            [](const CommandInfo& a, const CommandInfo& b) { return a.name < b.name; });
  std::map<CLI::App*, std::function<int()>> actions;
  for (const CommandInfo& info : registry) {
    CLI::App* sub = app.add_subcommand(info.name, info.description);
    actions[sub] = info.setup(*sub);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  for (auto& [sub, action] : actions) {
    if (sub->parsed()) return action();
  }
  return 2;
}
