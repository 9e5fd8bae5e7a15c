// Legal move generation and move application. These are the hot paths of perft, search
// and the solver, so they work on square masks and are defined inline.
#pragma once

#include <array>
#include <bit>
#include <cstdint>

#include "core/position.h"
#include "core/rules.h"

namespace ur {

// One legal move of the side to move. `from` 0 is the start pile; `to` is
// rules.home_square() for a bear-off.
struct Move {
  std::uint8_t from = 0;
  std::uint8_t to = 0;
  bool capture = false;      // lands on an opponent's piece (on a shared cell)
  bool extra_throw = false;  // the same side throws again afterwards

  friend bool operator==(const Move&, const Move&) = default;
};

// Legal moves for one roll, sorted by `from`. Empty means the side to move must pass.
// At most one move per occupied source: the start pile plus pieces on the board.
class MoveList {
 public:
  static constexpr int kCapacity = Rules::kMaxPieces + 1;

  const Move* begin() const { return moves_.data(); }
  const Move* end() const { return moves_.data() + size_; }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  const Move& operator[](int i) const { return moves_[i]; }
  void push_back(const Move& move) { moves_[size_++] = move; }

 private:
  std::array<Move, kCapacity> moves_{};
  int size_ = 0;
};

namespace detail {

// The opponent's pieces in the mover's numbering. kSimple (rules.simple_sharing()) is
// Finkel's fast path: shared squares carry one number for both sides.
template <bool kSimple>
inline SquareMask their_squares(const Rules& rules, const Position& position) {
  const SquareMask theirs = position.board[1 - index_of(position.turn)];
  if constexpr (kSimple) return theirs & rules.shared;
  return opponent_in_my_numbering(rules, theirs);
}

// Sources (bit 0 = start pile) whose piece can move `roll` squares onto a board square.
template <bool kSimple>
inline SquareMask board_move_sources(const Rules& rules, const Position& position, Roll roll) {
  const SquareMask own = position.board[index_of(position.turn)];
  const SquareMask sources = own | (position.start[index_of(position.turn)] ? SquareMask{1} : 0);
  const SquareMask closed = kSimple ? own : own_closed(rules, own);
  // A landing square is closed by an own piece, or by an opponent on a safe square.
  const SquareMask open =
      rules.board_squares() & ~closed & ~(their_squares<kSimple>(rules, position) & rules.safe);
  return sources & (open >> roll);
}

// Board squares whose piece can bear off with `roll`.
inline SquareMask bear_off_sources(const Rules& rules, const Position& position, Roll roll) {
  const SquareMask own = position.board[index_of(position.turn)];
  const Square exact_from = rules.home_square() - roll;
  if (rules.bear_off == BearOff::Exact) return own & square_bit(exact_from);
  return own & square_range(exact_from, rules.route_length);
}

template <bool kSimple>
inline int count_legal_moves(const Rules& rules, const Position& position, Roll roll) {
  if (roll <= 0) return 0;
  return std::popcount(board_move_sources<kSimple>(rules, position, roll)) +
         std::popcount(bear_off_sources(rules, position, roll));
}

template <bool kSimple>
inline MoveList legal_moves(const Rules& rules, const Position& position, Roll roll) {
  MoveList moves;
  if (roll <= 0) return moves;
  const SquareMask theirs = their_squares<kSimple>(rules, position);
  SquareMask sources =
      board_move_sources<kSimple>(rules, position, roll) | bear_off_sources(rules, position, roll);
  while (sources) {
    const Square from = std::countr_zero(sources);
    sources &= sources - 1;
    Move move;
    move.from = static_cast<std::uint8_t>(from);
    if (from + roll >= rules.home_square()) {
      move.to = static_cast<std::uint8_t>(rules.home_square());
    } else {
      const Square to = from + roll;
      move.to = static_cast<std::uint8_t>(to);
      move.capture = (theirs & square_bit(to)) != 0;
      move.extra_throw = (rules.extra_throw & square_bit(to)) != 0 ||
                         (move.capture && rules.capture_gives_extra_throw);
    }
    moves.push_back(move);
  }
  return moves;
}

}  // namespace detail

// Number of legal moves for `roll`, without building them (perft bulk counting).
inline int count_legal_moves(const Rules& rules, const Position& position, Roll roll) {
  return rules.simple_sharing() ? detail::count_legal_moves<true>(rules, position, roll)
                                : detail::count_legal_moves<false>(rules, position, roll);
}

inline MoveList legal_moves(const Rules& rules, const Position& position, Roll roll) {
  return rules.simple_sharing() ? detail::legal_moves<true>(rules, position, roll)
                                : detail::legal_moves<false>(rules, position, roll);
}

// The position after `move`, which must be legal. The turn passes to the opponent unless
// the move earns an extra throw.
inline Position apply_move(const Rules& rules, Position position, const Move& move) {
  const int us = index_of(position.turn);
  const int them = 1 - us;
  if (move.from == 0) {
    --position.start[us];
  } else {
    position.board[us] &= ~square_bit(move.from);
  }
  if (move.to >= rules.home_square()) {
    ++position.home[us];
  } else {
    position.board[us] |= square_bit(move.to);
    if (move.capture) {
      position.board[them] &= ~rules.opposite[move.to];
      ++position.start[them];
    }
  }
  if (!move.extra_throw) position.turn = opponent(position.turn);
  return position;
}

// Finds the legal move for `roll` that starts on `from`, if there is one.
inline const Move* find_move(const MoveList& moves, Square from) {
  for (const Move& move : moves) {
    if (move.from == from) return &move;
  }
  return nullptr;
}
// The result points into `moves`, so a temporary list would leave it dangling.
const Move* find_move(const MoveList&& moves, Square from) = delete;

}  // namespace ur
