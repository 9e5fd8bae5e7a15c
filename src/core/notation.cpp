#include "core/notation.h"

#include <charconv>
#include <vector>

namespace ur {
namespace {

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  std::size_t begin = 0;
  while (true) {
    const std::size_t end = text.find(separator, begin);
    parts.push_back(text.substr(begin, end == std::string_view::npos ? end : end - begin));
    if (end == std::string_view::npos) return parts;
    begin = end + 1;
  }
}

bool parse_count(std::string_view text, int& value) {
  if (text.empty() || text.size() > 3) return false;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  return error == std::errc() && end == text.data() + text.size() && value >= 0;
}

std::string_view trim(std::string_view text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

std::string squares_text(SquareMask board) {
  if (!board) return "-";
  std::string text;
  while (board) {
    if (!text.empty()) text += ',';
    text += std::to_string(std::countr_zero(board));
    board &= board - 1;
  }
  return text;
}

// Parses one SIDE field into `position`; returns an error message or an empty string.
std::string parse_side(std::string_view field, Side side, const Rules& rules, Position& position) {
  const std::string name(side_name(side));
  const auto parts = split(field, '/');
  if (parts.size() != 3) {
    return name + " field '" + std::string(field) + "' must be START/SQUARES/HOME, e.g. 3/2,5,9/1";
  }
  int start = 0;
  int home = 0;
  if (!parse_count(parts[0], start) || start > Rules::kMaxPieces) {
    return name + " start count '" + std::string(parts[0]) + "' must be a number 0..7";
  }
  if (!parse_count(parts[2], home) || home > Rules::kMaxPieces) {
    return name + " home count '" + std::string(parts[2]) + "' must be a number 0..7";
  }
  SquareMask board = 0;
  if (parts[1] != "-") {
    int previous = 0;
    for (std::string_view item : split(parts[1], ',')) {
      int square = 0;
      if (!parse_count(item, square) || square < 1 || square > rules.route_length) {
        return name + " square '" + std::string(item) + "' must be a route square 1.." +
               std::to_string(rules.route_length);
      }
      if (square <= previous) {
        return name + " squares must be listed in increasing order without repeats";
      }
      previous = square;
      board |= square_bit(square);
    }
  }
  const int i = index_of(side);
  position.board[i] = board;
  position.start[i] = static_cast<std::uint8_t>(start);
  position.home[i] = static_cast<std::uint8_t>(home);
  return {};
}

}  // namespace

std::string_view side_name(Side side) {
  return side == Side::Light ? "light" : "dark";
}

std::string to_text(const Position& position) {
  std::string text = position.turn == Side::Light ? "L" : "D";
  for (int i = 0; i < 2; ++i) {
    text += ':';
    text += std::to_string(position.start[i]) + '/' + squares_text(position.board[i]) + '/' +
            std::to_string(position.home[i]);
  }
  return text;
}

std::variant<Position, ParseError> parse_text(std::string_view text, const Rules& rules) {
  text = trim(text);  // pasted text often carries a newline or spaces
  const auto fields = split(text, ':');
  if (fields.size() != 3) {
    return ParseError{"position text must be TURN:LIGHT:DARK, e.g. L:3/2,5,9/1:5/7,14/0; got '" +
                      std::string(text.substr(0, 80)) + "'"};
  }
  Position position;
  if (fields[0] == "L" || fields[0] == "l") {
    position.turn = Side::Light;
  } else if (fields[0] == "D" || fields[0] == "d") {
    position.turn = Side::Dark;
  } else {
    return ParseError{"turn '" + std::string(fields[0].substr(0, 20)) + "' must be L or D"};
  }
  for (Side side : {Side::Light, Side::Dark}) {
    std::string error = parse_side(fields[1 + index_of(side)], side, rules, position);
    if (!error.empty()) return ParseError{std::move(error)};
  }
  if (auto error = validate(rules, position)) return ParseError{*error};
  return position;
}

}  // namespace ur
