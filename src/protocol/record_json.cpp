#include "protocol/record_json.h"

#include <algorithm>
#include <array>

#include "core/notation.h"
#include "protocol/json.h"
#include "records/rgn.h"

namespace ur::protocol {

using nlohmann::json;

namespace {

[[noreturn]] void fail(const std::string& message) {
  throw RequestError(message);
}

json side_or_null(std::optional<Side> side) {
  return side ? json(side_name(*side)) : json(nullptr);
}

Side side_from(const json& value, const std::string& where) {
  if (value == "light") return Side::Light;
  if (value == "dark") return Side::Dark;
  fail(where + " must be \"light\" or \"dark\", got " + quote_json(value));
}

// ur writes its own tags in this order; other tags follow in the order of their names.
constexpr std::array<std::string_view, 19> kTagOrder = {"Rules",
                                                        records::kBoardTag,
                                                        records::kPathTag,
                                                        records::kDiceTag,
                                                        records::kZeroRollTag,
                                                        records::kSafeRosettesTag,
                                                        records::kRosetteExtraThrowTag,
                                                        records::kCaptureExtraThrowTag,
                                                        "Pieces",
                                                        "BearOff",
                                                        "Light",
                                                        "LightLevel",
                                                        "Dark",
                                                        "DarkLevel",
                                                        "Seed",
                                                        "StartTime",
                                                        "EndTime",
                                                        "Result",
                                                        "TakeBacks"};

std::size_t tag_rank(const std::string& key) {
  const auto found = std::find(kTagOrder.begin(), kTagOrder.end(), key);
  return static_cast<std::size_t>(found - kTagOrder.begin());
}

}  // namespace

json to_json(const records::GameRecord& record, const records::Replay& replay) {
  json tags = json::object();
  for (const records::Tag& tag : record.tags) {
    if (!tags.contains(tag.key)) tags[tag.key] = tag.value;
  }
  json plies = json::array();
  for (const records::PlayedPly& played : replay.plies) {
    const records::Ply& ply = played.ply;
    plies.push_back(
        {{"turn", played.turn},
         {"side", side_name(ply.side)},
         {"roll", ply.roll},
         {"move", ply.move ? json{{"from", ply.move->from}, {"to", ply.move->to}} : json(nullptr)},
         {"capture", ply.move && ply.move->capture},
         {"extra_throw", ply.move && ply.move->extra_throw},
         {"rgn", records::action_text(record.rules, ply)},
         {"position", to_json(played.after)}});
  }
  return {{"rules", to_json(record.rules)},
          {"tags", tags},
          {"plies", plies},
          {"result",
           {{"winner", side_or_null(replay.winner)}, {"resigned", side_or_null(record.resigned)}}}};
}

namespace {

// body(), with a RequestError from it placed at `where` ("plies[3].move: ...").
template <class Body>
auto with_place(const std::string& where, const Body& body) {
  try {
    return body();
  } catch (const RequestError& error) {
    throw RequestError(where + ": " + error.what());
  }
}

}  // namespace

records::GameRecord record_from_json(const json& value) {
  if (!value.is_object()) {
    fail(
        "a JSON record must be an object with \"rules\", \"tags\", \"plies\" and \"result\", "
        "got " +
        quote_json(value));
  }
  for (const auto& [key, member] : value.items()) {
    // "geometry" and "start" (the board drawing and the position before the first ply) are
    // what the server adds to the records it gives out; reading ignores them, so that those
    // records read back.
    if (key != "rules" && key != "tags" && key != "plies" && key != "result" && key != "geometry" &&
        key != "start") {
      fail("unknown member \"" + key +
           "\" in a JSON record; the members are rules, tags, plies and result");
    }
  }
  records::GameRecord record;
  record.rules = rules_from_request(value);
  if (const auto tags = value.find("tags"); tags != value.end()) {
    if (!tags->is_object()) fail("tags must be an object of strings, got " + quote_json(*tags));
    for (const auto& [key, text] : tags->items()) {
      if (!text.is_string()) {
        fail("tags." + key + " must be a string, got " + quote_json(text));
      }
      record.tags.push_back({key, text.get<std::string>()});
    }
    std::stable_sort(record.tags.begin(), record.tags.end(),
                     [](const records::Tag& a, const records::Tag& b) {
                       return tag_rank(a.key) < tag_rank(b.key);
                     });
  }
  const json& plies = require_member(value, "plies", "an array of plies");
  if (!plies.is_array()) fail("plies must be an array, got " + quote_json(plies));
  // The position before each ply, to read each move's capture and extra throw from the
  // rules; once a ply is illegal, replay below reports it.
  std::optional<Position> before;
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const json& ply = plies[i];
    const std::string where = "plies[" + std::to_string(i) + "]";
    if (!ply.is_object()) fail(where + " must be an object, got " + quote_json(ply));
    for (const auto& [key, member] : ply.items()) {
      if (key != "turn" && key != "side" && key != "roll" && key != "move" && key != "capture" &&
          key != "extra_throw" && key != "rgn" && key != "position") {
        fail("unknown member \"" + key + "\" in " + where +
             "; a ply has side, roll and move, and may repeat turn, capture, extra_throw, rgn "
             "and position as ur writes them");
      }
    }
    records::Ply read;
    read.side = side_from(require_member(ply, "side", "\"light\" or \"dark\""), where + ".side");
    read.roll =
        with_place(where, [&] { return require_integer(ply, "roll", 0, record.rules.max_roll()); });
    if (i == 0) {
      record.first = read.side;
      before = records::start_position(record);
    }
    const json& move = require_member(ply, "move", "{\"from\":f,\"to\":t} or null (a pass)");
    if (move.is_null()) {
      if (before && legal_moves(record.rules, *before, read.roll).empty()) {
        before = pass_turn(*before);
      } else {
        before.reset();
      }
    } else {
      if (!move.is_object() || !move.contains("from") || !move.contains("to")) {
        fail(where + ".move must be {\"from\":f,\"to\":t} or null, got " + quote_json(move));
      }
      Move parsed;
      with_place(where + ".move", [&] {
        parsed.from =
            static_cast<std::uint8_t>(require_integer(move, "from", 0, record.rules.route_length));
        parsed.to =
            static_cast<std::uint8_t>(require_integer(move, "to", 1, record.rules.home_square()));
        return 0;
      });
      const MoveList moves = before ? legal_moves(record.rules, *before, read.roll) : MoveList{};
      const Move* legal = find_move(moves, parsed.from);
      if (before && legal && legal->to == parsed.to && before->turn == read.side) {
        parsed = *legal;
        before = apply_move(record.rules, *before, parsed);
      } else {
        before.reset();
      }
      read.move = parsed;
    }
    record.plies.push_back(read);
  }
  if (const auto result = value.find("result"); result != value.end() && result->is_object()) {
    if (const auto resigned = result->find("resigned");
        resigned != result->end() && !resigned->is_null()) {
      record.resigned = side_from(*resigned, "result.resigned");
    }
  }
  // In RGN only the Result tag says who resigned: a record that names the resignation without
  // it gets it, so that RGN written from it reads back.
  if (record.resigned && record.tag("Result") == nullptr) {
    record.tags.push_back({"Result", *record.resigned == Side::Light ? "0-1" : "1-0"});
    std::stable_sort(record.tags.begin(), record.tags.end(),
                     [](const records::Tag& a, const records::Tag& b) {
                       return tag_rank(a.key) < tag_rank(b.key);
                     });
  }
  const auto played = records::replay(record);
  if (const auto* error = std::get_if<records::ReplayError>(&played)) {
    fail("plies[" + std::to_string(error->ply) + "]: " + error->message);
  }
  const auto& replayed = std::get<records::Replay>(played);
  // The members ur writes beside side, roll and move follow from them; given, they must agree,
  // or RGN written from this record would say something else than the JSON.
  // `decided` says what decides the member: "the ply makes" or "the plies make". Only the
  // winner can be null: an unfinished game's.
  const auto must_match = [](const json& ply, const char* key, const json& expected,
                             const std::string& where, std::string_view decided = "the ply makes") {
    const auto given = ply.find(key);
    if (given == ply.end() || *given == expected) return;
    if (expected.is_null()) {
      fail(where + "." + key + " is " + quote_json(*given) +
           ", but the plies end with no winner: expected null");
    }
    fail(where + "." + key + " is " + quote_json(*given) + ", but " + std::string(decided) +
         " it " + quote_json(expected));
  };
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const records::PlayedPly& played_ply = replayed.plies[i];
    const std::string where = "plies[" + std::to_string(i) + "]";
    const std::optional<Move>& move = played_ply.ply.move;
    must_match(plies[i], "turn", played_ply.turn, where);
    must_match(plies[i], "capture", move && move->capture, where);
    must_match(plies[i], "extra_throw", move && move->extra_throw, where);
    must_match(plies[i], "rgn", records::action_text(record.rules, played_ply.ply), where);
  }
  if (const auto result = value.find("result"); result != value.end() && result->is_object()) {
    must_match(*result, "winner", side_or_null(replayed.winner), "result", "the plies make");
  }
  // A game won on the board ended there: nobody resigned it (RGN could not even say so). The
  // replay's winner counts a resignation too, so the board itself is asked.
  const Position& last = replayed.plies.empty() ? replayed.start : replayed.plies.back().after;
  const bool won_on_board = last.home_of(Side::Light) == record.rules.pieces ||
                            last.home_of(Side::Dark) == record.rules.pieces;
  if (won_on_board && replayed.winner && record.resigned) {
    fail("result.resigned is " + quote_json(side_or_null(record.resigned)) + ", but " +
         std::string(side_name(*replayed.winner)) +
         " won on the board, so nobody resigned: expected null");
  }
  if (auto problem =
          records::result_tag_problem(record, replayed.winner, record.resigned.has_value())) {
    fail("tags.Result: " + *problem);
  }
  if (std::any_of(record.tags.begin(), record.tags.end(),
                  [](const records::Tag& tag) { return records::is_rules_tag(tag.key); })) {
    const auto named = records::rules_from_tags(record.tags);
    if (const auto* error = std::get_if<records::TagError>(&named)) {
      fail("tags." + record.tags[error->tag].key + ": " + error->message);
    }
    if (std::get<Rules>(named) != record.rules) {
      const auto tags_text = [](const std::vector<records::Tag>& tags) {
        std::string text;
        for (const records::Tag& tag : tags) {
          text += (text.empty() ? "" : ", ") + tag.key + " " + tag.value;
        }
        return text;
      };
      fail("the tags name other rules (" + tags_text(records::rules_tags(std::get<Rules>(named))) +
           ") than \"rules\" does (" + tags_text(records::rules_tags(record.rules)) + ")");
    }
  }
  for (std::size_t i = 0; i < plies.size(); ++i) {
    const auto position = plies[i].find("position");
    if (position == plies[i].end()) continue;
    const std::string where = "plies[" + std::to_string(i) + "].position";
    if (with_place(where, [&] { return position_from_json(*position, record.rules); }) !=
        replayed.plies[i].after) {
      fail("plies[" + std::to_string(i) +
           "].position is not the position after the ply: "
           "expected " +
           to_text(replayed.plies[i].after));
    }
  }
  return record;
}

// JSON records start with '{' (one object a line); anything else is read as RGN.
std::variant<std::vector<records::GameRecord>, std::string> parse_record_text(
    std::string_view text) {
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);  // a UTF-8 byte order mark
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
    if (nests_too_deeply(row)) return where + "JSON nested too deeply";
    nlohmann::json value;
    try {
      value = parse_json_text(row);
    } catch (const JsonTextError& error) {
      return where.substr(0, where.size() - 2) +
             (error.byte() > 0 ? ", column " + std::to_string(error.byte()) : "") + ": not JSON (" +
             error.what() + "); expected one JSON record a line";
    }
    try {
      games.push_back(record_from_json(value));
    } catch (const RequestError& error) {
      return where + error.what();
    }
  }
  return games;
}

}  // namespace ur::protocol
