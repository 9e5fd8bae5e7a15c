#include "solver/compiled_pair.h"

#include <gtest/gtest.h>

#include <array>

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

// Changes that shrink by a steady ratio r are extrapolated by r / (1 - r): here 0.6, so 1.5.
TEST(Extrapolator, SteadyRatiosExtrapolateByTheirGeometricTail) {
  Extrapolator extrapolator;
  EXPECT_EQ(extrapolator.after_full_sweep(1e-3), 0.0);
  EXPECT_EQ(extrapolator.after_full_sweep(6e-4), 0.0);  // one ratio: not yet steady
  EXPECT_NEAR(extrapolator.after_full_sweep(3.6e-4), 1.5, 1e-12);
  // The extrapolation itself disturbs the next ratio: three more sweeps before the next.
  EXPECT_EQ(extrapolator.after_full_sweep(2e-4), 0.0);
  EXPECT_EQ(extrapolator.after_full_sweep(1.2e-4), 0.0);
  EXPECT_NEAR(extrapolator.after_full_sweep(7.2e-5), 1.5, 1e-12);
}

TEST(Extrapolator, UnsteadyFastOrSlowRatiosAreLeftAlone) {
  Extrapolator unsteady;
  for (const double change : {1e-3, 6e-4, 2e-4, 1.5e-4, 3e-5}) {  // ratios 0.6, 0.33, 0.75, 0.2
    EXPECT_EQ(unsteady.after_full_sweep(change), 0.0) << change;
  }
  Extrapolator fast;  // ratio 0.2: a few plain sweeps finish the pair
  for (const double change : {1e-3, 2e-4, 4e-5, 8e-6})
    EXPECT_EQ(fast.after_full_sweep(change), 0.0);
  Extrapolator slow;  // ratio 0.97: a factor of 32 would amplify the other modes' error
  for (const double change : {1e-3, 9.7e-4, 9.409e-4, 9.127e-4}) {
    EXPECT_EQ(slow.after_full_sweep(change), 0.0);
  }
}

TEST(Extrapolator, FocusSweepsStartTheCountOver) {
  Extrapolator extrapolator;
  EXPECT_EQ(extrapolator.after_full_sweep(1e-3), 0.0);
  EXPECT_EQ(extrapolator.after_full_sweep(6e-4), 0.0);
  extrapolator.interrupt();
  EXPECT_EQ(extrapolator.after_full_sweep(3.6e-4), 0.0);
  EXPECT_EQ(extrapolator.after_full_sweep(2.16e-4), 0.0);
  EXPECT_NEAR(extrapolator.after_full_sweep(1.296e-4), 1.5, 1e-12);
}

// extrapolate moves each state of the listed units along its last change, within [0, 1].
TEST(Extrapolator, ValuesMoveAlongTheirChangesAndStayProbabilities) {
  std::array<double, 6> local = {0.4, 0.5, 0.99, 0.02, 0.7, 0.25};
  std::array<float, 6> changes = {0.01f, -0.02f, 0.02f, -0.04f, 0.1f, 0.1f};
  CompiledPair compiled;
  compiled.local = local.data();
  compiled.changes = changes.data();
  compiled.updates_begin = {0, 2, 3};  // unit 0: ids 0-3, unit 1: ids 4-5
  extrapolate(compiled, 1.5, 0, 1);
  EXPECT_NEAR(local[0], 0.415, 1e-9);
  EXPECT_NEAR(local[1], 0.47, 1e-9);
  EXPECT_EQ(local[2], 1.0);  // 1.02 clamped
  EXPECT_EQ(local[3], 0.0);  // -0.04 clamped
  EXPECT_EQ(local[4], 0.7);  // unit 1 was not listed
  EXPECT_EQ(local[5], 0.25);
}

}  // namespace
}  // namespace ur::solver::detail
