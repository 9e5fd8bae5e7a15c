#include "records/rgn.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdio>

namespace ur::records {

namespace {

char own_lane(Side side) {
  return side == Side::Light ? 'A' : 'C';
}

// Finkel's path as RoyalUr names its tiles: route 1-4 run A4..A1 (C for dark), 5-12 are
// B1..B8, 13 is A8 and 14 is A7.
struct TileName {
  char lane;
  int number;
};

TileName finkel_tile(Side side, Square square) {
  if (square <= 4) return {own_lane(side), 5 - square};
  if (square <= 12) return {'B', square - 4};
  return {own_lane(side), square == 13 ? 8 : 7};
}

std::optional<Square> finkel_square(Side side, char lane, int number) {
  for (Square square = 1; square <= 14; ++square) {
    const TileName tile = finkel_tile(side, square);
    if (tile.lane == lane && tile.number == number) return square;
  }
  return std::nullopt;
}

}  // namespace

std::string tile_name(const Rules& rules, Side side, Square square) {
  if (square <= 0 || square >= rules.home_square()) return std::string(1, own_lane(side));
  const TileName tile = finkel_tile(side, square);
  return tile.lane + std::to_string(tile.number);
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

std::variant<Rules, std::string> rules_from_name(std::string_view name) {
  std::string lower;
  for (char c : name) lower += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (lower == "finkel") return finkel_rules(7);
  if (lower == "finkel with two pieces") return finkel_rules(2);
  if (lower == "masters" || lower == "masters with four dice" || lower == "blitz" ||
      lower == "aseb") {
    return "the rule set \"" + std::string(name) +
           "\" is not playable in ur yet: ur plays Finkel's rules (Finkel, Finkel with Two "
           "Pieces)";
  }
  return "unknown rule set \"" + std::string(name) +
         "\"; RGN names Finkel, \"Finkel with Two Pieces\", Masters, Blitz and Aseb";
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
  while (!in.done() && in.peek() != ']' && in.peek() != '\n' && (!key || in.peek() != ' ')) {
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
  if (in.peek() != ' ') {
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

bool all_digits(std::string_view text) {
  return !text.empty() &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number_of(std::string_view digits) {
  int value = 0;
  const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
  return error == std::errc() && end == digits.data() + digits.size() ? value : -1;
}

// Where a tile or pile stands on `side`'s route: "A@"'s pile is 0, "A+" is home.
std::optional<Square> square_of(const Rules& rules, Side side, char lane, std::string_view rest,
                                bool source) {
  if (rest == (source ? "@" : "+")) {
    if (lane != own_lane(side)) return std::nullopt;
    return source ? 0 : rules.home_square();
  }
  if (!all_digits(rest)) return std::nullopt;
  return finkel_square(side, lane, number_of(rest));
}

struct Located {
  int line;
  int column;
};

std::variant<GameRecord, ParseError> apply_tags(GameRecord record, const std::vector<Located>& at) {
  std::optional<Rules> rules;
  for (std::size_t i = 0; i < record.tags.size(); ++i) {
    const Tag& tag = record.tags[i];
    auto here = [&](std::string message) { return ParseError{at[i].line, at[i].column, message}; };
    if (tag.key == "Rules") {
      auto named = rules_from_name(tag.value);
      if (auto* error = std::get_if<std::string>(&named)) return here(*error);
      rules = std::get<Rules>(named);
    }
  }
  record.rules = rules.value_or(finkel_rules());
  for (std::size_t i = 0; i < record.tags.size(); ++i) {
    const Tag& tag = record.tags[i];
    auto here = [&](std::string message) { return ParseError{at[i].line, at[i].column, message}; };
    if (tag.key == "Pieces") {
      const int pieces = all_digits(tag.value) ? number_of(tag.value) : -1;
      if (pieces < Rules::kMinPieces || pieces > Rules::kMaxPieces) {
        return here("the Pieces tag must be 1 to 7, found " + shown(tag.value));
      }
      record.rules.pieces = pieces;
    } else if (tag.key == "BearOff") {
      if (tag.value != "exact" && tag.value != "any") {
        return here("the BearOff tag must be exact or any, found " + shown(tag.value));
      }
      record.rules.bear_off = tag.value == "any" ? BearOff::Any : BearOff::Exact;
    }
  }
  return record;
}

// The plies of one game, from the text after its tags up to the next tag line.
std::variant<GameRecord, ParseError> game_body(Reader& in, GameRecord record) {
  std::vector<Located> where;
  std::optional<Side> side;
  int light_turns = 0;
  bool ended = false;
  while (true) {
    const int line_before = in.line();
    in.skip_space();
    if (in.done() || in.peek() == '[') break;
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
      const auto from = square_of(record.rules, *side, text[0],
                                  std::string_view(text).substr(1, split - 1), true);
      const auto to = square_of(record.rules, *side, text[split],
                                std::string_view(text).substr(split + 1), false);
      const std::string who = *side == Side::Light ? "light" : "dark";
      if (!from) return bad(": " + text.substr(0, split) + " is not on " + who + "'s path");
      if (!to) return bad(": " + text.substr(split) + " is not on " + who + "'s path");
      if (*to <= *from) return bad(": a move goes forward along the path");
      Move move;
      move.from = static_cast<std::uint8_t>(*from);
      move.to = static_cast<std::uint8_t>(*to);
      move.capture = capture;
      // A bear-off that may overshoot (bear-off "any") is read as the least throw that
      // makes it: RGN keeps the move, not the throw.
      ply.roll = *to - *from;
      const bool rosette =
          *to < record.rules.home_square() && (record.rules.rosettes & square_bit(*to));
      move.extra_throw = rosette || (capture && record.rules.capture_gives_extra_throw);
      ply.move = move;
      if (rosette && !ended) {
        in.skip_blanks();
        const Located star_at{in.line(), in.column()};
        std::string star = in.word();
        if (star == "*#") {
          ended = true;
          star.pop_back();
        }
        if (star != "*") {
          return ParseError{
              star_at.line, star_at.column,
              word + " lands on a rosette: expected \" *\" after it, found " + shown(star)};
        }
      }
    }
    record.plies.push_back(ply);
    where.push_back(at);
  }
  if (!record.plies.empty()) record.first = record.plies.front().side;
  const auto played = replay(record);
  if (auto* error = std::get_if<ReplayError>(&played)) {
    const Located at = where.empty() ? Located{in.line(), in.column()} : where[error->ply];
    return ParseError{at.line, at.column, error->message};
  }
  // A game that ended off the board (a resignation) says so in its Result tag; its last
  // action carries #, unless it ended before any throw.
  const auto& replayed = std::get<Replay>(played);
  if (!replayed.winner && (ended || record.plies.empty())) {
    const std::string* result = record.tag("Result");
    if (result && (*result == "1-0" || *result == "0-1")) {
      record.resigned = *result == "1-0" ? Side::Dark : Side::Light;
    }
  }
  return record;
}

}  // namespace

std::variant<std::vector<GameRecord>, ParseError> read_rgn(std::string_view text) {
  std::vector<GameRecord> games;
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
      record.tags.push_back(std::get<Tag>(std::move(tag)));
      const int tag_end = in.line();
      in.skip_space();
      // A blank line ends the tag block: tags after it begin the next game, so a game with
      // no turns (resigned before its first throw) is still a game of its own.
      if (in.line() > tag_end + 1) break;
    }
    auto with_rules = apply_tags(std::move(record), tag_at);
    if (auto* error = std::get_if<ParseError>(&with_rules)) return *error;
    auto game = game_body(in, std::get<GameRecord>(std::move(with_rules)));
    if (auto* error = std::get_if<ParseError>(&game)) return *error;
    GameRecord& parsed = std::get<GameRecord>(game);
    games.push_back(std::move(parsed));
  }
  return games;
}

}  // namespace ur::records
