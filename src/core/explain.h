// Why a chosen piece cannot move: the words players see in the terminal and web games.
#pragma once

#include <string>

#include "core/movegen.h"

namespace ur {

enum class IllegalReason {
  None,               // the move is legal
  NoRoll,             // nothing was thrown (roll 0), or a roll these dice cannot show
  NoPieceThere,       // the side to move has no piece on that square (or no piece waiting)
  AlreadyHome,        // pieces at home have finished
  OwnPieceOnTarget,   // the landing square's tile holds one of the mover's own pieces
  OpponentOnSafe,     // an opponent sits on a rosette the set makes safe
  NeedsExactBearOff,  // the throw overshoots home under exact bear-off
};

// Classifies moving the mover's piece on `from` (0 = start pile) by `roll`.
IllegalReason why_illegal(const Rules& rules, const Position& position, Roll roll, Square from);

// A sentence for players, e.g. "Square 8 is a rosette: the opponent's piece there is safe."
// Squares are the mover's route numbers, as the boards show them; a tile is named by its
// squares, not by its RGN name, which no board shows.
std::string describe(IllegalReason reason, const Rules& rules, Roll roll, Square from);

// A route square in words: "start" for 0, "home" from home_square(), else its number.
std::string square_name(const Rules& rules, Square square);
// A move's squares in words: "start → 3", "6 → 9", "13 → home".
std::string move_squares_text(const Rules& rules, const Move& move);

// Why the side to move must pass with this roll, or an empty string if it has a move.
std::string why_pass(const Rules& rules, const Position& position, Roll roll);

}  // namespace ur
