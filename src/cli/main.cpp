// The `ur` binary: parses the command line and runs the chosen subcommand.
#include <algorithm>
#include <iostream>

#include "cli/command.h"

int main(int argc, char** argv) {
  CLI::App app{
      "ur: the Royal Game of Ur - rules engine, computer opponents, solver, terminal and web "
      "game"};
  // At most one command; a missing one is reported after parsing, so that CLI11 first names
  // any unknown option or command.
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "ur 0.1.0");

  auto commands = ur::cli::registered_commands();
  std::sort(commands.begin(), commands.end(),
            [](const auto& a, const auto& b) { return a.order < b.order; });
  std::vector<std::pair<CLI::App*, ur::cli::CommandRunner>> runners;
  for (const auto& command : commands) {
    const std::size_t before = app.get_subcommands({}).size();
    ur::cli::CommandRunner runner = command.setup(app);
    const auto all = app.get_subcommands({});
    if (all.size() > before) runners.emplace_back(all.back(), std::move(runner));
  }

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& error) {
    // Help and --version exit 0; every usage error exits 2 with CLI11's message.
    return app.exit(error) == 0 ? 0 : ur::cli::kUsageError;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "ur: missing command; see ur --help\n";
    return ur::cli::kUsageError;
  }
  for (auto& [subcommand, runner] : runners) {
    if (subcommand->parsed()) {
      try {
        return runner();
      } catch (const std::exception& error) {
        std::cerr << "ur " << subcommand->get_name() << ": " << error.what() << "\n";
        return 1;
      }
    }
  }
  return 0;
}
