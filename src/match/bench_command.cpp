// `ur bench`: times the search levels on a fixed set of 100 middle-game positions, Stockfish
// style, and prints a node-count signature that changes whenever search, evaluation or move
// generation change what is searched.
#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>
#include <vector>

#include "agents/expectimax.h"
#include "agents/levels.h"
#include "cli/command.h"
#include "core/notation.h"
#include "match/bench_positions.h"

namespace ur::cli {
namespace {

struct BenchOptions {
  std::vector<std::string> levels{"hard", "expert"};
  std::vector<std::string> disabled;  // speed-ups switched off: order, table, star1
  bool star2 = false;
  bool json = false;
};

struct LevelRun {
  std::string name;
  int depth = 0;
  std::uint64_t nodes = 0;
  double seconds = 0.0;
  double cpu_seconds = 0.0;    // this thread's CPU time: robust on a shared machine
  std::vector<double> ms;      // wall-clock per position
  std::vector<double> cpu_ms;  // CPU time per position
};

double thread_cpu_seconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<double>(now.tv_sec) + 1e-9 * static_cast<double>(now.tv_nsec);
}

double percentile(std::vector<double> values, double fraction) {
  std::sort(values.begin(), values.end());
  const double index = fraction * (values.size() - 1);
  const auto low = static_cast<std::size_t>(index);
  const std::size_t high = std::min(low + 1, values.size() - 1);
  return values[low] + (index - low) * (values[high] - values[low]);
}

LevelRun run_level(const std::string& name, int depth, const BenchOptions& options) {
  const Rules rules = finkel_rules();
  SearchOptions search_options;
  search_options.depth = depth;
  const auto disabled = [&options](std::string_view what) {
    return std::find(options.disabled.begin(), options.disabled.end(), what) !=
           options.disabled.end();
  };
  search_options.order_moves = !disabled("order");
  search_options.transposition_table = !disabled("table");
  search_options.star1 = !disabled("star1");
  search_options.star2 = options.star2;
  ExpectimaxSearch search(search_options);
  LevelRun run{name, depth, 0, 0.0, 0.0, {}, {}};
  for (const match::BenchPosition& bench : match::kBenchPositions) {
    const Position position = std::get<Position>(parse_text(bench.text, rules));
    const auto begin = std::chrono::steady_clock::now();
    const double cpu_begin = thread_cpu_seconds();
    search.search(rules, position, bench.roll);
    const double cpu = thread_cpu_seconds() - cpu_begin;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - begin).count();
    run.seconds += seconds;
    run.cpu_seconds += cpu;
    run.ms.push_back(1000.0 * seconds);
    run.cpu_ms.push_back(1000.0 * cpu);
  }
  run.nodes = search.stats().nodes;
  return run;
}

int run_bench(const BenchOptions& options) {
  std::vector<std::pair<std::string, int>> levels;
  for (const std::string& level : options.levels) {
    const std::optional<int> depth = search_depth_of(level);
    if (!depth) {
      std::cerr << "ur bench: \"" << level
                << "\" is not a searching level; use medium, hard, expert or expectimax:D (D "
                << kMinSearchDepth << "-" << kMaxSearchDepth << ")\n";
      return kUsageError;
    }
    levels.emplace_back(level, *depth);
  }
  std::vector<LevelRun> runs;
  std::uint64_t signature = 0;
  for (const auto& [name, depth] : levels) {
    runs.push_back(run_level(name, depth, options));
    signature += runs.back().nodes;
  }
  if (options.json) {
    nlohmann::json levels_json = nlohmann::json::array();
    for (const LevelRun& run : runs) {
      levels_json.push_back({{"level", run.name},
                             {"depth", run.depth},
                             {"positions", run.ms.size()},
                             {"nodes", run.nodes},
                             {"seconds", run.seconds},
                             {"nodes_per_second", run.nodes / std::max(run.seconds, 1e-9)},
                             {"median_ms", percentile(run.ms, 0.5)},
                             {"mean_ms", run.seconds * 1000.0 / run.ms.size()},
                             {"p90_ms", percentile(run.ms, 0.9)},
                             {"max_ms", percentile(run.ms, 1.0)},
                             {"cpu_seconds", run.cpu_seconds},
                             {"nodes_per_cpu_second", run.nodes / std::max(run.cpu_seconds, 1e-9)},
                             {"cpu_median_ms", percentile(run.cpu_ms, 0.5)}});
    }
    std::cout << nlohmann::json{{"levels", levels_json}, {"signature", signature}}.dump() << "\n";
    return 0;
  }
  std::printf("ur bench: %zu fixed middle-game positions (src/match/bench_positions.h), 7 pieces\n",
              match::kBenchPositions.size());
  std::printf("%-14s %5s %11s %7s %11s %9s %8s %8s %8s %10s %11s\n", "level", "depth", "nodes",
              "time s", "nodes/s", "median ms", "mean ms", "p90 ms", "max ms", "cpu median",
              "nodes/cpu s");
  for (const LevelRun& run : runs) {
    std::printf("%-14s %5d %11llu %7.2f %11.0f %9.2f %8.2f %8.2f %8.2f %10.2f %11.0f\n",
                run.name.c_str(), run.depth, static_cast<unsigned long long>(run.nodes),
                run.seconds, run.nodes / std::max(run.seconds, 1e-9), percentile(run.ms, 0.5),
                run.seconds * 1000.0 / run.ms.size(), percentile(run.ms, 0.9),
                percentile(run.ms, 1.0), percentile(run.cpu_ms, 0.5),
                run.nodes / std::max(run.cpu_seconds, 1e-9));
  }
  std::printf("times in ms per move (wall clock); cpu: this thread's CPU time\n");
  std::printf("signature %llu\n", static_cast<unsigned long long>(signature));
  return 0;
}

CommandRunner setup_bench(CLI::App& app) {
  auto options = std::make_shared<BenchOptions>();
  CLI::App* command = app.add_subcommand(
      "bench", "Time the search levels on 100 fixed positions; print nodes/s and a signature");
  command
      ->add_option("--levels", options->levels,
                   "Levels to time: medium, hard, expert or expectimax:D (default: hard expert)")
      ->delimiter(',');
  command
      ->add_option("--disable", options->disabled,
                   "Speed-ups to switch off, for measuring them: order, table, star1")
      ->delimiter(',')
      ->check(CLI::IsMember({"order", "table", "star1"}));
  command->add_flag("--star2", options->star2, "Add Star2 probing at chance nodes");
  command->add_flag("--json", options->json, "Print one JSON object instead of a table");
  command->footer(
      "The signature is the total node count over the levels; it changes when search,\n"
      "evaluation or move generation change, and not with the machine's speed.");
  return [options] { return run_bench(*options); };
}

const CommandRegistrar registrar{61, &setup_bench};

}  // namespace
}  // namespace ur::cli
