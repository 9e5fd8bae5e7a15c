#include "protocol/json.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/explain.h"
#include "core/notation.h"
#include "core/rule_sets.h"

namespace ur::protocol {
namespace {

using nlohmann::json;

// Error messages suggest these; each is a valid 7-piece position (json_test checks).
constexpr std::string_view kSideExample = R"({"start":3,"home":1,"board":[2,5,9]})";
constexpr std::string_view kPositionExample =
    R"({"turn":"light","light":{"start":3,"home":1,"board":[2,5,9]},"dark":{"start":5,"home":0,"board":[7,14]}})";

[[noreturn]] void fail(const std::string& message) {
  throw RequestError(message);
}

std::string join(std::initializer_list<std::string_view> names) {
  std::string text;
  for (std::string_view name : names) {
    if (!text.empty()) text += ", ";
    text += name;
  }
  return text;
}

// Rejects members of `object` outside `allowed`, naming the first stranger.
void reject_unknown_members(const json& object, std::string_view path,
                            std::initializer_list<std::string_view> allowed) {
  for (const auto& [key, value] : object.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      fail(std::string(path) + " has unknown member " + quote_json(key) +
           "; allowed: " + join(allowed));
    }
  }
}

// An integer in min..max, or RequestError naming `path`.
int integer_in_range(const json& value, std::string_view path, int min, int max,
                     std::string_view note = {}) {
  const std::string expected = std::string(path) + " must be an integer " + std::to_string(min) +
                               ".." + std::to_string(max) + std::string(note);
  if (!value.is_number_integer()) fail(expected + ", got " + quote_json(value));
  // Large non-negative literals parse as unsigned and may not fit in int64_t.
  const bool in_range = value.is_number_unsigned()
                            ? value.get<std::uint64_t>() <= static_cast<std::uint64_t>(max) &&
                                  static_cast<std::int64_t>(value.get<std::uint64_t>()) >= min
                            : value.get<std::int64_t>() >= min && value.get<std::int64_t>() <= max;
  if (!in_range) fail(expected + ", got " + quote_json(value));
  return static_cast<int>(value.get<std::int64_t>());
}

const json& member_of(const json& object, std::string_view path, std::string_view key,
                      std::string_view expected) {
  const auto found = object.find(key);
  if (found == object.end()) {
    fail(std::string(path) + " is missing " + quote_json(std::string(key)) + " (" +
         std::string(expected) + ")");
  }
  return *found;
}

// Reads one side's {"start":s,"home":h,"board":[...]} into `position`.
void read_side(const json& value, Side side, const Rules& rules, Position& position) {
  const std::string path = "position." + std::string(side_name(side));
  if (!value.is_object()) {
    fail(path + " must be an object like " + std::string(kSideExample) + ", got " +
         quote_json(value));
  }
  reject_unknown_members(value, path, {"start", "home", "board"});
  const std::string count_range = "an integer 0.." + std::to_string(rules.pieces);
  const int start = integer_in_range(member_of(value, path, "start", count_range), path + ".start",
                                     0, rules.pieces);
  const int home = integer_in_range(member_of(value, path, "home", count_range), path + ".home", 0,
                                    rules.pieces);
  const json& board = member_of(value, path, "board", "an ascending array of route squares");
  if (!board.is_array()) {
    fail(path + ".board must be an ascending array of route squares 1.." +
         std::to_string(rules.route_length) + ", e.g. [2,5,9]; got " + quote_json(board));
  }
  SquareMask mask = 0;
  Square previous = 0;
  for (std::size_t i = 0; i < board.size(); ++i) {
    const std::string item_path = path + ".board[" + std::to_string(i) + "]";
    const Square square = integer_in_range(board[i], item_path, 1, rules.route_length,
                                           " (a route square in this side's own numbering)");
    if (square <= previous) {
      fail(path + ".board must list squares in increasing order without repeats, got " +
           quote_json(board));
    }
    previous = square;
    mask |= square_bit(square);
  }
  const int i = index_of(side);
  position.start[i] = static_cast<std::uint8_t>(start);
  position.home[i] = static_cast<std::uint8_t>(home);
  position.board[i] = mask;
}

std::string legal_sources(const MoveList& moves) {
  std::string text;
  for (const Move& move : moves) {
    if (!text.empty()) text += ", ";
    text += std::to_string(move.from);
  }
  return text;
}

// Optional echo members of a move ("to", "capture", "extra_throw") must match the legal move,
// so that a client may send back a move object exactly as "moves" listed it. The estimates
// "hints" and "best" add ("win", "value") say nothing about which move it is: they are read
// only to check that they are numbers (or null), and ignored.
void check_move_echo(const json& value, const Move& move) {
  for (std::string_view key : {"win", "value"}) {
    const auto found = value.find(key);
    if (found != value.end() && !found->is_number() && !found->is_null()) {
      fail("move." + std::string(key) +
           " must be a number (the estimate hints or best printed), "
           "got " +
           quote_json(*found));
    }
  }
  const json legal = to_json(move);
  for (std::string_view key : {"to", "capture", "extra_throw"}) {
    const auto found = value.find(key);
    if (found != value.end() && *found != legal[std::string(key)]) {
      fail("move." + std::string(key) + " is " + quote_json(*found) + " but the legal move from " +
           std::to_string(move.from) + " is " + quote_json(legal, 120) +
           "; send just {\"from\":" + std::to_string(move.from) + "} or the move as listed");
    }
  }
}

}  // namespace

json to_json(const Position& position) {
  json value;
  value["turn"] = side_name(position.turn);
  for (Side side : {Side::Light, Side::Dark}) {
    json board = json::array();
    for (SquareMask mask = position.board_of(side); mask; mask &= mask - 1) {
      board.push_back(std::countr_zero(mask));
    }
    value[std::string(side_name(side))] = {
        {"start", position.start_of(side)}, {"home", position.home_of(side)}, {"board", board}};
  }
  return value;
}

json to_json(const Move& move) {
  return {{"from", move.from},
          {"to", move.to},
          {"capture", move.capture},
          {"extra_throw", move.extra_throw}};
}

json to_json(const Rules& rules) {
  json out = {{"name", rule_set_name(rules)},
              {"pieces", rules.pieces},
              {"bear_off", to_string(rules.bear_off)}};
  if (out["name"] == "custom") {
    out["board"] = board_name(rules.board);
    out["path"] = path_name(rules.path);
    out["dice"] = rules.dice;
    out["zero_roll"] = zero_roll_name(rules.zero_counts_as_max);
    out["safe_rosettes"] = rules.safe_rosettes;
    out["rosette_extra_throw"] = rules.rosette_gives_extra_throw;
    out["capture_extra_throw"] = rules.capture_gives_extra_throw;
  }
  return out;
}

Position position_from_json(const json& value, const Rules& rules) {
  if (!value.is_object()) {
    fail("position must be an object like " + std::string(kPositionExample) + ", got " +
         quote_json(value));
  }
  reject_unknown_members(value, "position", {"turn", "light", "dark"});
  Position position;
  const json& turn = member_of(value, "position", "turn", R"("light" or "dark")");
  if (turn == "light") {
    position.turn = Side::Light;
  } else if (turn == "dark") {
    position.turn = Side::Dark;
  } else {
    fail(R"(position.turn must be "light" or "dark", got )" + quote_json(turn));
  }
  for (Side side : {Side::Light, Side::Dark}) {
    read_side(
        member_of(value, "position", side_name(side), R"({"start":s,"home":h,"board":[...]})"),
        side, rules, position);
  }
  if (auto error = validate(rules, position)) fail("impossible position: " + *error);
  return position;
}

Rules rules_from_json(const json& value) {
  if (!value.is_object()) {
    fail(
        R"(rules must be an object like {"name":"masters"} or {"pieces":7,"bear_off":"exact"}, got )" +
        quote_json(value));
  }
  reject_unknown_members(value, "rules",
                         {"name", "pieces", "bear_off", "board", "path", "dice", "zero_roll",
                          "safe_rosettes", "rosette_extra_throw", "capture_extra_throw"});
  RuleSpec spec;
  if (const auto name = value.find("name"); name != value.end()) {
    const NamedRuleSet* set = name->is_string() ? find_rule_set(name->get<std::string>()) : nullptr;
    if (name->is_string() && name->get<std::string>() == "custom") {
      set = &named_rule_sets()[0];  // columns start from Finkel's and are overridden below
    } else if (!set) {
      fail("rules.name must be one of " + known_rule_set_names() + " (or \"custom\"), got " +
           quote_json(*name));
    }
    spec = set->spec;
  }
  auto flag = [&value](std::string_view key, bool& field) {
    const auto found = value.find(key);
    if (found == value.end()) return;
    if (!found->is_boolean()) {
      fail("rules." + std::string(key) + " must be true or false, got " + quote_json(*found));
    }
    field = found->get<bool>();
  };
  auto word = [&value](std::string_view key,
                       std::string_view allowed) -> std::optional<std::string> {
    const auto found = value.find(key);
    if (found == value.end()) return std::nullopt;
    if (!found->is_string()) {
      fail("rules." + std::string(key) + " must be one of " + std::string(allowed) + ", got " +
           quote_json(*found));
    }
    return found->get<std::string>();
  };
  if (const auto pieces = value.find("pieces"); pieces != value.end()) {
    spec.pieces = integer_in_range(*pieces, "rules.pieces", Rules::kMinPieces, Rules::kMaxPieces);
  }
  if (const auto bear_off = word("bear_off", R"("exact" or "any")")) {
    if (*bear_off != "exact" && *bear_off != "any") {
      fail(R"(rules.bear_off must be "exact" or "any", got )" + quote_json(*bear_off));
    }
    spec.bear_off = *bear_off == "any" ? BearOff::Any : BearOff::Exact;
  }
  if (const auto board = word("board", kBoardNames)) {
    const auto shape = board_from_name(*board);
    if (!shape)
      fail("rules.board must be one of " + std::string(kBoardNames) + ", got " +
           quote_json(*board));
    spec.board = *shape;
  }
  if (const auto path = word("path", kPathNames)) {
    const auto kind = path_from_name(*path);
    if (!kind)
      fail("rules.path must be one of " + std::string(kPathNames) + ", got " + quote_json(*path));
    spec.path = *kind;
  }
  if (const auto dice = value.find("dice"); dice != value.end()) {
    spec.dice =
        integer_in_range(*dice, "rules.dice", 1, RuleSpec::kMaxDice, " (binary dice thrown)");
  }
  if (const auto zero = word("zero_roll", R"("pass" or "max")")) {
    if (*zero != "pass" && *zero != "max") {
      fail(R"(rules.zero_roll must be "pass" or "max", got )" + quote_json(*zero));
    }
    spec.zero_counts_as_max = *zero == "max";
  }
  flag("safe_rosettes", spec.safe_rosettes);
  flag("rosette_extra_throw", spec.rosette_gives_extra_throw);
  flag("capture_extra_throw", spec.capture_gives_extra_throw);
  if (auto why = why_unplayable(spec)) fail("these rules cannot be played: " + *why);
  return Rules(spec);
}

Rules rules_from_request(const json& request) {
  const auto found = request.find("rules");
  if (found == request.end()) return Rules{};
  return rules_from_json(*found);
}

Roll roll_from_json(const json& value, const Rules& rules) {
  const int roll =
      integer_in_range(value, "roll", min_roll(rules), rules.max_roll(), " (the distance moved)");
  if (!possible_roll(rules, roll)) {
    fail("roll " + std::to_string(roll) + " cannot be thrown under these rules: a throw moves " +
         std::to_string(min_roll(rules)) + ".." + std::to_string(rules.max_roll()));
  }
  return roll;
}

const json& require_member(const json& request, std::string_view key, std::string_view expected) {
  return member_of(request, "request", key, expected);
}

int require_integer(const json& request, std::string_view key, int min, int max) {
  return integer_in_range(
      require_member(request, key,
                     "an integer " + std::to_string(min) + ".." + std::to_string(max)),
      key, min, max);
}

std::uint64_t optional_seed(const json& request, std::string_view key, std::uint64_t fallback) {
  const auto found = request.find(key);
  if (found == request.end()) return fallback;
  // Literals past 2^64 - 1 parse as floating point; values built in code may be signed.
  const bool in_range = found->is_number_unsigned() ||
                        (found->is_number_integer() && found->get<std::int64_t>() >= 0);
  if (!in_range) {
    fail(std::string(key) + " must be an integer 0..18446744073709551615, got " +
         quote_json(*found));
  }
  return found->get<std::uint64_t>();
}

Position position_from_request(const json& request, const Rules& rules) {
  return position_from_json(
      require_member(request, "position", R"(an object like {"turn":"light","light":{...},...})"),
      rules);
}

Roll roll_from_request(const json& request, const Rules& rules) {
  return roll_from_json(require_member(request, "roll",
                                       "an integer " + std::to_string(min_roll(rules)) + ".." +
                                           std::to_string(rules.max_roll())),
                        rules);
}

void require_game_in_progress(const Rules& rules, const Position& position) {
  if (const auto won = winner(rules, position)) {
    fail("the game is over: " + std::string(side_name(*won)) +
         " has all pieces home, so nobody moves; send a position where neither side has " +
         std::to_string(rules.pieces) + " pieces home");
  }
}

std::optional<Move> move_from_request(const json& request, const Rules& rules,
                                      const Position& position, Roll roll) {
  const json& value = require_member(request, "move",
                                     R"({"from":f} with f the square moved from, or null to pass)");
  const MoveList moves = legal_moves(rules, position, roll);
  const std::string roll_text = "roll " + std::to_string(roll);
  if (value.is_null()) {
    if (!moves.empty()) {
      fail("\"move\":null passes, but " + roll_text + " has legal moves from " +
           legal_sources(moves) + R"( (0 is the start pile); send {"from":f} for one of them)");
    }
    return std::nullopt;
  }
  if (!value.is_object()) {
    fail(R"(move must be {"from":f} or null (a pass), got )" + quote_json(value));
  }
  reject_unknown_members(value, "move", {"from", "to", "capture", "extra_throw", "win", "value"});
  const Square from =
      integer_in_range(member_of(value, "move", "from", "the square moved from, 0 = start pile"),
                       "move.from", 0, rules.home_square(), " (0 is the start pile)");
  if (moves.empty()) {
    fail(roll_text + " has no legal move, so the turn must pass: send \"move\":null. " +
         why_pass(rules, position, roll));
  }
  const Move* move = find_move(moves, from);
  if (move == nullptr) {
    fail("move from " + std::to_string(from) + " is not legal with " + roll_text + ": " +
         describe(why_illegal(rules, position, roll, from), rules, roll, from) +
         " Legal moves start from " + legal_sources(moves) + " (0 is the start pile).");
  }
  check_move_echo(value, *move);
  return *move;
}

}  // namespace ur::protocol
