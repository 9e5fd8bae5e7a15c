// The dice of a session: a counter-based generator keyed by (seed, throw number), so the
// same seed gives the same throws in every front end, after a restart, and after a
// take-back (which rewinds the counter, so the dice cannot be thrown anew).
#pragma once

#include <bit>
#include <cstdint>

#include "core/rules.h"

namespace ur::session {

// One throw's dice. Invariant: only bits 0..count-1 of `marks` may be set; bit i set means
// die i shows a marked corner.
struct Dice {
  std::uint8_t marks = 0;
  std::uint8_t count = 4;

  int marked() const { return std::popcount(marks); }
  bool die(int i) const { return ((marks >> i) & 1) != 0; }
  friend bool operator==(const Dice&, const Dice&) = default;
};

// The dice of throw number `throw_number` (0-based, counting every throw of the series,
// opening throws included) in the series seeded with `seed`.
Dice dice_for_throw(const Rules& rules, std::uint64_t seed, std::uint64_t throw_number);

// The distance the dice let the thrower move: the number of marks, except that a throw
// showing none moves dice + 1 where the rules count a 0 as the maximum (Masters: 3 dice,
// no marks moves 4). Every front end, the records and the narration turn dice into a roll
// here and nowhere else.
Roll roll_of(const Rules& rules, const Dice& dice);

// Dice that move `roll` (the first `roll` dice marked; none for the maximum of a set that
// counts a 0 as the maximum), for records that keep only the roll.
// Precondition: possible_roll(rules, roll).
Dice dice_showing(const Rules& rules, Roll roll);

}  // namespace ur::session
