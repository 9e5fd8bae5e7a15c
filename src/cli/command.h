// The `ur` command registry. Each area defines its subcommands in its own object library
// and registers them with a static CommandRegistrar, so main.cpp never lists them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <vector>

namespace ur::cli {

// Runs a parsed subcommand and returns the process exit code.
using CommandRunner = std::function<int()>;

// Adds a subcommand with its options to `app`; returns what to run when it was chosen.
using CommandSetup = CommandRunner (*)(CLI::App& app);

struct RegisteredCommand {
  int order;  // position in `ur --help`
  CommandSetup setup;
};

std::vector<RegisteredCommand>& registered_commands();

struct CommandRegistrar {
  CommandRegistrar(int order, CommandSetup setup) {
    registered_commands().push_back({order, setup});
  }
};

// Exit code for bad command-line usage, as CLI11 uses for its own parse errors.
inline constexpr int kUsageError = 2;

}  // namespace ur::cli
