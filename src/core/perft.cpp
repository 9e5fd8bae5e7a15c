#include "core/perft.h"

#include "core/movegen.h"

namespace ur {
namespace {

// Depth-1 nodes are bulk-counted from the move masks instead of being made. kSimple selects
// move generation's fast path once for the whole tree.
template <bool kSimple>
std::uint64_t perft_tree(const Rules& rules, const Position& position, int depth) {
  if (depth == 0 || is_game_over(rules, position)) return 1;
  std::uint64_t nodes = 0;
  if (depth == 1) {
    for (Roll roll = min_roll(rules); roll <= rules.max_roll(); ++roll) {
      const int count = detail::count_legal_moves<kSimple>(rules, position, roll);
      nodes += count == 0 ? 1 : static_cast<std::uint64_t>(count);
    }
    return nodes;
  }
  for (Roll roll = min_roll(rules); roll <= rules.max_roll(); ++roll) {
    const MoveList moves = detail::legal_moves<kSimple>(rules, position, roll);
    if (moves.empty()) {
      nodes += perft_tree<kSimple>(rules, pass_turn(position), depth - 1);
      continue;
    }
    for (const Move& move : moves)
      nodes += perft_tree<kSimple>(rules, apply_move(rules, position, move), depth - 1);
  }
  return nodes;
}

}  // namespace

std::uint64_t perft(const Rules& rules, const Position& position, int depth) {
  return rules.simple_sharing() ? perft_tree<true>(rules, position, depth)
                                : perft_tree<false>(rules, position, depth);
}

}  // namespace ur
