// `ur record FILE`: replays a game record (RGN or JSON) and prints every ply, or converts
// it between the two forms (docs/records.md).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/command.h"
#include "cli/printable.h"
#include "cli/record_files.h"
#include "core/notation.h"
#include "protocol/record_json.h"
#include "records/rgn.h"

namespace ur::cli {
namespace {

struct RecordOptions {
  std::string file;
  bool json = false;
  std::string to;  // "", "rgn" or "json"
};

std::string move_words(const Rules& rules, const records::Ply& ply) {
  if (!ply.move) return ply.roll == 0 ? "pass (0)" : "pass (no move)";
  std::string text = std::to_string(ply.move->from) + " → ";
  text += ply.move->to >= rules.home_square() ? "home" : std::to_string(ply.move->to);
  return text;
}

void print_game(std::ostream& out, const records::GameRecord& record,
                const records::Replay& replay) {
  for (const records::Tag& tag : record.tags) {
    out << printable(tag.key) << ": " << printable(tag.value) << "\n";
  }
  // The notes column holds its longest text, "captures, throws again" (22 characters).
  out << "turn  side   roll  move           notes                  position after\n";
  for (const records::PlayedPly& played : replay.plies) {
    const records::Ply& ply = played.ply;
    std::string notes;
    if (ply.move && ply.move->capture) notes += "captures";
    if (ply.move && ply.move->extra_throw)
      notes += notes.empty() ? "throws again" : ", throws again";
    // The arrow is one column wide but three bytes, so the move column is padded by hand.
    const std::string move = move_words(record.rules, ply);
    const std::size_t move_columns = move.size() - (ply.move ? 2 : 0);
    char head[64];
    std::snprintf(head, sizeof head, "%-5d %-6s %-5d ", played.turn,
                  std::string(side_name(ply.side)).c_str(), ply.roll);
    char tail[32];
    std::snprintf(tail, sizeof tail, " %-22s ", notes.c_str());
    out << head << move << std::string(move_columns < 14 ? 14 - move_columns : 0, ' ') << tail
        << to_text(played.after) << "\n";
  }
  if (replay.winner) {
    out << "result: " << side_name(*replay.winner) << " won";
    if (record.resigned) out << " (" << side_name(*record.resigned) << " resigned)";
    out << "\n";
  } else {
    out << "result: unfinished\n";
  }
}

int run_record(const RecordOptions& options) {
  auto parsed = read_records(options.file);
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "ur record: " << *error << "\n";
    return 1;
  }
  const auto& games = std::get<0>(parsed);
  std::ostringstream out;
  if (options.to == "rgn") {
    out << records::write_rgn(games);
  } else {
    for (std::size_t i = 0; i < games.size(); ++i) {
      const auto replay = std::get<records::Replay>(records::replay(games[i]));
      if (options.json || options.to == "json") {
        out << protocol::to_json(games[i], replay).dump() << "\n";
      } else {
        if (i > 0) out << "\n";
        print_game(out, games[i], replay);
      }
    }
  }
  std::cout << out.str();  // main reports a lost write (cli/output.h)
  return 0;
}

CommandRunner setup_record(CLI::App& app) {
  auto options = std::make_shared<RecordOptions>();
  CLI::App* command =
      app.add_subcommand("record", "Replay a game record (RGN or JSON) ply by ply, or convert it");
  command->add_option("FILE", options->file, "The record file (RGN or JSON lines); - for stdin")
      ->required();
  command->add_flag("--json", options->json, "Print one JSON record a game (docs/records.md)");
  command->add_option("--to", options->to, "Convert the record: rgn or json")
      ->check(CLI::IsMember({"rgn", "json"}));
  return [options] { return run_record(*options); };
}

const CommandRegistrar registrar{70, &setup_record};

}  // namespace
}  // namespace ur::cli
