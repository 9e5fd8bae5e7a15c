#include "solver/huge_pages.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>
#include <vector>

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

}  // namespace
}  // namespace ur::solver::detail
