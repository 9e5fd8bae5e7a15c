// `ur match A B`: plays two agents against each other and reports their strength.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <thread>

#include "agents/agent.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/rules_options.h"
#include "core/rule_sets.h"
#include "match/match_runner.h"
#include "match/table_judge.h"
#include "protocol/json.h"
#include "records/rgn.h"
#include "tables/table.h"
#include "tables/table_store.h"

namespace ur::cli {
namespace {

struct MatchCommandOptions {
  match::MatchOptions match;
  bool json = false;
  std::string judge;       // solved table that rates every move; empty for none
  std::string record_dir;  // where each game's RGN record goes; empty for none
};

double mean_loss(const match::AgentTally& agent) {
  return agent.moves ? agent.loss / agent.moves : 0.0;
}
double costly_rate(const match::AgentTally& agent) {
  return agent.moves ? static_cast<double>(agent.costly_moves) / agent.moves : 0.0;
}

std::string percent(double fraction) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * fraction);
  return text;
}

double per_move_ms(const match::AgentTally& agent) {
  return agent.moves ? 1000.0 * agent.seconds / agent.moves : 0.0;
}

nlohmann::json rate_json(int successes, int trials) {
  const match::Interval interval = match::wilson_interval(successes, trials);
  return {{"rate", static_cast<double>(successes) / trials},
          {"ci95", {interval.low, interval.high}}};
}

nlohmann::json result_json(const match::MatchOptions& options, const match::MatchResult& result) {
  nlohmann::json agents = nlohmann::json::array();
  for (const match::AgentTally& agent : result.agents) {
    nlohmann::json entry = {{"spec", agent.spec},
                            {"wins", agent.wins},
                            {"first_moves", agent.first_moves},
                            {"moves", agent.moves},
                            {"ms_per_move", per_move_ms(agent)}};
    entry.update(rate_json(agent.wins, result.games));
    if (options.move_loss) {
      entry["mean_loss"] = mean_loss(agent);
      entry["costly_moves"] = agent.costly_moves;
      entry["costly_rate"] = costly_rate(agent);
    }
    agents.push_back(entry);
  }
  nlohmann::json first_mover = {{"wins", result.first_mover_wins}};
  first_mover.update(rate_json(result.first_mover_wins, result.games));
  return {
      {"games", result.games},
      {"seed", options.seed},
      {"threads", options.threads},
      {"rules", protocol::to_json(options.rules)},  // the set's name, and a custom one's columns
      {"interval", "wilson-95"},
      {"agents", agents},
      {"first_mover", first_mover},
      {"turns", result.turns},
      {"moves", result.moves},
      {"average_turns", static_cast<double>(result.turns) / result.games},
      {"average_moves", static_cast<double>(result.moves) / result.games},
      {"seconds", result.seconds}};
}

void print_rate_line(const std::string& label, int successes, int trials, const std::string& tail) {
  const match::Interval interval = match::wilson_interval(successes, trials);
  char line[256];
  std::snprintf(line, sizeof line, "%-22s %6d wins  %6s  95%% CI [%s, %s]%s\n", label.c_str(),
                successes, percent(static_cast<double>(successes) / trials).c_str(),
                percent(interval.low).c_str(), percent(interval.high).c_str(), tail.c_str());
  std::cout << line;
}

void print_text(const match::MatchOptions& options, const match::MatchResult& result) {
  std::cout << "match " << options.specs[0] << " vs " << options.specs[1] << ": " << result.games
            << " games, seed " << options.seed << ", " << options.threads
            << (options.threads == 1 ? " thread, " : " threads, ") << rule_set_title(options.rules)
            << (options.rules.bear_off == BearOff::Exact ? ", exact bear-off" : "") << "\n";
  for (int i = 0; i < 2; ++i) {
    const match::AgentTally& agent = result.agents[i];
    char tail[64];
    const double ms = per_move_ms(agent);
    if (ms < 0.001) {
      std::snprintf(tail, sizeof tail, "  <0.001 ms/move");  // random, first: a few ns
    } else {
      std::snprintf(tail, sizeof tail, "  %.3f ms/move", ms);
    }
    print_rate_line(std::string(i == 0 ? "A " : "B ") + agent.spec, agent.wins, result.games, tail);
  }
  print_rate_line("first mover", result.first_mover_wins, result.games, "");
  if (options.move_loss) {
    for (int i = 0; i < 2; ++i) {
      const match::AgentTally& agent = result.agents[i];
      char line[200];
      std::snprintf(
          line, sizeof line,
          "%-22s mean loss %.5f a move (%.3f pp), costly moves %.1f%% (losing over 0.1 pp)\n",
          (std::string(i == 0 ? "A " : "B ") + agent.spec).c_str(), mean_loss(agent),
          100.0 * mean_loss(agent), 100.0 * costly_rate(agent));
      std::cout << line;
    }
  }
  char line[160];
  std::snprintf(line, sizeof line,
                "game length            %.1f turns (throws, passes included), %.1f moves\n"
                "time                   %.1f s\n",
                static_cast<double>(result.turns) / result.games,
                static_cast<double>(result.moves) / result.games, result.seconds);
  std::cout << line << "intervals: Wilson score, 95%\n";
}

// A one-line bar redrawn in place on a terminal.
void draw_progress(int finished, int total, int wins_of_a) {
  constexpr int kWidth = 30;
  const int filled = total ? finished * kWidth / total : kWidth;
  std::string bar(filled, '#');
  bar.resize(kWidth, '.');
  std::fprintf(stderr, "\r[%s] %d/%d games, A wins %s", bar.c_str(), finished, total,
               finished ? percent(static_cast<double>(wins_of_a) / finished).c_str() : "-");
  std::fflush(stderr);
}

// Why records cannot be written into `dir`, or nothing. A missing `dir` is made, but
// never its parents.
std::optional<std::string> check_record_dir(const std::string& dir) {
  std::error_code error;
  const std::filesystem::path path(dir);
  if (!std::filesystem::exists(path, error)) {
    if (!std::filesystem::create_directory(path, error)) {
      return "cannot create the directory " + dir + ": " + error.message() +
             " (its parent must exist)";
    }
  } else if (!std::filesystem::is_directory(path, error)) {
    return dir + " is not a directory; give a directory for one record file per game";
  }
  if (access(dir.c_str(), W_OK) != 0) return "cannot write into " + dir;
  // A second match into the same directory replaced the first one's games one by one, and
  // left a mix of both.
  for (const auto& entry : std::filesystem::directory_iterator(path, error)) {
    const std::string name = entry.path().filename().string();
    if (name.starts_with("game-") && name.ends_with(".rgn")) {
      return dir + " already holds game records (" + name +
             "); give an empty or new directory, so that no game is overwritten";
    }
  }
  return std::nullopt;
}

int run_match_command(MatchCommandOptions& options) {
  if (const auto problem = match::check_specs(options.match)) {
    std::cerr << "ur match: " << problem->message << "\n";
    return problem->missing_table ? kMissingTable : kUsageError;
  }
  std::mutex record_mutex;
  std::string record_error;  // the first record that could not be written
  if (!options.record_dir.empty()) {
    if (auto problem = check_record_dir(options.record_dir)) {
      std::cerr << "ur match: --record: " << *problem << "\n";
      return kUsageError;
    }
    options.match.game_finished = [&](int game, const session::Session& finished) {
      char name[32];
      std::snprintf(name, sizeof name, "game-%06d.rgn", game + 1);
      const std::filesystem::path path = std::filesystem::path(options.record_dir) / name;
      std::vector<records::Tag> tags = {
          {"Event", "ur match " + options.match.specs[0] + " vs " + options.match.specs[1]},
          {"Round", std::to_string(game + 1)}};
      const std::string text = records::write_rgn(
          records::record_of_game(finished, finished.game_start_index(), std::move(tags)));
      std::ofstream out(path, std::ios::binary);
      out << text;
      out.close();
      if (!out) {
        const std::lock_guard lock(record_mutex);
        if (record_error.empty()) {
          record_error = "cannot write " + path.string() + ": " + std::strerror(errno);
        }
      }
    };
  }
  if (!options.judge.empty()) {
    // As --table and perfect:FILE: a missing or unusable file comes with the command that builds
    // it.
    std::string problem;
    auto table =
        tables::find_table(options.match.rules, &problem, std::filesystem::path(options.judge));
    if (!table) {
      std::cerr << "ur match: --judge: " << problem << "\n";
      return kMissingTable;
    }
    options.match.move_loss = match::table_move_loss(std::move(table));
  }
  for (const std::string& note : match::prepare_agents(options.match)) {
    std::cerr << "ur match: " << note << "\n";
  }
  const bool show_progress = !options.json && isatty(STDERR_FILENO);
  const match::MatchResult result =
      match::run_match(options.match, [&](int finished, int wins_of_a) {
        if (show_progress) draw_progress(finished, options.match.games, wins_of_a);
      });
  if (show_progress) std::fprintf(stderr, "\r\033[K");
  if (options.json) {
    std::cout << result_json(options.match, result).dump() << "\n";
  } else {
    print_text(options.match, result);
  }
  if (!record_error.empty()) {
    std::cerr << "ur match: --record: " << record_error << "\n";
    return 1;
  }
  return 0;
}

std::string agent_help() {
  std::string help = "Agent spec, one of:";
  for (const std::string& line : accepted_agent_specs()) help += "\n  " + line;
  return help;
}

CommandRunner setup_match(CLI::App& app) {
  auto options = std::make_shared<MatchCommandOptions>();
  options->match.threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  CLI::App* command = app.add_subcommand(
      "match", "Play two agents against each other and report win rates with 95% intervals");
  command->add_option("A", options->match.specs[0], agent_help())->required();
  command->add_option("B", options->match.specs[1], "Second agent spec (as A)")->required();
  command->add_option("--games,-n", options->match.games, "Games to play")
      ->check(integer_range(1, 10'000'000))
      ->default_val(100);
  command->add_option("--seed,-s", options->match.seed, "Seed for dice and agents, 0..2^64-1")
      ->check(seed_range())
      ->default_val(1);
  command
      ->add_option("--threads,-t", options->match.threads,
                   "Games played at once (default: the number of cores)")
      ->check(integer_range(1, 256));
  add_rules_options(*command, options->match.rules);
  command->add_flag("--json", options->json, "Print one JSON object instead of text");
  command
      ->add_option("--judge", options->judge,
                   "Solved table for the rules (ur solve) that rates every move: prints each "
                   "agent's mean loss of win chance per move and its share of costly moves (moves "
                   "losing more than 0.1 pp)")
      ->check(cli::non_empty_path());
  command
      ->add_option("--record", options->record_dir,
                   "Write each game's record (RGN, docs/records.md) into this directory as "
                   "game-000001.rgn, ...")
      ->check(cli::non_empty_path());
  command->footer(
      "Sides and the first throw alternate game by game. Game length counts turns: every\n"
      "throw, including passes and extra throws. Intervals are Wilson score intervals.");
  return [options] { return run_match_command(*options); };
}

const CommandRegistrar registrar{60, &setup_match};

}  // namespace
}  // namespace ur::cli
