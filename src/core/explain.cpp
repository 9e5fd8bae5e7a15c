#include "core/explain.h"

namespace ur {

IllegalReason why_illegal(const Rules& rules, const Position& position, Roll roll, Square from) {
  if (roll <= 0) return IllegalReason::NoRoll;
  const int us = index_of(position.turn);
  if (from == 0) {
    if (position.start[us] == 0) return IllegalReason::NoPieceThere;
  } else if (from >= rules.home_square()) {
    return IllegalReason::AlreadyHome;
  } else if (from < 0 || !(position.board[us] & square_bit(from))) {
    return IllegalReason::NoPieceThere;
  }
  const Square to = from + roll;
  if (to > rules.home_square()) {
    return rules.bear_off == BearOff::Exact ? IllegalReason::NeedsExactBearOff
                                            : IllegalReason::None;
  }
  if (to == rules.home_square()) return IllegalReason::None;
  if (position.board[us] & square_bit(to)) return IllegalReason::OwnPieceOnTarget;
  if (position.board[1 - us] & rules.safe & square_bit(to)) return IllegalReason::OpponentOnSafe;
  return IllegalReason::None;
}

std::string describe(IllegalReason reason, const Rules& rules, Roll roll, Square from) {
  const Square to = from + roll;
  switch (reason) {
    case IllegalReason::None:
      return "";
    case IllegalReason::NoRoll:
      return "A throw of 0 moves nothing.";
    case IllegalReason::NoPieceThere:
      return from == 0 ? "No pieces are waiting to enter."
                       : "You have no piece on square " + std::to_string(from) + ".";
    case IllegalReason::AlreadyHome:
      return "Pieces at home have finished their run.";
    case IllegalReason::OwnPieceOnTarget:
      return "Square " + std::to_string(to) + " already holds one of your pieces.";
    case IllegalReason::OpponentOnSafe:
      return "Square " + std::to_string(to) +
             " is the central rosette: the opponent's piece there is safe.";
    case IllegalReason::NeedsExactBearOff: {
      const int needed = rules.home_square() - from;
      return "Bearing off from square " + std::to_string(from) + " needs exactly " +
             std::to_string(needed) + ", not " + std::to_string(roll) + ".";
    }
  }
  return "";
}

std::string why_pass(const Rules& rules, const Position& position, Roll roll) {
  if (roll <= 0) return "A throw of 0: the turn passes.";
  if (count_legal_moves(rules, position, roll) > 0) return "";
  return "No piece can move " + std::to_string(roll) + (roll == 1 ? " square" : " squares") +
         ": every landing square is blocked, or a bear-off would need an exact throw.";
}

}  // namespace ur
