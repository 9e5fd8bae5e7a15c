#include <gtest/gtest.h>

#include <string>

#include "core/movegen.h"
#include "core/rule_sets.h"
#include "solver/solver_detail.h"

namespace ur::solver::detail {
namespace {

// The order keys of the unit that holds position `at`.
std::pair<std::uint64_t, std::uint64_t> unit_order_of(const PositionIndex& index,
                                                      std::uint64_t at) {
  const Block& block = index.block_of(at);
  const std::uint64_t within = at - block.offset;
  const unsigned row_mask = index.private_mask_of_rank(static_cast<int>(within / block.columns));
  const unsigned column_mask = index.private_mask_of_rank(static_cast<int>(within % block.columns));
  return unit_order(index, block, row_mask >> index.low_squares(),
                    column_mask >> index.low_squares());
}

// The sweep is Gauss-Seidel in unit order: every move that neither captures nor bears off must
// lead to a unit swept earlier in the same sweep (larger keys), or stay in its own unit (a move
// onto the low private squares, whose rows are ordered within the unit), in both orders: the
// side ahead first, and the side behind first where a capture throws again.
TEST(PlanPair, MovesThatDoNotCaptureLeadToUnitsSweptEarlier) {
  std::vector<std::pair<std::string, Rules>> cases;
  for (const char* name : {"finkel", "masters", "blitz", "aseb"}) {
    cases.emplace_back(name, named_rules(name, 3));
  }
  RuleSpec capture_throws = named_rules("finkel", 3).spec();
  capture_throws.capture_gives_extra_throw = true;
  cases.emplace_back("finkel with captures throwing again", Rules(capture_throws));
  for (const auto& [name, rules] : cases) {
    const PositionIndex index(rules);
    std::uint64_t checked = 0;
    std::uint64_t within_unit = 0;
    for (std::uint64_t at = 0; at < index.size(); ++at) {
      const Position position = index.unrank(at);
      if (position.home[1] == rules.pieces) continue;  // lost: not swept
      const auto order = unit_order_of(index, at);
      for (Roll roll = 1; roll <= rules.max_roll(); ++roll) {
        for (const Move& move : legal_moves(rules, position, roll)) {
          const Position after = apply_move(rules, position, move);
          if (move.capture || after.home != position.home) continue;
          const int mover = after.turn == Side::Light ? 0 : 1;
          const std::uint64_t next = index.rank_view(after.board[mover], after.board[1 - mover],
                                                     after.home[mover], after.home[1 - mover]);
          const auto next_order = unit_order_of(index, next);
          ++checked;
          if (next_order == order) {
            ++within_unit;
            ASSERT_LE(move.to, index.low_squares()) << name << " " << at;
          } else {
            ASSERT_GT(next_order, order) << name << " " << at << " roll " << int{roll};
          }
        }
      }
    }
    EXPECT_GT(checked, index.size()) << name;
    EXPECT_GT(within_unit, 0u) << name;
  }
}

}  // namespace
}  // namespace ur::solver::detail
