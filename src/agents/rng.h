// A small, fully specified pseudo-random generator (SplitMix64). The standard library's
// distributions are implementation-defined, so agents and matches use this one to stay
// reproducible from a seed on every platform.
#pragma once

#include <bit>
#include <cstdint>

#include "core/rules.h"

namespace ur {

class SplitMix64 {
 public:
  explicit SplitMix64(std::uint64_t seed) : state_(seed) {}

  std::uint64_t next() {
    std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // Uniform in [0, bound), bound > 0. The multiply-shift bias is below 2^-32 for the small
  // bounds used here (move counts, dice).
  std::uint32_t below(std::uint32_t bound) {
    return static_cast<std::uint32_t>(((next() >> 32) * bound) >> 32);
  }

  // Uniform in [0, 1).
  double unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

 private:
  std::uint64_t state_;
};

// A seed for one of several independent streams derived from `seed`.
inline std::uint64_t derive_seed(std::uint64_t seed, std::uint64_t stream) {
  SplitMix64 mixer(seed ^ (stream * 0xd1342543de82ef95ULL));
  return mixer.next();
}

// Throws the rules' binary dice: each shows a mark with probability 1/2.
inline Roll throw_dice(const Rules& rules, SplitMix64& rng) {
  const std::uint64_t bits = rng.next();
  return std::popcount(bits & ((std::uint64_t{1} << rules.dice) - 1));
}

}  // namespace ur
