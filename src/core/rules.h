// The rule set as data, in the spirit of Fairy-Stockfish's `struct Variant`: move
// generation reads these fields instead of hard-coding Finkel's rules, so later rule sets
// (Masters, Blitz, ...) become new field values rather than new code paths.
#pragma once

#include <array>
#include <string_view>

#include "core/types.h"

namespace ur {

enum class BearOff : std::uint8_t {
  Exact,  // a piece leaves only with the exact throw to reach route_length + 1
  Any,    // any throw that reaches or passes route_length + 1 bears off
};

struct Rules {
  int pieces = 7;  // pieces per side, 1..kMaxPieces
  BearOff bear_off = BearOff::Exact;
  int route_length = 14;  // board squares per route; home is route_length + 1
  SquareMask rosettes = square_bit(4) | square_bit(8) | square_bit(14);  // landing throws again
  SquareMask shared = square_range(5, 12);  // same physical square for both sides
  SquareMask safe = square_bit(8);          // shared squares where a piece cannot be captured
  int dice = 4;                             // binary dice thrown; the roll counts marks
  bool capture_gives_extra_throw = false;

  static constexpr int kMinPieces = 1;
  static constexpr int kMaxPieces = 7;

  constexpr Square home_square() const { return route_length + 1; }
  constexpr SquareMask board_squares() const { return square_range(1, route_length); }
  constexpr Roll max_roll() const { return dice; }

  friend constexpr bool operator==(const Rules&, const Rules&) = default;
};

// The standard rule set with a chosen piece count and bear-off mode.
constexpr Rules finkel_rules(int pieces = 7, BearOff bear_off = BearOff::Exact) {
  Rules rules;
  rules.pieces = pieces;
  rules.bear_off = bear_off;
  return rules;
}

// Chance of each roll, as weight / 2^dice. For four dice the weights are 1, 4, 6, 4, 1.
constexpr int roll_weight(const Rules& rules, Roll roll) {
  // Binomial coefficient C(dice, roll) computed iteratively.
  long long weight = 1;
  for (int k = 1; k <= roll; ++k) weight = weight * (rules.dice - k + 1) / k;
  return static_cast<int>(weight);
}

constexpr int roll_weight_total(const Rules& rules) {
  return 1 << rules.dice;
}

constexpr double roll_probability(const Rules& rules, Roll roll) {
  return static_cast<double>(roll_weight(rules, roll)) / roll_weight_total(rules);
}

constexpr std::string_view to_string(BearOff mode) {
  return mode == BearOff::Exact ? "exact" : "any";
}

}  // namespace ur
