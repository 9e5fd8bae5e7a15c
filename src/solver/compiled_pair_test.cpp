#include "solver/compiled_pair.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"
#include "solver/solver.h"

namespace ur::solver::detail {
namespace {

// The default budget once left the largest 7-piece Finkel pair (a fifth of the positions) to
// the slower row plans: its lists need 2,229 MiB, more than the 2 GiB it was said to cover.
TEST(CompiledPair, DefaultBudgetCompilesTheLargestSevenPieceFinkelPair) {
  const PositionIndex index(finkel_rules(7));
  LayerPair largest{};
  std::uint64_t largest_size = 0;
  for (const LayerPair& pair : solve_order(7)) {
    const std::uint64_t size = PairRanges(index, pair).size();
    if (size > largest_size) largest = pair, largest_size = size;
  }
  EXPECT_EQ(largest_size, 29'598'456u);
  const PairPlan plan = plan_pair(index, largest, low_masks_by_progress(index.low_squares()), 2);
  const std::uint64_t bytes =
      compiled_pair_bytes(plan, PairRanges(index, largest), index.rules().max_roll());
  EXPECT_GT(bytes, std::uint64_t{2} << 30);  // what the old 2 GiB default missed
  EXPECT_LE(bytes, SolveOptions{}.compiled_pair_bytes);
}

}  // namespace
}  // namespace ur::solver::detail
