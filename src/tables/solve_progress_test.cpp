#include "tables/solve_progress.h"

#include <gtest/gtest.h>

#include <utility>

#include "core/rule_sets.h"

namespace ur::tables {
namespace {

TEST(SolveCost, DurationsAreRoundedForPeople) {
  EXPECT_EQ(rough_duration(0.4), "about a second");
  EXPECT_EQ(rough_duration(3), "about 3 seconds");
  EXPECT_EQ(rough_duration(6.4), "about 6 seconds");
  EXPECT_EQ(rough_duration(11), "about 10 seconds");
  EXPECT_EQ(rough_duration(13), "about 15 seconds");
  EXPECT_EQ(rough_duration(38), "about 40 seconds");
  EXPECT_EQ(rough_duration(60), "about a minute");
  EXPECT_EQ(rough_duration(165), "about 3 minutes");
  EXPECT_EQ(rough_duration(7200), "about 2 hours");
}

// The estimates follow the measured solves in docs/performance.md (CPU seconds, the slowest
// run of the current solver; peak memory the highest measured): Finkel 5 pieces 15.3 s, 7
// pieces 127.5 s and 3,536 MiB; Blitz 43.7 s and Aseb 54.5 s with 2,057-2,393 MiB; Masters
// 842 s and 7,056 MiB. The upper bounds keep the offer within about a third of them.
TEST(SolveCost, EstimatesMatchTheMeasuredSolves) {
  const SolveCost five = estimated_solve_cost(finkel_rules(5));
  EXPECT_EQ(five.positions, 14675304.0);
  EXPECT_GT(five.cpu_seconds, 15.3);
  EXPECT_LT(five.cpu_seconds, 20.0);

  const SolveCost seven = estimated_solve_cost(finkel_rules(7));
  EXPECT_GT(seven.cpu_seconds, 127.5);
  EXPECT_LT(seven.cpu_seconds, 170.0);
  EXPECT_GT(seven.peak_bytes, 3536.0 * (1 << 20));
  EXPECT_LT(seven.peak_bytes, 4.0 * (1 << 30));

  for (const auto& [name, measured] : {std::pair{"blitz", 43.7}, std::pair{"aseb", 54.5}}) {
    const SolveCost cost = estimated_solve_cost(Rules(find_rule_set(name)->spec));
    EXPECT_EQ(cost.positions, 41254034.0) << name;
    EXPECT_GT(cost.cpu_seconds, measured) << name;
    EXPECT_LT(cost.cpu_seconds, measured * 4 / 3) << name;
    EXPECT_GT(cost.peak_bytes, 2393.0 * (1 << 20)) << name;
    EXPECT_LT(cost.peak_bytes, 3.5 * (1 << 30)) << name;
  }
  // Same positions, but Blitz, whose captures throw again, needs fewer sweeps than Aseb.
  EXPECT_LT(estimated_solve_cost(Rules(find_rule_set("blitz")->spec)).cpu_seconds,
            0.85 * estimated_solve_cost(Rules(find_rule_set("aseb")->spec)).cpu_seconds);
  const SolveCost masters = estimated_solve_cost(Rules(find_rule_set("masters")->spec));
  EXPECT_GT(masters.cpu_seconds, 842.0);
  EXPECT_LT(masters.cpu_seconds, 1100.0);
  EXPECT_GT(masters.peak_bytes, 7056.0 * (1 << 20));
  EXPECT_LT(masters.peak_bytes, 8.0 * (1 << 30));
}

// Small solves were estimated below their peak (Masters 2 pieces: 27 MiB against 67 MiB
// measured with /usr/bin/time -v), so --max-memory let them through: the process's own memory
// was not counted.
TEST(SolveCost, SmallSolvesCountTheProcessItself) {
  for (const auto& [pieces, measured_mib] :
       {std::pair{1, 32.7}, std::pair{2, 67.2}, std::pair{3, 132.0}}) {
    RuleSpec masters = find_rule_set("masters")->spec;
    masters.pieces = pieces;
    EXPECT_GT(estimated_solve_cost(Rules(masters)).peak_bytes, measured_mib * (1 << 20))
        << pieces << " pieces";
  }
}

}  // namespace
}  // namespace ur::tables
