// `ur record FILE`: replays a game record (RGN or JSON) and prints every ply, or converts
// it between the two forms (docs/records.md).
#include <cerrno>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>

#include "cli/command.h"
#include "core/notation.h"
#include "protocol/json.h"
#include "protocol/record_json.h"
#include "records/rgn.h"

namespace ur::cli {
namespace {

// Records are text; anything larger is not one.
constexpr std::size_t kMaxRecordBytes = 64 << 20;

struct RecordOptions {
  std::string file;
  bool json = false;
  std::string to;  // "", "rgn" or "json"
};

// The file's text, or an error line.
std::variant<std::string, std::string> read_text(const std::string& file) {
  std::ifstream stream;
  std::istream* in = &std::cin;
  if (file != "-") {
    stream.open(file, std::ios::binary);
    if (!stream) {
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, "cannot open " + file + ": " + std::strerror(errno));
    }
    in = &stream;
  }
  std::string text;
  char buffer[1 << 16];
  while (in->read(buffer, sizeof buffer) || in->gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in->gcount()));
    if (text.size() > kMaxRecordBytes) {
      return std::variant<std::string, std::string>(
          std::in_place_index<1>, file + " is larger than 64 MiB: not a game record");
    }
  }
  if (in->bad())
    return std::variant<std::string, std::string>(std::in_place_index<1>, "cannot read " + file);
  return std::variant<std::string, std::string>(std::in_place_index<0>, std::move(text));
}

// JSON records start with '{' (one object a line); anything else is read as RGN.
std::variant<std::vector<records::GameRecord>, std::string> parse_records(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos || text[first] != '{') {
    auto games = records::read_rgn(text);
    if (auto* error = std::get_if<records::ParseError>(&games)) return error->text();
    return std::get<0>(std::move(games));
  }
  std::vector<records::GameRecord> games;
  std::size_t line_start = 0;
  int line = 0;
  while (line_start < text.size()) {
    ++line;
    std::size_t end = text.find('\n', line_start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view row = text.substr(line_start, end - line_start);
    line_start = end + 1;
    if (row.find_first_not_of(" \t\r") == std::string_view::npos) continue;
    const std::string where = "line " + std::to_string(line) + ": ";
    if (protocol::nests_too_deeply(row)) return where + "JSON nested too deeply";
    nlohmann::json value;
    try {
      value = nlohmann::json::parse(row);
    } catch (const nlohmann::json::parse_error& error) {
      return "line " + std::to_string(line) + ", column " + std::to_string(error.byte) +
             ": not JSON (" + error.what() + "); expected one JSON record a line";
    }
    try {
      games.push_back(protocol::record_from_json(value));
    } catch (const protocol::RequestError& error) {
      return where + error.what();
    }
  }
  return games;
}

std::string move_words(const Rules& rules, const records::Ply& ply) {
  if (!ply.move) return ply.roll == 0 ? "pass (0)" : "pass (no move)";
  std::string text = std::to_string(ply.move->from) + " → ";
  text += ply.move->to >= rules.home_square() ? "home" : std::to_string(ply.move->to);
  return text;
}

void print_game(std::ostream& out, const records::GameRecord& record,
                const records::Replay& replay) {
  for (const records::Tag& tag : record.tags) out << tag.key << ": " << tag.value << "\n";
  out << "turn  side   roll  move           notes              position after\n";
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
    std::snprintf(tail, sizeof tail, " %-18s ", notes.c_str());
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
  auto text = read_text(options.file);
  if (text.index() == 1) {
    std::cerr << "ur record: " << std::get<1>(text) << "\n";
    return 1;
  }
  auto parsed = parse_records(std::get<0>(text));
  if (auto* error = std::get_if<std::string>(&parsed)) {
    std::cerr << "ur record: " << options.file << ": " << *error << "\n";
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
  std::cout << out.str() << std::flush;
  if (!std::cout) {
    std::cerr << "ur record: cannot write the output\n";
    return 1;
  }
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
