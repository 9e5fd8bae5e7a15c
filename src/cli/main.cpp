// The `ur` binary: parses the command line and runs the chosen subcommand.
#include <algorithm>
#include <csignal>
#include <iostream>
#include <string>
#include <vector>

#include "cli/command.h"
#include "cli/output.h"

namespace {

// `ur help` is `ur --help`, and `ur help COMMAND` is `ur COMMAND --help`.
std::vector<std::string> arguments_of(int argc, char** argv) {
  std::vector<std::string> arguments(argv + 1, argv + argc);
  if (!arguments.empty() && arguments.front() == "help") {
    arguments.erase(arguments.begin());
    arguments.insert(arguments.begin() + (arguments.empty() ? 0 : 1), "--help");
  }
  return arguments;
}

}  // namespace

int main(int argc, char** argv) {
  // A reader that went away (`ur engine | head -1`) is a write error each command reports
  // ("cannot write output: Broken pipe", exit 1), not a silent death by signal (exit 141).
  std::signal(SIGPIPE, SIG_IGN);
  // Likewise a file past the size limit (`ulimit -f`): the write fails with EFBIG, and the
  // writer removes its temporary file instead of leaving it behind.
  std::signal(SIGXFSZ, SIG_IGN);
  // Named here so that usage lines say `ur`, not the path the binary was started by.
  CLI::App app{
      "ur: the Royal Game of Ur - rules engine, computer opponents, solver, terminal and web "
      "game",
      "ur"};
  // At most one command; a missing one is reported after parsing, so that CLI11 first names
  // any unknown option or command.
  app.require_subcommand(0, 1);
  app.set_version_flag("--version", "ur 0.1.0");
  app.footer("Run `ur help COMMAND` or `ur COMMAND --help` for a command's options.");

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

  std::vector<std::string> arguments = arguments_of(argc, argv);
  std::string chosen;  // the command being parsed, named in errors
  for (const std::string& argument : arguments) {
    if (argument.empty() || argument.front() == '-') continue;
    for (const auto& [subcommand, runner] : runners) {
      if (subcommand->check_name(argument)) chosen = subcommand->get_name();
    }
    // CLI11 would print the general help for `ur help fly`, hiding the typo.
    if (chosen.empty() && argc > 1 && std::string(argv[1]) == "help") {
      std::cerr << "ur help: unknown command \"" << argument << "\"; see ur --help\n";
      return ur::cli::kUsageError;
    }
    break;
  }
  try {
    std::reverse(arguments.begin(), arguments.end());  // CLI11 parses from the back
    app.parse(arguments);
  } catch (const CLI::CallForHelp& help) {
    app.exit(help);
    return ur::cli::finish_output(chosen, 0);
  } catch (const CLI::CallForAllHelp& help) {
    app.exit(help);
    return ur::cli::finish_output(chosen, 0);
  } catch (const CLI::CallForVersion& version) {
    app.exit(version);
    return ur::cli::finish_output(chosen, 0);
  } catch (const CLI::ParseError& error) {
    const std::string name = chosen.empty() ? "ur" : "ur " + chosen;
    std::string message = error.what();
    // CLI11's words for an option given twice ("--depth 3 --depth 4").
    if (const auto at = message.find(": At Most 1 required but received ");
        at != std::string::npos) {
      message = message.substr(0, at) + ": given more than once; give it once";
    }
    std::cerr << name << ": " << message << "\n"
              << "see " << name << " --help\n";
    return ur::cli::kUsageError;
  }
  if (app.get_subcommands().empty()) {
    std::cerr << "ur: missing command; see ur --help\n";
    return ur::cli::kUsageError;
  }
  for (auto& [subcommand, runner] : runners) {
    if (subcommand->parsed()) {
      const std::string name = subcommand->get_name();
      try {
        return ur::cli::finish_output(name, runner());
      } catch (const std::exception& error) {
        std::cerr << "ur " << name << ": " << error.what() << "\n";
        return ur::cli::kFailure;
      }
    }
  }
  return 0;
}
