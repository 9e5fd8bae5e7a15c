#include "core/position.h"

namespace ur {

Position starting_position(const Rules& rules, Side first) {
  Position position;
  position.start = {static_cast<std::uint8_t>(rules.pieces),
                    static_cast<std::uint8_t>(rules.pieces)};
  position.turn = first;
  return position;
}

std::optional<std::string> validate(const Rules& rules, const Position& position) {
  if (rules.pieces < Rules::kMinPieces || rules.pieces > Rules::kMaxPieces) {
    return "pieces must be between 1 and 7, got " + std::to_string(rules.pieces);
  }
  for (Side side : {Side::Light, Side::Dark}) {
    const std::string name = side == Side::Light ? "light" : "dark";
    const SquareMask board = position.board_of(side);
    if (board & ~rules.board_squares()) {
      return name + " has a piece outside route squares 1.." + std::to_string(rules.route_length);
    }
    const int total = position.start_of(side) + position.home_of(side) + count_squares(board);
    if (total != rules.pieces) {
      return name + " has " + std::to_string(total) + " pieces (start " +
             std::to_string(position.start_of(side)) + " + home " +
             std::to_string(position.home_of(side)) + " + board " +
             std::to_string(count_squares(board)) + "), expected " + std::to_string(rules.pieces);
    }
  }
  const SquareMask clash = position.board[0] & position.board[1] & rules.shared;
  if (clash) {
    return "light and dark both stand on shared square " + std::to_string(std::countr_zero(clash));
  }
  if (position.home[0] == rules.pieces && position.home[1] == rules.pieces) {
    return "both sides have all pieces home";
  }
  return std::nullopt;
}

std::optional<Side> winner(const Rules& rules, const Position& position) {
  if (position.home_of(Side::Light) == rules.pieces) return Side::Light;
  if (position.home_of(Side::Dark) == rules.pieces) return Side::Dark;
  return std::nullopt;
}

Position mirror(const Position& position) {
  Position mirrored;
  mirrored.board = {position.board[1], position.board[0]};
  mirrored.start = {position.start[1], position.start[0]};
  mirrored.home = {position.home[1], position.home[0]};
  mirrored.turn = opponent(position.turn);
  return mirrored;
}

}  // namespace ur
