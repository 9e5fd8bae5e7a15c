// Why a chosen piece cannot move: the words players see in the terminal and web games.
#pragma once

#include <string>

#include "core/movegen.h"

namespace ur {

enum class IllegalReason {
  None,               // the move is legal
  NoRoll,             // nothing was thrown (roll 0)
  NoPieceThere,       // the side to move has no piece on that square (or no piece waiting)
  AlreadyHome,        // pieces at home have finished
  OwnPieceOnTarget,   // the landing square holds one of the mover's own pieces
  OpponentOnSafe,     // an opponent sits safe on the central rosette
  NeedsExactBearOff,  // the throw overshoots home under exact bear-off
};

// Classifies moving the mover's piece on `from` (0 = start pile) by `roll`.
IllegalReason why_illegal(const Rules& rules, const Position& position, Roll roll, Square from);

// A sentence for players, e.g. "Square 8 is the central rosette: an opponent is safe there."
std::string describe(IllegalReason reason, const Rules& rules, Roll roll, Square from);

// Why the side to move must pass with this roll, or an empty string if it has a move.
std::string why_pass(const Rules& rules, const Position& position, Roll roll);

}  // namespace ur
