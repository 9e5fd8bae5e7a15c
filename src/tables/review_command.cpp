// `ur review FILE`: every throw of a recorded game rated against perfect play (a solved
// table), each player's summary and a graph of light's chance (docs/review.md).
#include <cmath>
#include <iostream>
#include <sstream>

#include "analysis/search_values.h"
#include "cli/command.h"
#include "cli/record_files.h"
#include "core/notation.h"
#include "protocol/review_json.h"
#include "records/rgn.h"
#include "tables/solve_progress.h"
#include "tables/table_store.h"
#include "tables/table_values.h"

namespace ur::tables {
namespace {

struct ReviewOptions {
  std::string file;
  std::string table;
  bool json = false;
  bool estimate = false;
};

std::string points(double chance) {
  char text[16];
  std::snprintf(text, sizeof text, "%+.2f", 100.0 * chance);
  return text;
}

std::string percent(double chance) {
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", 100.0 * chance);
  return text;
}

std::string move_text(const records::GameRecord& record, const analysis::ThrowReview& entry) {
  records::Ply ply{entry.side, entry.roll, entry.move};
  return records::action_text(record.rules, ply);
}

// Light's chance before each throw, as rows of text from 100% down to 0%, at most 72 wide.
void print_graph(std::ostream& out, const analysis::Review& review) {
  const std::size_t count = review.throws.size();
  if (count == 0) return;
  constexpr int kRows = 11;
  const std::size_t width = std::min<std::size_t>(count, 72);
  std::vector<std::string> rows(kRows, std::string(width, ' '));
  for (std::string& row : rows) row.assign(width, ' ');
  for (std::size_t column = 0; column < width; ++column) rows[kRows / 2][column] = '-';
  for (std::size_t column = 0; column < width; ++column) {
    const analysis::ThrowReview& entry = review.throws[column * count / width];
    const double light = entry.side == Side::Light ? entry.win_before : 1.0 - entry.win_before;
    const int row = static_cast<int>(std::lround((1.0 - light) * (kRows - 1)));
    rows[row][column] = '*';
  }
  out << "\nlight's chance before each throw (- is 50%):\n";
  for (int row = 0; row < kRows; ++row) {
    char label[8];
    std::snprintf(label, sizeof label, "%4d%% |", 100 - row * 10);
    out << label << rows[row] << "\n";
  }
  out << "       throw 1" << std::string(width > 14 ? width - 14 : 0, ' ') << count << "\n";
}

void print_review(std::ostream& out, const records::GameRecord& record,
                  const analysis::Review& review) {
  out << "values: " << review.source << "\n";
  out << "turn side  roll move       before   best played   loss pp  class       luck pp\n";
  for (const analysis::ThrowReview& entry : review.throws) {
    char line[200];
    std::snprintf(line, sizeof line, "%-4d %-5s %-4d %-10s %6s %6s %6s %9s  %-11s %7s %s",
                  entry.turn, std::string(side_name(entry.side)).c_str(), entry.roll,
                  move_text(record, entry).c_str(), percent(entry.win_before).c_str(),
                  percent(entry.win_best).c_str(), percent(entry.win_played).c_str(),
                  entry.forced ? "" : points(-entry.loss).c_str(),
                  (std::string(to_string(entry.move_class)) + (entry.only_move ? "!" : "")).c_str(),
                  points(entry.luck).c_str(), std::string(to_string(entry.luck_mark)).c_str());
    std::string text = line;
    while (!text.empty() && text.back() == ' ') text.pop_back();
    out << text << "\n";
  }
  for (Side side : {Side::Light, Side::Dark}) {
    const analysis::PlayerSummary& player = review.summary[index_of(side)];
    out << "\n" << side_name(side) << ": " << player.decisions << " decisions";
    for (int i = 1; i < analysis::kMoveClasses; ++i) {
      out << (i == 1 ? " (" : ", ") << player.classes[i] << " "
          << to_string(static_cast<analysis::MoveClass>(i));
    }
    char line[256];
    std::snprintf(line, sizeof line,
                  ")\n  loss %.2f pp in all, %.3f pp a decision · accuracy %.1f · %s\n"
                  "  luck %+.2f pp · luck-adjusted chance %s\n",
                  100.0 * player.total_loss, 100.0 * player.mean_loss, player.accuracy,
                  player.skill.c_str(), 100.0 * player.total_luck,
                  percent(player.luck_adjusted).c_str());
    out << line;
  }
  out << "\nkey moments:";
  for (std::size_t i : review.key_losses) {
    const auto& entry = review.throws[i];
    out << "\n  turn " << entry.turn << " " << side_name(entry.side) << " "
        << move_text(record, entry) << ": lost " << points(entry.loss).substr(1) << " pp ("
        << to_string(entry.move_class) << ")";
  }
  for (std::size_t i : review.key_luck) {
    const auto& entry = review.throws[i];
    out << "\n  turn " << entry.turn << " " << side_name(entry.side) << " threw " << entry.roll
        << ": luck " << points(entry.luck) << " pp";
  }
  out << "\n";
  print_graph(out, review);
  out << "result: "
      << (review.winner ? std::string(side_name(*review.winner)) + " won" : "unfinished") << "\n";
}

int run_review(const ReviewOptions& options) {
  auto text = cli::read_record_file(options.file);
  if (text.index() == 1) {
    std::cerr << "ur review: " << std::get<1>(text) << "\n";
    return 1;
  }
  auto parsed = cli::parse_record_text(std::get<0>(text));
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "ur review: " << options.file << ": " << *error << "\n";
    return 1;
  }
  std::ostringstream out;
  const auto& games = std::get<0>(parsed);
  for (std::size_t g = 0; g < games.size(); ++g) {
    const records::GameRecord& record = games[g];
    std::unique_ptr<analysis::PositionValues> values;
    std::string problem;
    const auto table = find_table(
        record.rules, &problem,
        options.table.empty() ? std::nullopt : std::optional<std::filesystem::path>(options.table));
    if (table) {
      values = std::make_unique<TableValues>(table);
    } else if (options.estimate) {
      values = std::make_unique<analysis::SearchValues>();
    } else {
      const SolveCost cost = estimated_solve_cost(record.rules);
      std::cerr << "ur review: " << problem
                << "\nur review: build the table with `ur solve --pieces " << record.rules.pieces
                << (record.rules.bear_off == BearOff::Any ? " --bear-off any" : "") << "` ("
                << rough_duration(cost.cpu_seconds / 2) << " on two cores), or review with the "
                << "search's estimate: --estimate\n";
      return 1;
    }
    const auto replay = std::get<records::Replay>(records::replay(record));
    const analysis::Review review = analysis::review(record, replay, *values);
    if (options.json) {
      out << protocol::to_json(review).dump() << "\n";
    } else {
      if (g > 0) out << "\n";
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
  command->add_option("--table", options->table,
                      "Solved table for the record's rules (default: the one ur solve wrote)");
  command->add_flag("--json", options->json, "Print one JSON review a game (docs/review.md)");
  command->add_flag("--estimate", options->estimate,
                    "Without a solved table, estimate with an expectimax search (says so)");
  return [options] { return run_review(*options); };
}

const cli::CommandRegistrar review_registrar{71, &setup_review};

}  // namespace
}  // namespace ur::tables
