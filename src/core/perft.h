// Perft: the number of move sequences of a given depth, the signature of move generation.
//   perft(P, 0) = 1; perft(P, d) = 1 when a side has all pieces home;
//   otherwise the sum over rolls 0..dice of the sum over legal moves of perft(P', d - 1),
//   where a roll with no legal move (roll 0 included) counts as one pass branch.
// Probabilities are ignored.
#pragma once

#include <cstdint>

#include "core/position.h"

namespace ur {

std::uint64_t perft(const Rules& rules, const Position& position, int depth);

}  // namespace ur
