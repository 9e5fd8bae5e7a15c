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

// Exit codes, the same for every command (docs/cli.md).
inline constexpr int kFailure = 1;     // the command failed (e.g. its output could not be written)
inline constexpr int kUsageError = 2;  // bad command line or option value; nothing was done
inline constexpr int kMissingTable = 3;   // a needed solved table is missing or for other rules
inline constexpr int kInterrupted = 130;  // stopped by Ctrl-C, SIGTERM or SIGHUP

}  // namespace ur::cli
