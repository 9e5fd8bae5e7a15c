// How the threads of a sweep share its list of units. Internal to src/solver.
#pragma once

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace ur::solver::detail {

// Hands out positions [0, n) of a sweep's list in chunks. Thread t starts at the front of its own
// contiguous share, cut so that every share weighs about the same, and works forward; once its
// share is done it helps at the front of the share with the most left. Contiguous shares keep
// most of the values a thread writes out of the other core's cache: with chunks dealt
// round-robin, the cache lines of values crossed between the cores every sweep, and two threads
// cost half as much again an update as one (docs/performance.md).
//
// Invariant: every position is handed out exactly once, and each share in increasing order
// (the Gauss-Seidel order of the list).
class WorkShares {
 public:
  // `weights[k]` is the cost of position k (its states); `threads` >= 1; `chunk` >= 1.
  WorkShares(const std::vector<std::uint64_t>& weights, int threads, std::size_t chunk)
      : chunk_(chunk) {
    std::uint64_t total = 0;
    for (const std::uint64_t weight : weights) total += weight;
    shares_.resize(static_cast<std::size_t>(threads));
    std::size_t at = 0;
    std::uint64_t sum = 0;
    for (std::size_t t = 0; t < shares_.size(); ++t) {
      shares_[t].begin = at;
      // The share ends where the running weight first reaches (t + 1) / threads of the total.
      const std::uint64_t target =
          total / shares_.size() * (t + 1) + total % shares_.size() * (t + 1) / shares_.size();
      while (at < weights.size() && (sum < target || t + 1 == shares_.size())) sum += weights[at++];
      shares_[t].end = at;
    }
  }

  // The next chunk [first, second) for `thread`, or nullopt when the list is done.
  std::optional<std::pair<std::size_t, std::size_t>> next(int thread) {
    const std::lock_guard lock(mutex_);
    Share& own = shares_[static_cast<std::size_t>(thread)];
    if (own.begin < own.end) {
      const std::size_t first = own.begin;
      own.begin += std::min(chunk_, own.end - own.begin);
      return std::pair{first, own.begin};
    }
    Share* most = nullptr;
    for (Share& share : shares_) {
      if (share.end > share.begin && (!most || share.end - share.begin > most->end - most->begin)) {
        most = &share;
      }
    }
    if (!most) return std::nullopt;
    const std::size_t first = most->begin;
    most->begin += std::min(chunk_, most->end - most->begin);
    return std::pair{first, most->begin};
  }

 private:
  struct Share {
    std::size_t begin = 0, end = 0;  // positions not yet handed out
  };
  std::mutex mutex_;
  std::vector<Share> shares_;
  std::size_t chunk_;
};

}  // namespace ur::solver::detail
