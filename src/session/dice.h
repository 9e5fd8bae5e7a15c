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

// The distance the dice let the thrower move. For binary dice it is the number of marks.
inline Roll roll_of(const Dice& dice) {
  return dice.marked();
}

// Dice showing `roll` marks (the first `roll` dice marked), for records that keep only the
// roll. Precondition: 0 <= roll <= rules.dice.
Dice dice_showing(const Rules& rules, Roll roll);

}  // namespace ur::session
