#include "solver/compiled_pair.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <optional>
#include <vector>

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

// The schedule's sweeps over a pair of 1,000 states, to a tolerance of 1e-9.
void bellman(SweepSchedule& schedule, double change, std::uint64_t changed_choices) {
  schedule.after_sweep(SweepKind::kBellman, change, changed_choices, 1000, 1e-9);
}
void follow(SweepSchedule& schedule, double change) {
  schedule.after_sweep(SweepKind::kFollowChoices, change, 0, 1000, 1e-9);
}

// Every Bellman sweep records its moves; while they change widely, one sweep follows them.
TEST(SweepSchedule, OneSweepAlongTheMovesWhileTheyChange) {
  SweepSchedule schedule;
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
  bellman(schedule, 0.5, 500);
  EXPECT_EQ(schedule.next(), SweepKind::kFollowChoices);
  follow(schedule, 0.3);
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
}

// Once at most 1% of the states changed their moves, three sweeps follow them.
TEST(SweepSchedule, ThreeSweepsAlongSettledMoves) {
  SweepSchedule schedule;
  bellman(schedule, 2e-3, 900);
  follow(schedule, 1.5e-3);
  bellman(schedule, 1e-3, 10);
  for (const double change : {5e-4, 2.5e-4, 1.25e-4}) {
    EXPECT_EQ(schedule.next(), SweepKind::kFollowChoices);
    follow(schedule, change);
  }
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
  bellman(schedule, 6e-5, 11);
  EXPECT_EQ(schedule.next(), SweepKind::kFollowChoices);  // 1.1%: one sweep along the moves
  follow(schedule, 3e-5);
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
}

// The first sweep of a pair compares its moves with those left by the pair before: whatever it
// counts, the moves have not settled.
TEST(SweepSchedule, TheFirstSweepOfAPairHasNotSettled) {
  SweepSchedule schedule;
  bellman(schedule, 1.0, 0);
  EXPECT_EQ(schedule.next(), SweepKind::kFollowChoices);
  follow(schedule, 0.9);
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
}

// Only a Bellman sweep can end a pair: when the next sweep is expected within the tolerance
// (the last change times the last ratio), it is one.
TEST(SweepSchedule, ABellmanSweepWhereThePairMayEnd) {
  SweepSchedule schedule;
  bellman(schedule, 8e-9, 900);
  follow(schedule, 6e-9);
  bellman(schedule, 4e-9, 0);
  EXPECT_EQ(schedule.next(), SweepKind::kFollowChoices);
  follow(schedule, 2e-9);  // ratio 0.5: 1e-9 next
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
}

TEST(SweepSchedule, ExtrapolatedValuesRecordTheirMovesAfresh) {
  SweepSchedule schedule;
  bellman(schedule, 1e-3, 0);
  schedule.after_extrapolation();
  EXPECT_EQ(schedule.next(), SweepKind::kBellman);
}

// The last pair in solve order (no piece home yet: the most moves a roll), with the layers it
// reads left at V = 0, which makes it a fixed-point problem of its own.
struct LastPair {
  explicit LastPair(const Rules& rules)
      : index(rules),
        pair(solve_order(rules.pieces).back()),
        ranges(index, pair),
        plan(plan_pair(index, pair, low_masks_by_progress(index.low_squares()), 1)),
        values(index.size(), 0.0) {
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      roll_weights.push_back(roll_probability(rules, roll));
    }
    compiled = compile_pair(index, plan, ranges, values.data(), rules.max_roll(),
                            std::size_t{1} << 30, 1, storage);
  }
  UnitSweep sweep(SweepKind kind) {
    UnitSweep total;
    for (std::size_t u = 0; u < plan.units.size(); ++u) {
      total.absorb(sweep_compiled_unit(plan, *compiled, u, roll_weights.data(),
                                       index.rules().max_roll(), compiled->local, kind));
    }
    return total;
  }
  // Bellman sweeps until no value changes by more than 1e-13; false after 500 of them.
  bool converge() {
    for (int sweeps = 0; sweeps < 500; ++sweeps) {
      if (sweep(SweepKind::kBellman).largest <= 1e-13) return true;
    }
    return false;
  }
  std::vector<double> local() const {
    return {compiled->local, compiled->local + 2 * compiled->updates_begin.back()};
  }
  PositionIndex index;
  LayerPair pair;
  PairRanges ranges;
  PairPlan plan;
  std::vector<double> values;
  std::vector<double> roll_weights;
  CompileStorage storage;
  std::optional<CompiledPair> compiled;
};

// At the fixed point the recorded moves are the best ones: a sweep along them changes nothing
// that a Bellman sweep would not, and recording again changes no move. A choice read from the
// wrong state or roll would take another successor's value.
TEST(SweepAlongRecordedMoves, AtTheFixedPointMatchesABellmanSweep) {
  for (const char* name : {"finkel", "masters", "blitz", "aseb"}) {
    LastPair last(named_rules(name, 2));
    ASSERT_TRUE(last.compiled) << name;
    ASSERT_TRUE(last.converge()) << name;
    EXPECT_EQ(last.sweep(SweepKind::kBellman).changed_choices, 0u) << name;
    const std::vector<double> fixed = last.local();
    EXPECT_LE(last.sweep(SweepKind::kFollowChoices).largest, 1e-13) << name;
    const std::vector<double> followed = last.local();
    for (std::size_t i = 0; i < fixed.size(); ++i) {
      ASSERT_NEAR(followed[i], fixed[i], 1e-13) << name << " state " << i;
    }
  }
}

// Away from the fixed point a sweep along the moves recorded there takes those moves, not the
// best ones: those recorded at V = 0 lose value somewhere against the fixed point.
TEST(SweepAlongRecordedMoves, TakesTheRecordedMovesNotTheBest) {
  LastPair last(named_rules("finkel", 3));
  ASSERT_TRUE(last.compiled);
  ASSERT_TRUE(last.converge());
  const std::vector<double> fixed = last.local();
  // Record the moves at V = 0 (the first move of each roll that does not throw again)...
  std::fill(last.compiled->local, last.compiled->local + fixed.size(), 0.0);
  last.sweep(SweepKind::kBellman);
  // ...then follow them from the fixed point: some states lose value.
  std::copy(fixed.begin(), fixed.end(), last.compiled->local);
  EXPECT_GT(last.sweep(SweepKind::kFollowChoices).largest, 1e-3);
  const std::vector<double> followed = last.local();
  bool any_lower = false;
  for (std::size_t i = 0; i < fixed.size(); ++i) any_lower |= followed[i] < fixed[i] - 1e-6;
  EXPECT_TRUE(any_lower);
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
