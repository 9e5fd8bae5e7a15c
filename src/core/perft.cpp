#include "core/perft.h"

#include "core/movegen.h"

namespace ur {
namespace {

// Depth-1 nodes are bulk-counted from the move masks instead of being made.
std::uint64_t perft_nonterminal(const Rules& rules, const Position& position, int depth) {
  std::uint64_t nodes = 0;
  if (depth == 1) {
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      const int count = count_legal_moves(rules, position, roll);
      nodes += count == 0 ? 1 : static_cast<std::uint64_t>(count);
    }
    return nodes;
  }
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    const MoveList moves = legal_moves(rules, position, roll);
    if (moves.empty()) {
      nodes += perft(rules, pass_turn(position), depth - 1);
      continue;
    }
    for (const Move& move : moves)
      nodes += perft(rules, apply_move(rules, position, move), depth - 1);
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(const Rules& rules, const Position& position, int depth) {
  if (depth == 0 || is_game_over(rules, position)) return 1;
  return perft_nonterminal(rules, position, depth);
}

}  // namespace ur
