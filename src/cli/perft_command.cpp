// `ur perft`: counts move sequences to a depth and prints the speed.
#include <chrono>
#include <ctime>
#include <iostream>
#include <optional>
#include <string>

#include "cli/command.h"
#include "cli/options.h"
#include "cli/rules_options.h"
#include "core/notation.h"
#include "core/perft.h"
#include "core/rule_sets.h"
#include "engine/rules_handlers.h"

namespace ur::cli {
namespace {

struct PerftOptions {
  Rules rules;
  int depth = 5;
  std::optional<std::string> position_text;  // default: the opening
};

int run_perft(const PerftOptions& options) {
  Position position = starting_position(options.rules);
  if (options.position_text) {
    auto parsed = parse_text(*options.position_text, options.rules);
    if (auto* error = std::get_if<ParseError>(&parsed)) {
      std::cerr << "ur perft: bad --position: " << error->message << "\n";
      return kUsageError;
    }
    position = std::get<Position>(parsed);
  }
  const auto begin = std::chrono::steady_clock::now();
  const std::clock_t cpu_begin = std::clock();
  const std::uint64_t nodes = perft(options.rules, position, options.depth);
  const double cpu_seconds = static_cast<double>(std::clock() - cpu_begin) / CLOCKS_PER_SEC;
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
  // Speed per CPU second: perft is single-threaded, and on a shared machine wall time also
  // counts the time other processes held the core.
  const double speed_seconds = cpu_seconds > 0 ? cpu_seconds : seconds;
  // The title says "any throw bears off" itself.
  std::cout << "rules " << rule_set_title(options.rules)
            << (options.rules.bear_off == BearOff::Exact ? ", exact bear-off" : "") << "\n"
            << "position " << to_text(position) << "\n"
            << "depth " << options.depth << "\n"
            << "nodes " << nodes << "\n"
            << "time " << seconds << " s wall, " << cpu_seconds << " s cpu\n";
  // Under a millisecond the clocks say nothing of the speed.
  if (speed_seconds >= 1e-3) {
    std::cout << "speed " << static_cast<std::uint64_t>(nodes / speed_seconds)
              << " leaves/s (one core, per cpu second)\n";
  } else {
    std::cout << "speed not measured (under a millisecond; try a greater --depth)\n";
  }
  return 0;
}

CommandRunner setup_perft(CLI::App& app) {
  auto options = std::make_shared<PerftOptions>();
  CLI::App* command = app.add_subcommand(
      "perft", "Count move sequences to a depth (the move-generation signature) and time it");
  command
      ->add_option("--depth,-d", options->depth,
                   "Plies to count (each throw is a ply), at most " +
                       std::to_string(engine::kMaxPerftDepth) +
                       " (about 3 minutes from the opening)")
      ->required()
      ->check(integer_range(0, engine::kMaxPerftDepth));
  add_rules_options(*command, options->rules);
  command->add_option("--position,-p", options->position_text,
                      "Start from this position text (docs/notation.md); default: the opening");
  return [options] { return run_perft(*options); };
}

const CommandRegistrar registrar{50, &setup_perft};

}  // namespace
}  // namespace ur::cli
