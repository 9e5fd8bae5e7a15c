#include "records/rgn.h"

#include <algorithm>
#include <bit>
#include <cctype>
#include <charconv>
#include <cstdio>

#include "core/rule_sets.h"

namespace ur::records {

namespace {

char own_lane(Side side) {
  return side == Side::Light ? 'A' : 'C';
}

// The squares of `side`'s route on the tile `lane``number`: one, two where the path crosses
// itself (Murray, Skiriuk), or none.
SquareMask squares_on_tile(const Rules& rules, Side side, char lane, int number) {
  if (lane < 'A' || lane > 'C' || number < 1 || number > board_columns(rules.board)) return 0;
  const Cell cell{static_cast<std::uint8_t>(lane - 'A'), static_cast<std::uint8_t>(number)};
  SquareMask squares = 0;
  for (Square square = 1; square <= rules.route_length; ++square) {
    if (square_cell(rules, side, square) == cell) squares |= square_bit(square);
  }
  return squares;
}

}  // namespace

std::string tile_name(const Rules& rules, Side side, Square square) {
  if (square <= 0 || square >= rules.home_square()) return std::string(1, own_lane(side));
  return ur::tile_name(square_cell(rules, side, square));
}

std::string escape_tag_value(std::string_view value) {
  bool bare = !value.empty();
  for (std::size_t i = 0; i < value.size() && bare; ++i) {
    const unsigned char c = static_cast<unsigned char>(value[i]);
    const bool letter = std::isalpha(c) != 0 && c < 128;
    const bool later = i > 0 && ((c >= '0' && c <= '9') || c == '_' || c == '.' || c == '-');
    bare = letter || later;
  }
  if (bare) return std::string(value);
  std::string out = "\"";
  for (char c : value) {
    switch (c) {
      case '"':
        out += "\\\"";
        break;
      case '\\':
        out += "\\\\";
        break;
      case '\r':
        out += "\\r";
        break;
      case '\n':
        out += "\\n";
        break;
      default:
        out += c;
    }
  }
  return out + "\"";
}

namespace {

// RoyalUr wraps a turn's actions onto a new line once the turn reaches this length.
constexpr std::size_t kMaxTurnLine = 60;

}  // namespace

std::string action_text(const Rules& rules, const Ply& ply) {
  if (!ply.move) return std::to_string(ply.roll) + " --";
  const Move& move = *ply.move;
  std::string text;
  if (move.from == 0) {
    text += own_lane(ply.side);
    text += '@';
  } else {
    text += tile_name(rules, ply.side, move.from);
  }
  if (move.to >= rules.home_square()) {
    text += own_lane(ply.side);
    text += '+';
  } else {
    text += tile_name(rules, ply.side, move.to);
  }
  if (move.capture) text += 'x';
  if (move.to < rules.home_square() && (rules.rosettes & square_bit(move.to))) text += " *";
  return text;
}

namespace {

bool finished(const GameRecord& record, const Replay* played) {
  return record.resigned || (played && played->winner);
}

}  // namespace

std::string write_rgn(const GameRecord& record) {
  std::string out;
  for (const Tag& tag : record.tags) {
    out += '[';
    out += escape_tag_value(tag.key);
    out += ' ';
    out += escape_tag_value(tag.value);
    out += "]\n";
  }
  if (!out.empty()) out += "\n";

  const auto played = replay(record);
  const bool over = finished(record, std::get_if<Replay>(&played));
  std::string turn_line;
  std::size_t turn_length = 0;
  int light_turns = 0;
  std::optional<Side> previous;
  bool first_line = true;
  for (std::size_t i = 0; i < record.plies.size(); ++i) {
    const Ply& ply = record.plies[i];
    std::string action;
    if (ply.side != previous) {
      previous = ply.side;
      if (ply.side == Side::Light) {
        action += std::to_string(++light_turns) + ". ";
      } else {
        action += "/ ";
      }
    }
    action += action_text(record.rules, ply);
    const bool last = i + 1 == record.plies.size();
    if (last && over) action += "#";

    turn_length += action.size();
    if (!turn_line.empty()) {
      if (turn_length + 1 < kMaxTurnLine) {
        turn_line += " ";
        turn_length += 1;
      } else {
        turn_line += "\n";
        turn_length = action.size();
      }
    }
    turn_line += action;
    // A line holds light's turn and dark's answer; it ends when dark's actions do.
    if (last || (ply.side == Side::Dark && record.plies[i + 1].side != Side::Dark)) {
      if (!first_line) out += "\n";
      first_line = false;
      out += turn_line;
      turn_line.clear();
      turn_length = 0;
    }
  }
  return out + "\n";
}

std::string write_rgn(const std::vector<GameRecord>& records) {
  std::string out;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (i > 0) out += "\n";
    out += write_rgn(records[i]);
  }
  return out;
}

std::string ParseError::text() const {
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": " + message;
}

namespace {

std::string lowered(std::string_view text) {
  std::string out;
  for (char c : text) out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// The columns a Rules tag names, before column tags, Pieces and BearOff change them.
std::variant<RuleSpec, std::string> spec_from_name(std::string_view name) {
  const std::string lower = lowered(name);
  if (const NamedRuleSet* set = find_rule_set(lower)) return set->spec;
  // RoyalUr's variants of its sets, as its site names them.
  if (lower == "finkel with two pieces") {
    RuleSpec spec = find_rule_set("finkel")->spec;
    spec.pieces = 2;
    return spec;
  }
  if (lower == "masters with four dice") {
    // Four ordinary dice, whose throw of no marks passes (as in Finkel's set).
    RuleSpec spec = find_rule_set("masters")->spec;
    spec.dice = 4;
    spec.zero_counts_as_max = false;
    return spec;
  }
  if (lower == "custom") return RuleSpec{};
  std::string titles;
  for (const NamedRuleSet& set : named_rule_sets()) titles += std::string(set.title) + ", ";
  return "unknown rule set \"" + std::string(name) + "\"; the Rules tag names one of " + titles +
         "\"Finkel with Two Pieces\", \"Masters with Four Dice\" or Custom (with column tags)";
}

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number_of(std::string_view digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size() ? value : -1;
}

std::string_view yes_no(bool value) {
  return value ? "yes" : "no";
}

}  // namespace

std::variant<Rules, std::string> rules_from_name(std::string_view name) {
  auto spec = spec_from_name(name);
  if (auto* error = std::get_if<std::string>(&spec)) return *error;
  if (auto why = why_unplayable(std::get<RuleSpec>(spec))) return *why;
  return Rules(std::get<RuleSpec>(spec));
}

std::vector<Tag> rules_tags(const Rules& rules) {
  const NamedRuleSet* set = find_rule_set(rule_set_name(rules));
  const RuleSpec base = set ? set->spec : RuleSpec{};
  std::vector<Tag> tags{{"Rules", set ? std::string(set->title) : "Custom"}};
  if (!set) {
    tags.push_back({std::string(kBoardTag), std::string(board_name(rules.board))});
    tags.push_back({std::string(kPathTag), std::string(path_name(rules.path))});
    tags.push_back({std::string(kDiceTag), std::to_string(rules.dice)});
    tags.push_back(
        {std::string(kZeroRollTag), std::string(zero_roll_name(rules.zero_counts_as_max))});
    tags.push_back({std::string(kSafeRosettesTag), std::string(yes_no(rules.safe_rosettes))});
    tags.push_back(
        {std::string(kRosetteExtraThrowTag), std::string(yes_no(rules.rosette_gives_extra_throw))});
    tags.push_back(
        {std::string(kCaptureExtraThrowTag), std::string(yes_no(rules.capture_gives_extra_throw))});
  }
  if (rules.pieces != base.pieces) tags.push_back({"Pieces", std::to_string(rules.pieces)});
  if (rules.bear_off != base.bear_off) {
    tags.push_back({"BearOff", std::string(to_string(rules.bear_off))});
  }
  return tags;
}

namespace {

std::optional<bool> yes_no_of(std::string_view value) {
  const std::string lower = lowered(value);
  if (lower == "yes") return true;
  if (lower == "no") return false;
  return std::nullopt;
}

}  // namespace

bool is_rules_tag(std::string_view key) {
  return key == "Rules" || key == "Pieces" || key == "BearOff" || key == kBoardTag ||
         key == kPathTag || key == kDiceTag || key == kZeroRollTag || key == kSafeRosettesTag ||
         key == kRosetteExtraThrowTag || key == kCaptureExtraThrowTag;
}

std::variant<Rules, TagError> rules_from_tags(const std::vector<Tag>& tags) {
  RuleSpec spec;
  for (std::size_t i = 0; i < tags.size(); ++i) {
    if (tags[i].key != "Rules") continue;
    auto named = spec_from_name(tags[i].value);
    if (auto* error = std::get_if<std::string>(&named)) return TagError{i, *error};
    spec = std::get<RuleSpec>(named);
    break;
  }
  for (std::size_t i = 0; i < tags.size(); ++i) {
    const std::string& key = tags[i].key;
    const std::string& value = tags[i].value;
    auto fail = [&](std::string expected) {
      return TagError{i, "the " + key + " tag must be " + expected + ", found \"" + value + "\""};
    };
    auto flag = [&](bool& field) -> std::optional<TagError> {
      const auto parsed = yes_no_of(value);
      if (!parsed) return fail("yes or no");
      field = *parsed;
      return std::nullopt;
    };
    std::optional<TagError> error;
    if (key == "Pieces") {
      const int pieces = all_digits(value) ? number_of(value) : -1;
      if (pieces < Rules::kMinPieces || pieces > Rules::kMaxPieces) return fail("1 to 7");
      spec.pieces = pieces;
    } else if (key == "BearOff") {
      if (value != "exact" && value != "any") return fail("exact or any");
      spec.bear_off = value == "any" ? BearOff::Any : BearOff::Exact;
    } else if (key == kBoardTag) {
      const auto board = board_from_name(lowered(value));
      if (!board) return fail("one of " + std::string(kBoardNames));
      spec.board = *board;
    } else if (key == kPathTag) {
      const auto path = path_from_name(lowered(value));
      if (!path) return fail("one of " + std::string(kPathNames));
      spec.path = *path;
    } else if (key == kDiceTag) {
      const int dice = all_digits(value) ? number_of(value) : -1;
      if (dice < 1 || dice > RuleSpec::kMaxDice) {
        return fail("1 to " + std::to_string(RuleSpec::kMaxDice));
      }
      spec.dice = dice;
    } else if (key == kZeroRollTag) {
      const std::string lower = lowered(value);
      if (lower != zero_roll_name(false) && lower != zero_roll_name(true)) {
        return fail(std::string(zero_roll_name(false)) + " or " +
                    std::string(zero_roll_name(true)));
      }
      spec.zero_counts_as_max = lower == zero_roll_name(true);
    } else if (key == kSafeRosettesTag) {
      error = flag(spec.safe_rosettes);
    } else if (key == kRosetteExtraThrowTag) {
      error = flag(spec.rosette_gives_extra_throw);
    } else if (key == kCaptureExtraThrowTag) {
      error = flag(spec.capture_gives_extra_throw);
    }
    if (error) return *error;
  }
  if (auto why = why_unplayable(spec)) {
    std::size_t at = 0;
    for (std::size_t i = 0; i < tags.size(); ++i) {
      if (tags[i].key == "Rules") at = i;
    }
    return TagError{at, "these rules cannot be played: " + *why};
  }
  return Rules(spec);
}

namespace {

// A cursor over the text that knows its line and column.
class Reader {
 public:
  explicit Reader(std::string_view text) : text_(text) {}

  bool done() const { return at_ >= text_.size(); }
  char peek() const { return done() ? '\0' : text_[at_]; }
  char take() {
    const char c = text_[at_++];
    if (c == '\n') {
      ++line_;
      column_ = 1;
    } else {
      ++column_;
    }
    return c;
  }
  void skip_blanks() {
    while (!done() && (peek() == ' ' || peek() == '\t' || peek() == '\r')) take();
  }
  void skip_space() {
    while (!done() && std::isspace(static_cast<unsigned char>(peek()))) take();
  }
  int line() const { return line_; }
  int column() const { return column_; }
  ParseError error(std::string message) const { return {line_, column_, std::move(message)}; }
  // The next word, left unread.
  std::string peek_word() const {
    std::size_t end = at_;
    while (end < text_.size() && !std::isspace(static_cast<unsigned char>(text_[end]))) ++end;
    return std::string(text_.substr(at_, end - at_));
  }
  // The characters up to the next white space.
  std::string word() {
    std::string out;
    while (!done() && !std::isspace(static_cast<unsigned char>(peek()))) out += take();
    return out;
  }

 private:
  std::string_view text_;
  std::size_t at_ = 0;
  int line_ = 1;
  int column_ = 1;
};

std::string shown(std::string_view found) {
  if (found.empty()) return "the end of the text";
  std::string out = "\"";
  for (char c : found.substr(0, 40)) {
    const unsigned char u = static_cast<unsigned char>(c);
    if (u < 32 || u >= 127) {
      char hex[8];
      std::snprintf(hex, sizeof hex, "\\x%02x", u);
      out += hex;
    } else {
      out += c;
    }
  }
  return out + (found.size() > 40 ? "...\"" : "\"");
}

// A tag key or value: bare, or quoted with \" \\ \r \n escapes.
std::variant<std::string, ParseError> tag_word(Reader& in, bool key) {
  std::string out;
  if (in.peek() == '"') {
    in.take();
    while (true) {
      if (in.done() || in.peek() == '\n') return in.error("a quoted tag text is not closed by \"");
      char c = in.take();
      if (c == '"') break;
      if (c == '\\') {
        if (in.done()) return in.error("a tag text ends after a backslash");
        const char escaped = in.take();
        if (escaped == 'n') {
          c = '\n';
        } else if (escaped == 'r') {
          c = '\r';
        } else if (escaped == '"' || escaped == '\\') {
          c = escaped;
        } else {
          return in.error("unknown escape \\" + std::string(1, escaped) +
                          " in a tag; use \\\" \\\\ \\r or \\n");
        }
      }
      out += c;
    }
    return out;
  }
  while (!in.done() && in.peek() != ']' && in.peek() != '\n' &&
         (!key || (in.peek() != ' ' && in.peek() != '\t'))) {
    out += in.take();
  }
  while (!key && !out.empty() && (out.back() == ' ' || out.back() == '\r')) out.pop_back();
  if (out.empty()) {
    return in.error(std::string("expected a tag ") + (key ? "name" : "value") + ", found " +
                    shown(std::string(1, in.peek())));
  }
  return out;
}

std::variant<Tag, ParseError> tag_line(Reader& in) {
  in.take();  // '['
  auto key = tag_word(in, true);
  if (auto* error = std::get_if<ParseError>(&key)) return *error;
  // Like PGN, any run of spaces or tabs parts the name from the value.
  if (in.peek() != ' ' && in.peek() != '\t') {
    return in.error("expected a space after the tag name, found " +
                    shown(std::string(1, in.peek())));
  }
  in.skip_blanks();
  auto value = tag_word(in, false);
  if (auto* error = std::get_if<ParseError>(&value)) return *error;
  in.skip_blanks();
  if (in.peek() != ']') {
    return in.error("expected ] to close the tag, found " + shown(std::string(1, in.peek())));
  }
  in.take();
  in.skip_blanks();
  if (!in.done() && in.peek() != '\n') {
    return in.error("expected the end of the line after a tag, found " + shown(in.word()));
  }
  return Tag{std::get<std::string>(std::move(key)), std::get<std::string>(std::move(value))};
}

// The squares a tile or pile names on `side`'s route: "A@"'s pile is 0, "A+" is home; a
// tile the path crosses twice names both of its squares.
SquareMask squares_of(const Rules& rules, Side side, char lane, std::string_view rest,
                      bool source) {
  if (rest == (source ? "@" : "+")) {
    if (lane != own_lane(side)) return 0;
    return square_bit(source ? 0 : rules.home_square());
  }
  if (!all_digits(rest)) return 0;
  return squares_on_tile(rules, side, lane, number_of(rest));
}

// The move FROM-TO names: the pair of their squares that goes forward by a throw the dice
// can show, the shortest if several do (only a path that crosses itself has several).
std::optional<std::pair<Square, Square>> forward_pair(const Rules& rules, SquareMask from,
                                                      SquareMask to) {
  std::optional<std::pair<Square, Square>> best;
  for (SquareMask f = from; f; f &= f - 1) {
    for (SquareMask t = to; t; t &= t - 1) {
      const Square a = std::countr_zero(f);
      const Square b = std::countr_zero(t);
      const int distance = b - a;
      if (possible_roll(rules, distance) && (!best || distance < best->second - best->first))
        best = {a, b};
    }
  }
  return best;
}

struct Located {
  int line;
  int column;
};

// On a path that crosses itself a tile names two squares, and forward_pair read each move
// without the position. A piece on 11 (B7) that throws 7 to 18 (B6) is written B7B6, which
// reads alone as 17 -> 18. Played through from the start, a move is the reading whose source
// holds the mover's piece and that the position allows, the read one first, then the shortest.
// A record that cannot be followed is left as read: the replay names its fault.
void resolve_crossing_moves(GameRecord& record) {
  const Rules& rules = record.rules;
  if (!rules.self_crossing || record.plies.empty()) return;
  std::optional<Position> position = start_position(record);
  if (!position) return;
  const auto visits = [&](Square square) {
    return square > 0 && square < rules.home_square() ? square_bit(square) | rules.same_cell[square]
                                                      : square_bit(square);
  };
  for (Ply& ply : record.plies) {
    if (ply.side != position->turn) return;
    if (!ply.move) {
      *position = pass_turn(*position);
      continue;
    }
    // Every reading of FROM-TO, the one read first, then the shorter before the longer.
    std::vector<std::pair<Square, Square>> readings = {{ply.move->from, ply.move->to}};
    for (SquareMask f = visits(ply.move->from); f; f &= f - 1) {
      for (SquareMask t = visits(ply.move->to); t; t &= t - 1) {
        readings.emplace_back(std::countr_zero(f), std::countr_zero(t));
      }
    }
    std::stable_sort(readings.begin() + 1, readings.end(), [](const auto& a, const auto& b) {
      return a.second - a.first < b.second - b.first;
    });
    std::optional<Move> chosen;
    for (const auto& [from, to] : readings) {
      const int roll = to - from;
      if (roll <= 0 || !possible_roll(rules, roll)) continue;
      const MoveList moves = legal_moves(rules, *position, roll);
      const Move* legal = find_move(moves, from);
      if (legal && legal->to == to) {
        chosen = *legal;
        break;
      }
    }
    if (!chosen) return;
    ply.roll = chosen->to - chosen->from;
    ply.move->from = chosen->from;
    ply.move->to = chosen->to;
    ply.move->extra_throw = chosen->extra_throw;
    *position = apply_move(rules, *position, *chosen);
  }
}

// Replays the record's plies, the first mover being the first ply's; an illegal ply is reported
// at its place in the text (`where`, one per ply), or at `end` when there are no plies.
std::variant<Replay, ParseError> replay_at(GameRecord& record, const std::vector<Located>& where,
                                           Located end) {
  if (!record.plies.empty()) record.first = record.plies.front().side;
  resolve_crossing_moves(record);
  auto played = replay(record);
  if (auto* error = std::get_if<ReplayError>(&played)) {
    const Located at = where.empty() ? end : where[error->ply];
    return ParseError{at.line, at.column, error->message};
  }
  return std::get<Replay>(std::move(played));
}

std::variant<GameRecord, ParseError> apply_tags(GameRecord record, const std::vector<Located>& at) {
  auto rules = rules_from_tags(record.tags);
  if (auto* error = std::get_if<TagError>(&rules)) {
    return ParseError{at[error->tag].line, at[error->tag].column, error->message};
  }
  record.rules = std::get<Rules>(rules);
  return record;
}

// Where the Result tag of a game read with tags at `tag_at` is, or where the game ends.
Located result_tag_at(const GameRecord& record, const std::vector<Located>& tag_at,
                      Located otherwise) {
  for (std::size_t i = 0; i < record.tags.size() && i < tag_at.size(); ++i) {
    if (record.tags[i].key == "Result") return tag_at[i];
  }
  return otherwise;
}

// The plies of one game, from the text after its tags up to the next tag line; `tag_at` holds
// where each of its tags was read.
std::variant<GameRecord, ParseError> game_body(Reader& in, GameRecord record,
                                               const std::vector<Located>& tag_at) {
  std::vector<Located> where;
  std::optional<Side> side;
  int light_turns = 0;
  bool ended = false;
  int ended_line = 0;  // the line of the # that ended the game
  while (true) {
    const int line_before = in.line();
    in.skip_space();
    if (in.done() || in.peek() == '[') break;
    // "1. A@A3# / C@C3" read the rest of the line as a second game, without the tags.
    if (ended && in.line() == ended_line) {
      return ParseError{in.line(), in.column(),
                        "# ends the game, but the line goes on with " + shown(in.peek_word()) +
                            ": a new game starts on a line of its own"};
    }
    // A game without tags begins after the previous one's # or after a blank line.
    const bool blank_line = in.line() > line_before + 1;
    if (ended || (blank_line && !record.plies.empty() && in.peek_word() == "1.")) break;
    const Located at{in.line(), in.column()};
    std::string word = in.word();
    if (word.size() > 1 && word.back() == '.' && all_digits(word.substr(0, word.size() - 1))) {
      const int number = number_of(word.substr(0, word.size() - 1));
      if (number != light_turns + 1) {
        return ParseError{
            at.line, at.column,
            "expected turn " + std::to_string(light_turns + 1) + ", found " + shown(word)};
      }
      light_turns = number;
      side = Side::Light;
      continue;
    }
    if (word == "/") {
      side = Side::Dark;
      continue;
    }
    if (!side) {
      return ParseError{at.line, at.column,
                        "expected a turn number such as \"1.\" or \"/\" before the first "
                        "action, found " +
                            shown(word)};
    }
    if (word.back() == '#') {
      ended = true;
      ended_line = at.line;
      word.pop_back();
    }
    Ply ply{*side, 0, std::nullopt};
    if (all_digits(word)) {
      ply.roll = number_of(word);
      in.skip_blanks();
      const Located dash_at{in.line(), in.column()};
      std::string dash = in.word();
      if (!ended && dash.size() == 3 && dash == "--#") {
        ended = true;
        ended_line = dash_at.line;
        dash.pop_back();
      }
      if (dash != "--") {
        return ParseError{dash_at.line, dash_at.column,
                          "expected -- after the throw " + word +
                              " (a throw with no move), found " + shown(dash)};
      }
    } else {
      // FROM TO [x]: FROM is a tile or LANE@ (entering), TO a tile or LANE+ (bearing off).
      auto bad = [&](const std::string& why) {
        return ParseError{at.line, at.column,
                          "expected a move such as A@A4, A4A1, B3B5x or A7A+, or a throw with no "
                          "move such as \"0 --\", found " +
                              shown(word) + why};
      };
      std::string text = word;
      bool capture = false;
      if (!text.empty() && text.back() == 'x') {
        capture = true;
        text.pop_back();
      }
      if (text.size() < 4 || !std::isupper(static_cast<unsigned char>(text[0]))) return bad("");
      std::size_t split = 1;
      while (split < text.size() && !std::isupper(static_cast<unsigned char>(text[split]))) ++split;
      if (split >= text.size()) return bad("");
      const SquareMask from = squares_of(record.rules, *side, text[0],
                                         std::string_view(text).substr(1, split - 1), true);
      const SquareMask to = squares_of(record.rules, *side, text[split],
                                       std::string_view(text).substr(split + 1), false);
      const std::string who = *side == Side::Light ? "light" : "dark";
      if (!from) return bad(": " + text.substr(0, split) + " is not on " + who + "'s path");
      if (!to) return bad(": " + text.substr(split) + " is not on " + who + "'s path");
      const auto pair = forward_pair(record.rules, from, to);
      if (!pair) {
        return bad(": a move goes forward along the path by a throw of " +
                   std::to_string(min_roll(record.rules)) + " to " +
                   std::to_string(record.rules.max_roll()));
      }
      const auto [from_square, to_square] = *pair;
      Move move;
      move.from = static_cast<std::uint8_t>(from_square);
      move.to = static_cast<std::uint8_t>(to_square);
      move.capture = capture;
      // A bear-off that may overshoot (bear-off "any") is read as the least throw that
      // makes it: RGN keeps the move, not the throw.
      ply.roll = to_square - from_square;
      const bool rosette =
          to_square < record.rules.home_square() && (record.rules.rosettes & square_bit(to_square));
      move.extra_throw = (record.rules.extra_throw & square_bit(to_square)) != 0 ||
                         (capture && record.rules.capture_gives_extra_throw);
      ply.move = move;
      if (rosette && !ended) {
        in.skip_blanks();
        const Located star_at{in.line(), in.column()};
        std::string star = in.word();
        if (star == "*#") {
          ended = true;
          ended_line = star_at.line;
          star.pop_back();
        }
        if (star != "*") {
          // A move that is not legal at all is reported as such, not for its missing star.
          record.plies.push_back(ply);
          where.push_back(at);
          const auto played = replay_at(record, where, at);
          if (auto* illegal = std::get_if<ParseError>(&played)) return *illegal;
          return ParseError{
              star_at.line, star_at.column,
              word + " lands on a rosette: expected \" *\" after it, found " + shown(star)};
        }
      }
    }
    record.plies.push_back(ply);
    where.push_back(at);
  }
  const auto played = replay_at(record, where, {in.line(), in.column()});
  if (auto* illegal = std::get_if<ParseError>(&played)) return *illegal;
  // A game that ended off the board (a resignation) says so in its Result tag; its last
  // action carries #, unless it ended before any throw.
  const auto& replayed = std::get<Replay>(played);
  // # says the game ended off the board; only the Result tag says who resigned.
  if (!replayed.winner && ended && record.tag("Result") == nullptr) {
    const Located at = where.empty() ? Located{in.line(), in.column()} : where.back();
    return ParseError{at.line, at.column,
                      "the game ends with # (a resignation), but no Result tag says who won: "
                      "add [Result \"1-0\"] (light won) or [Result \"0-1\"] (dark won)"};
  }
  if (!replayed.winner && (ended || record.plies.empty())) {
    const std::string* result = record.tag("Result");
    if (result && (*result == "1-0" || *result == "0-1")) {
      record.resigned = *result == "1-0" ? Side::Dark : Side::Light;
    }
  }
  if (auto problem = result_tag_problem(record, replayed.winner, ended)) {
    const Located at = result_tag_at(record, tag_at, {in.line(), in.column()});
    return ParseError{at.line, at.column, *problem};
  }
  return record;
}

}  // namespace

// Why the Result tag disagrees with the game, or nothing: "1-0" is light's win, "0-1" dark's
// (on the board, or by the other's resignation: the last action carries #), "*" a game
// still being played.
std::optional<std::string> result_tag_problem(const GameRecord& record, std::optional<Side> winner,
                                              bool ended) {
  const std::string* result = record.tag("Result");
  if (result == nullptr) return std::nullopt;
  if (*result != "1-0" && *result != "0-1" && *result != "*") {
    return "the Result tag is " + shown(*result) +
           ": expected \"1-0\" (light won), \"0-1\" (dark won) or \"*\" (unfinished)";
  }
  const std::string said = *result == "1-0"   ? "light won"
                           : *result == "0-1" ? "dark won"
                                              : "the game is unfinished";
  if (!winner) winner = record.resigned ? std::optional(opponent(*record.resigned)) : std::nullopt;
  if (winner) {
    const std::string expected = *winner == Side::Light ? "1-0" : "0-1";
    if (*result == expected) return std::nullopt;
    return "the Result tag says " + said + " (" + *result + "), but " +
           (*winner == Side::Light ? "light" : "dark") + " won: expected \"" + expected + "\"";
  }
  if (ended) {
    return "the game ends with # but the Result tag says " + said +
           ": expected \"1-0\" or \"0-1\" for the side that won";
  }
  if (*result == "*") return std::nullopt;
  return "the Result tag says " + said + " (" + *result +
         "), but nobody has brought every piece home and the last action carries no # (a "
         "resignation): expected \"*\"";
}

std::variant<std::vector<GameRecord>, ParseError> read_rgn(std::string_view text) {
  std::vector<GameRecord> games;
  // Editors on some systems start a UTF-8 file with a byte order mark; it is not part of RGN.
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  Reader in(text);
  in.skip_space();
  if (in.done())
    return in.error(
        "the record is empty: expected tags like [Rules Finkel] or turns like \"1. A@A4\"");
  while (true) {
    in.skip_space();
    if (in.done()) break;
    GameRecord record;
    std::vector<Located> tag_at;
    while (in.peek() == '[') {
      tag_at.push_back({in.line(), in.column()});
      auto tag = tag_line(in);
      if (auto* error = std::get_if<ParseError>(&tag)) return *error;
      // Readers disagree on which of two values counts (ours took the first for some tags and
      // the last for others): a repeated tag is an error.
      const std::string& key = std::get<Tag>(tag).key;
      for (std::size_t i = 0; i < record.tags.size(); ++i) {
        if (record.tags[i].key == key) {
          const Located at = tag_at.back();
          return ParseError{at.line, at.column,
                            "the tag " + key + " appears twice in one game (first on line " +
                                std::to_string(tag_at[i].line) + "); keep one of them"};
        }
      }
      record.tags.push_back(std::get<Tag>(std::move(tag)));
      const int tag_end = in.line();
      in.skip_space();
      // A blank line ends the tag block: tags after it begin the next game, so a game with
      // no turns (resigned before its first throw) is still a game of its own.
      if (in.line() > tag_end + 1) break;
    }
    auto with_rules = apply_tags(std::move(record), tag_at);
    if (auto* error = std::get_if<ParseError>(&with_rules)) return *error;
    auto game = game_body(in, std::get<GameRecord>(std::move(with_rules)), tag_at);
    if (auto* error = std::get_if<ParseError>(&game)) return *error;
    GameRecord& parsed = std::get<GameRecord>(game);
    games.push_back(std::move(parsed));
  }
  return games;
}

}  // namespace ur::records
