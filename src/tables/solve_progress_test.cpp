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
  const double five_cpu = estimated_solve_cpu_seconds(finkel_rules(5));
  EXPECT_GT(five_cpu, 18.0);
  EXPECT_LT(five_cpu, 30.0);
  const double seven_cpu = estimated_solve_cpu_seconds(finkel_rules(7));
  EXPECT_GT(seven_cpu, 310.0);
  EXPECT_LT(seven_cpu, 400.0);

  const double five_bytes = estimated_solve_bytes(finkel_rules(5));
  EXPECT_GT(five_bytes, 500e6);
  EXPECT_LT(five_bytes, 700e6);
  const double seven_bytes = estimated_solve_bytes(finkel_rules(7));
  EXPECT_GT(seven_bytes, 1.5e9);
  EXPECT_LT(seven_bytes, 2.0 * (1 << 30));
}

}  // namespace
}  // namespace ur::tables
