#include "solver/work_shares.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <thread>

namespace ur::solver::detail {
namespace {

// Each thread starts on its own contiguous share, cut by weight, not by count.
TEST(WorkShares, SharesAreContiguousAndCutByWeight) {
  WorkShares shares({4, 1, 1, 1, 1, 1, 1, 1, 1}, 2, 1);
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{0, 1}));
  EXPECT_EQ(shares.next(1), (std::pair<std::size_t, std::size_t>{3, 4}));
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{1, 2}));
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{2, 3}));
  // Its share done, thread 0 helps at the front of the share with the most left.
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{4, 5}));
  EXPECT_EQ(shares.next(1), (std::pair<std::size_t, std::size_t>{5, 6}));
}

TEST(WorkShares, AnEmptyListHandsOutNothing) {
  WorkShares shares({}, 2, 16);
  EXPECT_FALSE(shares.next(0));
  EXPECT_FALSE(shares.next(1));
}

TEST(WorkShares, OneThreadTakesTheListInOrder) {
  WorkShares shares({1, 1, 1, 1, 1}, 1, 2);
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{0, 2}));
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{2, 4}));
  EXPECT_EQ(shares.next(0), (std::pair<std::size_t, std::size_t>{4, 5}));
  EXPECT_FALSE(shares.next(0));
}

// Whatever the weights and whichever thread asks when, every position is handed out once, in
// chunks of at most the chunk size.
RC_GTEST_PROP(WorkShares, EveryPositionIsHandedOutOnce,
              (const std::vector<std::uint8_t>& raw_weights)) {
  const int threads = *rc::gen::inRange(1, 5);
  const auto chunk = static_cast<std::size_t>(*rc::gen::inRange(1, 6));
  const std::vector<std::uint64_t> weights(raw_weights.begin(), raw_weights.end());
  WorkShares shares(weights, threads, chunk);
  std::vector<int> handed(weights.size(), 0);
  std::vector<int> asking(static_cast<std::size_t>(threads));  // threads not yet told "done"
  for (int t = 0; t < threads; ++t) asking[static_cast<std::size_t>(t)] = t;
  while (!asking.empty()) {
    const auto pick = static_cast<std::size_t>(*rc::gen::inRange<std::size_t>(0, asking.size()));
    const auto got = shares.next(asking[pick]);
    if (!got) {
      asking.erase(asking.begin() + static_cast<std::ptrdiff_t>(pick));
      continue;
    }
    RC_ASSERT(got->first < got->second);
    RC_ASSERT(got->second - got->first <= chunk);
    for (std::size_t k = got->first; k < got->second; ++k) ++handed[k];
  }
  for (const int count : handed) RC_ASSERT(count == 1);
}

// The same from real threads: the shares' lock keeps concurrent takers apart.
TEST(WorkShares, ConcurrentThreadsTakeEveryPositionOnce) {
  const std::vector<std::uint64_t> weights(10'000, 3);
  WorkShares shares(weights, 2, 7);
  std::vector<int> handed(weights.size(), 0);
  const auto take = [&](int thread) {
    while (const auto got = shares.next(thread)) {
      for (std::size_t k = got->first; k < got->second; ++k) ++handed[k];
    }
  };
  std::thread helper(take, 1);
  take(0);
  helper.join();
  for (const int count : handed) ASSERT_EQ(count, 1);
}

}  // namespace
}  // namespace ur::solver::detail
