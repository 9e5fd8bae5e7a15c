// Basic vocabulary of the rules engine: sides, route squares, rolls and square masks.
#pragma once

#include <bit>
#include <cstdint>

namespace ur {

// The two players. Light plays the bottom row, dark the top row.
enum class Side : std::uint8_t { Light = 0, Dark = 1 };

constexpr Side opponent(Side side) {
  return side == Side::Light ? Side::Dark : Side::Light;
}
constexpr int index_of(Side side) {
  return static_cast<int>(side);
}

// A route square in the mover's own numbering: 0 is the start pile, 1..route_length are
// board squares, route_length + 1 is home.
using Square = int;

// Number of marked dice showing after a throw; 0..Rules::dice.
using Roll = int;

// A set of route squares, bit k standing for square k. Bit 0 is only used transiently
// (move generation treats the start pile as square 0); a Position never sets it.
using SquareMask = std::uint32_t;

constexpr SquareMask square_bit(Square square) {
  return SquareMask{1} << square;
}

// Mask with bits first..last (inclusive) set.
constexpr SquareMask square_range(Square first, Square last) {
  return ((SquareMask{1} << (last + 1)) - 1) & ~((SquareMask{1} << first) - 1);
}

constexpr int count_squares(SquareMask mask) {
  return std::popcount(mask);
}

}  // namespace ur
