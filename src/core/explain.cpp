#include "core/explain.h"

#include <bit>
#include <vector>

#include "core/rule_sets.h"

namespace ur {

IllegalReason why_illegal(const Rules& rules, const Position& position, Roll roll, Square from) {
  if (roll <= 0 || !possible_roll(rules, roll)) return IllegalReason::NoRoll;
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
  // A path that crosses itself closes both squares of a tile one's own piece stands on; the
  // opponent's pieces count in the mover's numbering (Masters renumbers shared tiles).
  if (own_closed(rules, position.board[us]) & square_bit(to)) {
    return IllegalReason::OwnPieceOnTarget;
  }
  if (opponent_in_my_numbering(rules, position.board[1 - us]) & rules.safe & square_bit(to)) {
    return IllegalReason::OpponentOnSafe;
  }
  return IllegalReason::None;
}

namespace {

// The mover's other square on the tile of `square` (a path that crosses itself visits a tile
// at most twice). The boards number such a tile with both squares ("11,17"), so a sentence
// names a tile by its squares, never by an RGN name the screens do not show.
Square other_square_of_tile(const Rules& rules, Square square) {
  return static_cast<Square>(std::countr_zero(rules.same_cell[square]));
}

// On a path that crosses itself, a move from `from` by `roll` that ends on the tile it left: the
// piece blocks itself (the tile holds one piece, so it can be no other).
bool returns_to_its_tile(const Rules& rules, Square from, Roll roll) {
  const Square to = from + roll;
  return from > 0 && to < rules.home_square() && (rules.same_cell[from] & square_bit(to)) != 0;
}

}  // namespace

std::string describe(IllegalReason reason, const Rules& rules, Roll roll, Square from) {
  const Square to = from + roll;
  switch (reason) {
    case IllegalReason::None:
      return "";
    case IllegalReason::NoRoll:
      if (roll > 0) {
        return "A throw of " + std::to_string(roll) + " is impossible: these dice move " +
               std::to_string(min_roll(rules)) + " to " + std::to_string(rules.max_roll()) + ".";
      }
      return "A throw of 0 moves nothing.";
    case IllegalReason::NoPieceThere:
      return from == 0 ? "No pieces are waiting to enter."
                       : "You have no piece on square " + std::to_string(from) + ".";
    case IllegalReason::AlreadyHome:
      return "Pieces at home have finished their run.";
    case IllegalReason::OwnPieceOnTarget:
      if (returns_to_its_tile(rules, from, roll)) {
        return "Square " + std::to_string(to) + " shares its tile with square " +
               std::to_string(from) +
               ", where this piece stands: a piece cannot end its move on the tile it left.";
      }
      if (rules.self_crossing & square_bit(to)) {
        return "Square " + std::to_string(to) + " shares its tile with your square " +
               std::to_string(other_square_of_tile(rules, to)) +
               ", where one of your pieces stands.";
      }
      return "Square " + std::to_string(to) + " already holds one of your pieces.";
    case IllegalReason::OpponentOnSafe:
      return "Square " + std::to_string(to) + " is a rosette: the opponent's piece there is safe.";
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

std::string square_name(const Rules& rules, Square square) {
  if (square == 0) return "start";
  if (square >= rules.home_square()) return "home";
  return std::to_string(square);
}

std::string move_squares_text(const Rules& rules, const Move& move) {
  return square_name(rules, move.from) + " → " + square_name(rules, move.to);
}

std::string why_pass(const Rules& rules, const Position& position, Roll roll) {
  if (roll <= 0) return "A throw of 0: the turn passes.";
  if (count_legal_moves(rules, position, roll) > 0) return "";
  // Every waiting piece is blocked; group them by blocker, each group in route order.
  std::vector<std::string> own, own_tile, safe, overshoot;
  const auto blocked = [&](Square from) {
    const std::string step = (from == 0 ? std::string("start") : std::to_string(from)) + " → " +
                             std::to_string(from + roll);
    switch (why_illegal(rules, position, roll, from)) {
      case IllegalReason::OwnPieceOnTarget:
        if (returns_to_its_tile(rules, from, roll)) {
          own_tile.push_back(step + " would end on the tile it starts from");
        } else {
          own.push_back(step);
        }
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
  if (!own_tile.empty()) clauses.push_back(listed(own_tile));
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
