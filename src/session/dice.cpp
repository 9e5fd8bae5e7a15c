#include "session/dice.h"

#include "agents/rng.h"

namespace ur::session {

Dice dice_for_throw(const Rules& rules, std::uint64_t seed, std::uint64_t throw_number) {
  const std::uint64_t bits = derive_seed(seed, throw_number);
  Dice dice;
  dice.count = static_cast<std::uint8_t>(rules.dice);
  dice.marks = static_cast<std::uint8_t>(bits & ((std::uint64_t{1} << rules.dice) - 1));
  return dice;
}

Roll roll_of(const Rules& rules, const Dice& dice) {
  return roll_from_marks(rules, dice.marked());
}

Dice dice_showing(const Rules& rules, Roll roll) {
  Dice dice;
  dice.count = static_cast<std::uint8_t>(rules.dice);
  const Roll marked = rules.zero_counts_as_max && roll == rules.dice + 1 ? 0 : roll;
  dice.marks = static_cast<std::uint8_t>((1u << marked) - 1);
  return dice;
}

}  // namespace ur::session
