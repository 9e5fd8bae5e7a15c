// A rule set as data, in the spirit of Fairy-Stockfish's `struct Variant` and RoyalUr-Java's
// immutable GameSettings: board shape, paths, dice, pieces and flags. Move generation reads
// only the masks derived from them, so Finkel, Masters, Blitz, Aseb and custom sets share one
// code path, and Finkel keeps its fast path (shared squares carry the same number for both).
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "core/types.h"

namespace ur {

enum class BearOff : std::uint8_t {
  Exact,  // a piece leaves only with the exact throw to reach route_length + 1
  Any,    // any throw that reaches or passes route_length + 1 bears off
};

// The board's shape: which cells exist and which are rosettes.
enum class BoardShape : std::uint8_t {
  Standard,  // 3 x 8 without A5, A6, C5, C6; rosettes A1, C1, B4, A7, C7
  Aseb,      // A1-A4, B1-B12, C1-C4; rosettes A1, C1, B4, B8, B12
};

// Light's path over the board; dark's mirrors it into lane C.
enum class PathKind : std::uint8_t {
  Finkel,   // A4-A1, B1-B8, A8, A7 (14)
  Masters,  // A4-A1, B1-B7, C7, C8, B8, A8, A7 (16)
  Aseb,     // A4-A1, B1-B12 (16)
  Murray,   // the Masters path, back up B7-B1, then C1-C4 (27)
  Skiriuk,  // the Masters path, then back up B7-B1 (23)
};

// What the players choose: every column of a rule set. Any value can be written down; only
// a playable one (see why_unplayable in core/rule_sets.h) becomes Rules.
struct RuleSpec {
  BoardShape board = BoardShape::Standard;
  PathKind path = PathKind::Finkel;
  int dice = 4;                     // binary dice thrown, 1..kMaxDice
  bool zero_counts_as_max = false;  // a throw of 0 moves dice + 1 (Masters) instead of passing
  int pieces = 7;                   // pieces per side, 1..7
  BearOff bear_off = BearOff::Exact;
  bool safe_rosettes = true;  // no landing on an opponent who stands on a rosette
  bool rosette_gives_extra_throw = true;
  bool capture_gives_extra_throw = false;

  static constexpr int kMaxDice = 6;

  friend constexpr bool operator==(const RuleSpec&, const RuleSpec&) = default;
};

// A board cell as RoyalUr names tiles: lane 0 is A (light's own row), 1 is B (the shared
// middle row), 2 is C (dark's own row); column counts 1.. along the board.
struct Cell {
  std::uint8_t lane = 0;
  std::uint8_t column = 0;
  friend constexpr bool operator==(const Cell&, const Cell&) = default;
};

inline constexpr int kMaxRoute = 27;  // Murray's path; bits 0..28 of a SquareMask are used

// The cells of light's path, route square 1 first (index 0).
struct PathCells {
  std::array<Cell, kMaxRoute> cells{};
  int length = 0;
};

constexpr PathCells path_cells(PathKind kind) {
  PathCells path;
  auto lane = [&path](int lane_index, int first, int last) {
    const int step = first <= last ? 1 : -1;
    for (int column = first;; column += step) {
      path.cells[path.length++] =
          Cell{static_cast<std::uint8_t>(lane_index), static_cast<std::uint8_t>(column)};
      if (column == last) break;
    }
  };
  lane(0, 4, 1);  // every path enters down lane A: A4, A3, A2, A1
  switch (kind) {
    case PathKind::Finkel:
      lane(1, 1, 8);
      lane(0, 8, 7);
      break;
    case PathKind::Aseb:
      lane(1, 1, 12);
      break;
    case PathKind::Masters:
    case PathKind::Murray:
    case PathKind::Skiriuk:
      lane(1, 1, 7);
      lane(2, 7, 8);
      lane(1, 8, 8);
      lane(0, 8, 7);
      if (kind != PathKind::Masters) lane(1, 7, 1);
      if (kind == PathKind::Murray) lane(2, 1, 4);
      break;
  }
  return path;
}

// Dark's cell for the cell light sees: lanes A and C swap.
constexpr Cell mirrored(Cell cell) {
  return Cell{static_cast<std::uint8_t>(2 - cell.lane), cell.column};
}

constexpr bool on_board(BoardShape board, Cell cell) {
  if (cell.lane > 2 || cell.column < 1) return false;
  if (board == BoardShape::Aseb) return cell.lane == 1 ? cell.column <= 12 : cell.column <= 4;
  if (cell.column > 8) return false;
  return cell.lane == 1 || cell.column <= 4 || cell.column >= 7;
}

constexpr bool is_rosette(BoardShape board, Cell cell) {
  if (cell.lane != 1)
    return cell.column == 1 || (board == BoardShape::Standard && cell.column == 7);
  return cell.column == 4 || (board == BoardShape::Aseb && (cell.column == 8 || cell.column == 12));
}

// A playable rule set with the masks move generation reads. Built from a RuleSpec; `pieces`
// and `bear_off` may be changed afterwards (nothing is derived from them), every other field
// is derived and must not be assigned. All masks are in the mover's own route numbering, and
// are the same for both sides because dark's path mirrors light's.
struct Rules {
  int pieces = 7;  // pieces per side, 1..kMaxPieces
  BearOff bear_off = BearOff::Exact;

  BoardShape board = BoardShape::Standard;
  PathKind path = PathKind::Finkel;
  int dice = 4;  // binary dice thrown
  bool zero_counts_as_max = false;
  bool safe_rosettes = true;
  bool rosette_gives_extra_throw = true;
  bool capture_gives_extra_throw = false;

  int route_length = 14;         // board squares per route; home is route_length + 1
  SquareMask rosettes = 0;       // route squares on rosette cells
  SquareMask extra_throw = 0;    // landing there throws again (rosettes, if the flag is on)
  SquareMask shared = 0;         // squares whose cell the opponent's path also crosses
  SquareMask safe = 0;           // shared squares where a piece cannot be captured
  SquareMask same_number = 0;    // shared squares the opponent numbers the same way
  SquareMask renumbered = 0;     // shared squares the opponent numbers differently
  SquareMask self_crossing = 0;  // squares whose cell the path visits twice (Murray, Skiriuk)
  // opposite[s]: the opponent's squares on the cell of my square s (0 if not shared).
  // Symmetric by mirroring, so it also maps the opponent's square s to mine.
  std::array<SquareMask, kMaxRoute + 2> opposite{};
  // same_cell[s]: my other squares on the cell of my square s.
  std::array<SquareMask, kMaxRoute + 2> same_cell{};
  // roll_weights[r] / roll_weight_total: chance of moving r squares; 0 for an impossible roll.
  std::array<std::uint8_t, RuleSpec::kMaxDice + 2> roll_weights{};
  int roll_weight_total = 16;
  int highest_roll = 4;

  static constexpr int kMinPieces = 1;
  static constexpr int kMaxPieces = 7;

  // Finkel's rules with 7 pieces.
  constexpr Rules() : Rules(RuleSpec{}) {}
  // Precondition: why_unplayable(spec) is empty.
  constexpr explicit Rules(const RuleSpec& spec)
      : pieces(spec.pieces),
        bear_off(spec.bear_off),
        board(spec.board),
        path(spec.path),
        dice(spec.dice),
        zero_counts_as_max(spec.zero_counts_as_max),
        safe_rosettes(spec.safe_rosettes),
        rosette_gives_extra_throw(spec.rosette_gives_extra_throw),
        capture_gives_extra_throw(spec.capture_gives_extra_throw) {
    const PathCells cells = path_cells(path);
    route_length = cells.length;
    for (int i = 0; i < cells.length; ++i) {
      const Square square = i + 1;
      const Cell cell = cells.cells[i];
      if (is_rosette(board, cell)) rosettes |= square_bit(square);
      for (int j = 0; j < cells.length; ++j) {
        if (j != i && cells.cells[j] == cell) same_cell[square] |= square_bit(j + 1);
        if (mirrored(cells.cells[j]) == cell) opposite[square] |= square_bit(j + 1);
      }
      if (same_cell[square]) self_crossing |= square_bit(square);
      if (opposite[square]) {
        shared |= square_bit(square);
        if (opposite[square] == square_bit(square)) {
          same_number |= square_bit(square);
        } else {
          renumbered |= square_bit(square);
        }
      }
    }
    extra_throw = rosette_gives_extra_throw ? rosettes : 0;
    safe = safe_rosettes ? rosettes & shared : 0;
    // Binomial weights C(dice, k); with zero_counts_as_max the weight of 0 moves to dice + 1.
    long long weight = 1;
    for (int k = 0; k <= dice; ++k) {
      roll_weights[k] = static_cast<std::uint8_t>(weight);
      weight = weight * (dice - k) / (k + 1);
    }
    roll_weight_total = 1 << dice;
    highest_roll = dice;
    if (zero_counts_as_max) {
      roll_weights[dice + 1] = roll_weights[0];
      roll_weights[0] = 0;
      highest_roll = dice + 1;
    }
  }

  RuleSpec spec() const {
    return RuleSpec{board,
                    path,
                    dice,
                    zero_counts_as_max,
                    pieces,
                    bear_off,
                    safe_rosettes,
                    rosette_gives_extra_throw,
                    capture_gives_extra_throw};
  }

  constexpr Square home_square() const { return route_length + 1; }
  constexpr SquareMask board_squares() const { return square_range(1, route_length); }
  constexpr Roll max_roll() const { return highest_roll; }
  // Finkel and Aseb: every shared square has the same number for both sides, and no path
  // crosses itself, so the opponent's mask needs no translation.
  constexpr bool simple_sharing() const { return renumbered == 0 && self_crossing == 0; }

  friend constexpr bool operator==(const Rules&, const Rules&) = default;
};

// The standard rule set with a chosen piece count and bear-off mode.
constexpr Rules finkel_rules(int pieces = 7, BearOff bear_off = BearOff::Exact) {
  Rules rules;
  rules.pieces = pieces;
  rules.bear_off = bear_off;
  return rules;
}

// Chance of each roll (the distance moved), as weight / roll_weight_total.
constexpr int roll_weight(const Rules& rules, Roll roll) {
  return roll < 0 || roll > rules.max_roll() ? 0 : rules.roll_weights[roll];
}

constexpr int roll_weight_total(const Rules& rules) {
  return rules.roll_weight_total;
}

constexpr double roll_probability(const Rules& rules, Roll roll) {
  return static_cast<double>(roll_weight(rules, roll)) / roll_weight_total(rules);
}

// Whether a throw can show `roll` (Masters never moves 0).
constexpr bool possible_roll(const Rules& rules, Roll roll) {
  return roll_weight(rules, roll) > 0;
}

// The distance a throw moves when `marks` of its dice show marks: the count, except that a
// throw with no marks moves dice + 1 where zero_counts_as_max (Masters: 0 moves 4).
constexpr Roll roll_from_marks(const Rules& rules, int marks) {
  return marks == 0 && rules.zero_counts_as_max ? rules.dice + 1 : marks;
}

// The lowest roll a throw can show: 0, or 1 where a 0 counts as the maximum.
constexpr Roll min_roll(const Rules& rules) {
  return rules.zero_counts_as_max ? 1 : 0;
}

// The opponent's pieces, in the mover's numbering (only shared squares can be set).
constexpr SquareMask opponent_in_my_numbering(const Rules& rules, SquareMask theirs) {
  SquareMask mine = theirs & rules.same_number;
  for (SquareMask rest = theirs & rules.renumbered; rest; rest &= rest - 1) {
    mine |= rules.opposite[std::countr_zero(rest)];
  }
  return mine;
}

// The squares my own pieces close: their own squares and, on a path that crosses itself,
// the other squares on the same cells.
constexpr SquareMask own_closed(const Rules& rules, SquareMask own) {
  SquareMask closed = own;
  for (SquareMask rest = own & rules.self_crossing; rest; rest &= rest - 1) {
    closed |= rules.same_cell[std::countr_zero(rest)];
  }
  return closed;
}

constexpr std::string_view to_string(BearOff mode) {
  return mode == BearOff::Exact ? "exact" : "any";
}

}  // namespace ur
