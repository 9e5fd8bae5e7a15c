// Test helper: positions reached by random play, for property tests over many positions.
#pragma once

#include <vector>

#include "agents/rng.h"
#include "core/movegen.h"

namespace ur::testing {

struct PositionAndRoll {
  Position position;
  Roll roll;  // has at least one legal move
};

// `count` positions of games played with uniformly random moves from the opening, each
// sampled after a random number of throws and paired with a roll that has a legal move.
inline std::vector<PositionAndRoll> random_positions(const Rules& rules, int count,
                                                     std::uint64_t seed) {
  SplitMix64 rng(seed);
  std::vector<PositionAndRoll> samples;
  Position position = starting_position(rules);
  while (static_cast<int>(samples.size()) < count) {
    if (is_game_over(rules, position)) position = starting_position(rules);
    const Roll roll = throw_dice(rules, rng);
    const MoveList moves = legal_moves(rules, position, roll);
    if (moves.empty()) {
      position = pass_turn(position);
      continue;
    }
    if (rng.below(3) == 0) samples.push_back({position, roll});
    position = apply_move(rules, position, moves[static_cast<int>(rng.below(moves.size()))]);
  }
  return samples;
}

}  // namespace ur::testing
