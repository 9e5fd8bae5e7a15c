#include "tables/solve_progress.h"

#include <gtest/gtest.h>

namespace ur::tables {
namespace {

TEST(SolveCost, DurationsAreRoundedForPeople) {
  EXPECT_EQ(rough_duration(3), "a few seconds");
  EXPECT_EQ(rough_duration(11), "about 10 seconds");
  EXPECT_EQ(rough_duration(38), "about 40 seconds");
  EXPECT_EQ(rough_duration(60), "about a minute");
  EXPECT_EQ(rough_duration(165), "about 3 minutes");
  EXPECT_EQ(rough_duration(7200), "about 2 hours");
}

// The estimates follow the measured solves in docs/performance.md: 5 pieces 18-22 s of CPU
// and 564 MiB; 7 pieces 314-320 s and 1,568 MiB.
TEST(SolveCost, EstimatesMatchTheMeasuredSolves) {
  const SolveCost five = estimated_solve_cost(finkel_rules(5));
  EXPECT_EQ(five.positions, 14675304.0);
  EXPECT_GT(five.cpu_seconds, 18.0);
  EXPECT_LT(five.cpu_seconds, 30.0);
  EXPECT_GT(five.peak_bytes, 500e6);
  EXPECT_LT(five.peak_bytes, 700e6);

  const SolveCost seven = estimated_solve_cost(finkel_rules(7));
  EXPECT_GT(seven.cpu_seconds, 310.0);
  EXPECT_LT(seven.cpu_seconds, 400.0);
  EXPECT_GT(seven.peak_bytes, 1.5e9);
  EXPECT_LT(seven.peak_bytes, 2.0 * (1 << 30));
}

}  // namespace
}  // namespace ur::tables
