#include "core/explain.h"

#include <vector>

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

namespace {

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string text;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i > 0) text += i + 1 == items.size() ? " and " : ", ";
    text += items[i];
  }
  return text;
}

}  // namespace

std::string why_pass(const Rules& rules, const Position& position, Roll roll) {
  if (roll <= 0) return "A throw of 0: the turn passes.";
  if (count_legal_moves(rules, position, roll) > 0) return "";
  // Every waiting piece is blocked; group them by blocker, each group in route order.
  std::vector<std::string> own, safe, overshoot;
  const auto blocked = [&](Square from) {
    const std::string step = (from == 0 ? std::string("start") : std::to_string(from)) + " → " +
                             std::to_string(from + roll);
    switch (why_illegal(rules, position, roll, from)) {
      case IllegalReason::OwnPieceOnTarget:
        own.push_back(step);
        break;
      case IllegalReason::OpponentOnSafe:
        safe.push_back(step);
        break;
      case IllegalReason::NeedsExactBearOff:
        overshoot.push_back("exactly " + std::to_string(rules.home_square() - from) + " from " +
                            std::to_string(from));
        break;
      default:
        break;
    }
  };
  const int us = index_of(position.turn);
  if (position.start[us] > 0) blocked(0);
  for (Square from = 1; from < rules.home_square(); ++from) {
    if (position.board[us] & square_bit(from)) blocked(from);
  }
  std::vector<std::string> clauses;
  if (!own.empty()) {
    clauses.push_back(listed(own) + (own.size() == 1 ? " would land on your own piece"
                                                     : " would land on your own pieces"));
  }
  if (!safe.empty()) {
    clauses.push_back(listed(safe) +
                      (safe.size() == 1
                           ? " would land on the opponent's piece, safe on its rosette"
                           : " would land on the opponent's pieces, safe on their rosettes"));
  }
  if (!overshoot.empty()) clauses.push_back("bearing off needs " + listed(overshoot));
  std::string text =
      "No piece can move " + std::to_string(roll) + (roll == 1 ? " square" : " squares");
  for (std::size_t i = 0; i < clauses.size(); ++i) text += (i == 0 ? ": " : "; ") + clauses[i];
  return text + ".";
}

}  // namespace ur
