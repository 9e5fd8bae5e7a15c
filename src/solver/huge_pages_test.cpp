#include "solver/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

#include "solver/solver_detail.h"

namespace ur::solver::detail {
namespace {

TEST(HugePageAllocator, LargeArraysStartOnAHugePageBoundary) {
  HugePageAllocator<double> allocator;
  const std::size_t count = 3 * kHugePageBytes / sizeof(double) + 5;
  double* data = allocator.allocate(count);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(data) % kHugePageBytes, 0u);
  data[0] = 1.0;
  data[count - 1] = 2.0;  // the whole request is usable
  allocator.deallocate(data, count);
}

TEST(HugePageAllocator, VectorsGrowAndShrinkAcrossTheThreshold) {
  std::vector<std::uint32_t, HugePageAllocator<std::uint32_t>> values;
  for (std::uint32_t k = 0; k < kHugePageBytes; ++k) values.push_back(k);  // 8 MiB in the end
  EXPECT_EQ(std::accumulate(values.begin(), values.end(), std::uint64_t{0}),
            std::uint64_t{kHugePageBytes} * (kHugePageBytes - 1) / 2);
  values.resize(10);
  values.shrink_to_fit();  // back below the threshold: the ordinary allocator
  EXPECT_EQ(values.back(), 9u);
}

// A pair's plan grows by resizes that the threads then fill: large plans start on a huge page,
// and what was written before a resize is kept.
TEST(PlanAllocator, LargePlansStartOnAHugePageBoundaryAndKeepTheirElements) {
  std::vector<Successor, PlanAllocator<Successor>> successors;
  successors.resize(10);
  successors[9] = {7, 3, kOpponent};
  successors.resize(kHugePageBytes / sizeof(Successor) + 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(successors.data()) % kHugePageBytes, 0u);
  EXPECT_EQ(successors[9].base, 7u);
  EXPECT_EQ(successors[9].stride, 3u);
  EXPECT_EQ(successors[9].kind, kOpponent);
  std::vector<RowPlan, PlanAllocator<RowPlan>> rows(kHugePageBytes / sizeof(RowPlan) + 1);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(rows.data()) % kHugePageBytes, 0u);
}

}  // namespace
}  // namespace ur::solver::detail
