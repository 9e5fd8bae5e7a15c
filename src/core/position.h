// A game position: where every piece is and whose turn it is.
#pragma once

#include <array>
#include <optional>
#include <string>

#include "core/rules.h"
#include "core/types.h"

namespace ur {

// Invariants of a valid position (checked by `validate`):
//  - for each side, start + home + count_squares(board) == rules.pieces;
//  - board masks only use route squares 1..route_length;
//  - no shared square is held by both sides (private squares are distinct physical
//    squares, so both sides may use their own square 3, say);
//  - at most one side has all pieces home.
// Arrays are indexed by index_of(Side).
struct Position {
  std::array<SquareMask, 2> board{};    // occupied route squares, in each side's numbering
  std::array<std::uint8_t, 2> start{};  // pieces waiting to enter
  std::array<std::uint8_t, 2> home{};   // pieces borne off
  Side turn = Side::Light;              // side to move (about to throw)

  SquareMask board_of(Side side) const { return board[index_of(side)]; }
  int start_of(Side side) const { return start[index_of(side)]; }
  int home_of(Side side) const { return home[index_of(side)]; }

  friend bool operator==(const Position&, const Position&) = default;
};

// All pieces in the start piles, `first` to move.
Position starting_position(const Rules& rules, Side first = Side::Light);

// A description of what makes the position impossible under the rules, or nothing.
std::optional<std::string> validate(const Rules& rules, const Position& position);

// True once a side has brought all its pieces home.
inline bool is_game_over(const Rules& rules, const Position& position) {
  return position.home[0] == rules.pieces || position.home[1] == rules.pieces;
}

std::optional<Side> winner(const Rules& rules, const Position& position);

// The same situation with the colours swapped: light's pieces become dark's and the other
// side moves. Move generation commutes with it.
Position mirror(const Position& position);

// The same position with the other side to move (used for passing).
inline Position pass_turn(Position position) {
  position.turn = opponent(position.turn);
  return position;
}

}  // namespace ur
