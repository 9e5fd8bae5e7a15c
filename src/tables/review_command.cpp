// `ur review FILE`: every throw of a recorded game rated against perfect play (a solved
// table), each player's summary and a graph of light's chance (docs/review.md).
#include <cmath>
#include <iostream>
#include <sstream>

#include "analysis/review_text.h"
#include "analysis/search_values.h"
#include "cli/command.h"
#include "cli/options.h"
#include "cli/printable.h"
#include "cli/record_files.h"
#include "core/notation.h"
#include "protocol/review_json.h"
#include "records/rgn.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace ur::tables {
namespace {

using analysis::loss_text;
using analysis::percent_text;
using analysis::points_text;

struct ReviewOptions {
  std::string file;
  std::string table;
  bool json = false;
  bool estimate = false;
};

std::string move_text(const records::GameRecord& record, const analysis::ThrowReview& entry) {
  records::Ply ply{entry.side, entry.roll, entry.move};
  return records::action_text(record.rules, ply);
}

void print_review(std::ostream& out, const records::GameRecord& record,
                  const analysis::Review& review) {
  out << "values: " << review.source << "\n";
  out << "turn side  roll move       before   best played   loss pp  class       luck pp\n";
  for (const analysis::ThrowReview& entry : review.throws) {
    char line[200];
    std::snprintf(line, sizeof line, "%-4d %-5s %-4d %-10s %6s %6s %6s %9s  %-11s %7s %s",
                  entry.turn, std::string(side_name(entry.side)).c_str(), entry.roll,
                  move_text(record, entry).c_str(), percent_text(entry.win_before).c_str(),
                  percent_text(entry.win_best).c_str(), percent_text(entry.win_played).c_str(),
                  entry.forced ? "" : loss_text(entry.loss).c_str(),
                  (std::string(to_string(entry.move_class)) + (entry.only_move ? "!" : "")).c_str(),
                  points_text(entry.luck).c_str(), std::string(to_string(entry.luck_mark)).c_str());
    std::string text = line;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  }
  for (Side side : {Side::Light, Side::Dark}) {
    out << "\n";
    for (const std::string& line : analysis::summary_lines(review, side)) out << line << "\n";
  }
  // A turn may hold several throws (extra throws), so each moment names its throw too, counted
  // as the graph below counts them.
  out << "\nkey moments:";
  for (std::size_t i : review.key_losses) {
    const auto& entry = review.throws[i];
    out << "\n  throw " << i + 1 << ", turn " << entry.turn << " " << side_name(entry.side) << " "
        << move_text(record, entry) << ": lost " << loss_text(entry.loss) << " pp ("
        << to_string(entry.move_class) << ")";
  }
  for (std::size_t i : review.key_luck) {
    const auto& entry = review.throws[i];
    out << "\n  throw " << i + 1 << ", turn " << entry.turn << " " << side_name(entry.side)
        << " threw " << entry.roll << ": luck " << points_text(entry.luck) << " pp";
  }
  out << "\n";
  const auto graph = analysis::chance_graph_lines(review);
  if (!graph.empty()) out << "\n";
  for (const std::string& line : graph) out << line << "\n";
  out << "result: "
      << (review.winner ? std::string(side_name(*review.winner)) + " won" : "unfinished") << "\n";
}

// "game 2 of 3 · round 2 · light Ann (perfect) · dark Bob (greedy)": which game of a file the
// review below is, from the record's tags where it has them.
std::string game_heading(const records::GameRecord& record, std::size_t g, std::size_t games) {
  std::string heading = "game " + std::to_string(g + 1) + " of " + std::to_string(games);
  if (const std::string* round = record.tag("Round")) heading += " · round " + *round;
  for (const Side side : {Side::Light, Side::Dark}) {
    const std::string name = side == Side::Light ? "Light" : "Dark";
    const std::string* player = record.tag(name);
    const std::string* level = record.tag(name + "Level");
    if (!player && !level) continue;
    heading += " · " + std::string(side_name(side));
    if (player) heading += " " + *player;
    if (level) heading += " (" + *level + ")";
  }
  return cli::printable(heading);
}

int run_review(const ReviewOptions& options) {
  auto parsed = cli::read_records(options.file);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "ur review: " << *error << "\n";
    return 1;
  }
  std::ostringstream out;
  const auto& games = std::get<0>(parsed);
  for (std::size_t g = 0; g < games.size(); ++g) {
    const records::GameRecord& record = games[g];
    std::unique_ptr<analysis::PositionValues> values;
    std::string problem;
    // Without --table, a small table is solved on the spot, as for hints, perfect and replay.
    const auto table = options.table.empty() ? table_for_play(record.rules, &problem)
                                             : find_table(record.rules, &problem, options.table);
    // A table that cannot be used is exit 3, as in every command (docs/cli.md). One named
    // with --table is refused even beside --estimate: the user asked for that table.
    if (table) {
      values = std::make_unique<TableValues>(table);
    } else if (!options.table.empty()) {
      std::cerr << "ur review: --table: " << problem << "\n";
      return cli::kMissingTable;
    } else if (options.estimate) {
      values = std::make_unique<analysis::SearchValues>();
    } else if (solver::unsupported_rules(record.rules)) {
      std::cerr << "ur review: " << problem
                << "\nur review: review with the search's estimate instead: --estimate\n";
      return cli::kMissingTable;
    } else {
      // `problem` already names the command that builds the table.
      const SolveCost cost = estimated_solve_cost(record.rules);
      std::cerr << "ur review: " << problem << "\nur review: that build takes "
                << rough_duration(cost.cpu_seconds / 2)
                << " on two cores; or review with the search's estimate: --estimate\n";
      return cli::kMissingTable;
    }
    const auto replay = std::get<records::Replay>(records::replay(record));
    const analysis::Review review = analysis::review(record, replay, *values);
    if (options.json) {
      out << protocol::to_json(review).dump() << "\n";
    } else {
      if (g > 0) out << "\n";
      if (games.size() > 1) out << game_heading(record, g, games.size()) << "\n";
      print_review(out, record, review);
    }
  }
  std::cout << out.str();  // main reports a lost write (cli/output.h)
  return 0;
}

cli::CommandRunner setup_review(CLI::App& app) {
  auto options = std::make_shared<ReviewOptions>();
  CLI::App* command = app.add_subcommand(
      "review", "Rate every throw of a recorded game against perfect play, with a summary");
  command->add_option("FILE", options->file, "The record (RGN or JSON lines); - for stdin")
      ->required();
  command
      ->add_option("--table", options->table,
                   "Solved table for the record's rules (default: the one ur solve wrote)")
      ->check(cli::non_empty_path());
  command->add_flag("--json", options->json, "Print one JSON review a game (docs/review.md)");
  command->add_flag("--estimate", options->estimate,
                    "Without a solved table, estimate with an expectimax search (says so)");
  return [options] { return run_review(*options); };
}

const cli::CommandRegistrar review_registrar{71, &setup_review};

}  // namespace
}  // namespace ur::tables
