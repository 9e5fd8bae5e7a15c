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
      return name + " has " + std::to_string(total) + (total == 1 ? " piece" : " pieces") +
             " (start " + std::to_string(position.start_of(side)) + " + home " +
             std::to_string(position.home_of(side)) + " + board " +
             std::to_string(count_squares(board)) + "), expected " + std::to_string(rules.pieces);
    }
  }
  for (Side side : {Side::Light, Side::Dark}) {
    const SquareMask board = position.board_of(side);
    for (SquareMask rest = board & rules.self_crossing; rest; rest &= rest - 1) {
      const Square square = std::countr_zero(rest);
      if (board & rules.same_cell[square]) {
        return std::string(side == Side::Light ? "light" : "dark") +
               " has two pieces on one tile (route squares " + std::to_string(square) + " and " +
               std::to_string(std::countr_zero(board & rules.same_cell[square])) + ")";
      }
    }
  }
  const SquareMask clash = position.board[0] & opponent_in_my_numbering(rules, position.board[1]);
  if (clash) {
    const Square square = std::countr_zero(clash);
    const Square dark_square = std::countr_zero(rules.opposite[square] & position.board[1]);
    if (square == dark_square) {
      return "light and dark both stand on shared square " + std::to_string(square);
    }
    return "light and dark both stand on one shared tile (light's square " +
           std::to_string(square) + " is dark's square " + std::to_string(dark_square) + ")";
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
