#include "server/os_random.h"

#include <gtest/gtest.h>

#include <set>

namespace ur::server {
namespace {

// Not a test of randomness, only that the bytes are filled and do not repeat: 1,000 draws
// of 64 bits are all different, and every bit position is set in some draw and clear in
// another.
TEST(OsRandom, FillsAllSixtyFourBitsAndDoesNotRepeat) {
  std::set<std::uint64_t> seen;
  std::uint64_t any_set = 0;
  std::uint64_t any_clear = 0;
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t value = os_random_u64();
    seen.insert(value);
    any_set |= value;
    any_clear |= ~value;
  }
  EXPECT_EQ(seen.size(), 1000u);
  EXPECT_EQ(any_set, ~std::uint64_t{0});
  EXPECT_EQ(any_clear, ~std::uint64_t{0});
}

}  // namespace
}  // namespace ur::server
