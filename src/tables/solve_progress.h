// Words and bars for a solve's progress, shared by `ur solve` and the terminal game's
// table build so both read the same.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iomanip>
#include <optional>
#include <sstream>
#include <string>

#include "solver/position_index.h"
#include "solver/solver.h"

namespace ur::tables {

// How far a solve has come, 0..1: the states of finished layer pairs, plus the pair under
// way in part, by how far its residual has fallen from 1 toward the tolerance on a log scale
// (each sweep shrinks it about geometrically). Without that part the share would stand
// still through the last pairs, which hold most states and most sweeps.
class SolveEstimate {
 public:
  SolveEstimate(const solver::PositionIndex& index, double tolerance)
      : index_(index), tolerance_(tolerance) {}

  double fraction(const solver::SolveProgress& progress) {
    if (progress.states_total == 0) return 1.0;
    if (progress.pair != pair_) {
      pair_ = progress.pair;
      pair_share_ = 0.0;
    }
    if (progress.pair < progress.pairs && progress.residual > 0 && tolerance_ < 1) {
      const double fallen = std::log(progress.residual) / std::log(tolerance_);
      pair_share_ = std::max(pair_share_, std::clamp(fallen, 0.0, 0.95));
    }
    const double pair_states =
        progress.pair < progress.pairs
            ? static_cast<double>(states_in_pair(progress.home_mine, progress.home_theirs))
            : 0.0;
    return std::min(1.0, (double(progress.states_done) + pair_share_ * pair_states) /
                             double(progress.states_total));
  }

 private:
  // The states of layer pair {(mine, theirs), (theirs, mine)}, counted as the solver does.
  std::uint64_t states_in_pair(int mine, int theirs) const {
    std::uint64_t states = 0;
    for (const auto& [a, b] : {std::pair{mine, theirs}, std::pair{theirs, mine}}) {
      const auto [first, last] = index_.layer_blocks(a, b);
      for (std::size_t block = first; block < last; ++block) {
        states += index_.blocks()[block].size();
      }
      if (mine == theirs) break;
    }
    return states;
  }

  const solver::PositionIndex& index_;
  double tolerance_;
  int pair_ = -1;
  double pair_share_ = 0.0;
};

// What a solve costs, measured on the reference 2-core machine (docs/performance.md, CPU time,
// which a busy machine changes less than wall time), at the slowest run, rounded up. CPU a
// position: Finkel's split (6 private squares, 64-state blocks) 1.05 us (5 pieces 12.9-15.3 s
// for 14.7 million; 7 pieces 127.5 s for 137.9 million); the 12 shared squares of Masters,
// Blitz and Aseb 1.35 us at 5 pieces (Aseb 49.4-54.5 s for 41.3 million), 0.8 of that where a
// capture throws again (Blitz 34.8-43.7 s: its sweep order needs 18-20 updates a position
// against Aseb's 30-33), and each piece above 5 adds 13% (Masters: 701-842 s for 501 million,
// up to 1.68 us, below the 1.70 us this gives). Memory: solver::solve_memory_bytes (Masters
// measured 6,646 MiB).
inline constexpr double kFinkelSplitCpuSecondsPerPosition = 1.05e-6;
inline constexpr double kWideSharedCpuSecondsPerPosition = 1.35e-6;
inline constexpr double kWideSharedCaptureThrowsAgainShare = 0.8;
inline constexpr double kWideSharedCostPerPieceAboveFive = 0.13;

struct SolveCost {
  double positions = 0;
  double cpu_seconds = 0;
  double peak_bytes = 0;
};

// What a solve of `rules` should take. Precondition: solver::unsupported_rules(rules) is empty.
inline SolveCost estimated_solve_cost(const Rules& rules) {
  const auto positions = static_cast<double>(solver::count_positions(rules, false));
  const double per_position =
      solver::has_finkel_split(rules)
          ? kFinkelSplitCpuSecondsPerPosition
          : kWideSharedCpuSecondsPerPosition *
                (rules.capture_gives_extra_throw ? kWideSharedCaptureThrowsAgainShare : 1.0) *
                (1.0 + kWideSharedCostPerPieceAboveFive * std::max(0, rules.pieces - 5));
  return {positions, positions * per_position,
          static_cast<double>(solver::solve_memory_bytes(rules, solver::SolveOptions{}))};
}

// Rounded for people, yet still a figure: "about a second", "about 4 seconds", "about 15
// seconds", "about a minute", "about 20 minutes", "about 2 hours". Seconds stay whole below 10,
// so that a build of 3 seconds and one of 6 read apart; then they go by 5.
inline std::string rough_duration(double seconds) {
  if (seconds < 1.5) return "about a second";
  if (seconds >= 45 && seconds < 90) return "about a minute";
  if (seconds < 90) {
    const long rounded = seconds < 9.5 ? std::lround(seconds) : std::lround(seconds / 5) * 5;
    std::string text = "about ";
    text.append(std::to_string(rounded)).append(" seconds");
    return text;
  }
  const double minutes = seconds / 60;
  if (minutes < 90) {
    const long rounded =
        std::max(2L, minutes < 10 ? std::lround(minutes) : std::lround(minutes / 5) * 5);
    return "about " + std::to_string(rounded) + " minutes";
  }
  return "about " + std::to_string(std::lround(minutes / 60)) + " hours";
}

// "7s", "2m05s".
inline std::string duration_text(double seconds) {
  const long total = static_cast<long>(seconds + 0.5);
  std::ostringstream text;
  if (total >= 60) text << total / 60 << "m";
  text << std::setw(total >= 60 ? 2 : 1) << std::setfill('0') << total % 60 << "s";
  return text.str();
}

// Seconds left, extrapolated from the share done after `elapsed` seconds; unknown until 2%
// is done.
inline std::optional<double> eta_seconds(double fraction, double elapsed) {
  if (fraction <= 0.02) return std::nullopt;
  return elapsed * (1 - fraction) / fraction;
}

// "[######..........]" with `width` cells inside the brackets.
inline std::string progress_bar(double fraction, int width) {
  const int filled = std::clamp(static_cast<int>(fraction * width), 0, width);
  // Appended piecewise: g++ 12 misreports `"literal" + std::string&&` under -O3.
  std::string bar = "[";
  bar.append(filled, '#').append(width - filled, '.').append("]");
  return bar;
}

// The layer pair being solved: "layers 3/28 (homes 6,5)  sweep 12".
inline std::string layer_text(const solver::SolveProgress& progress) {
  return "layers " + std::to_string(std::min(progress.pair + 1, progress.pairs)) + "/" +
         std::to_string(progress.pairs) + " (homes " + std::to_string(progress.home_mine) + "," +
         std::to_string(progress.home_theirs) + ")  sweep " + std::to_string(progress.sweep);
}

// "1.2e-05": the largest change in the last sweep.
inline std::string residual_text(double residual) {
  std::ostringstream text;
  text << std::scientific << std::setprecision(1) << residual;
  return text.str();
}

// One line: bar, percent, layer pair, sweep, residual and ETA; `fraction` from SolveEstimate.
inline std::string progress_line(const solver::SolveProgress& progress, double fraction,
                                 double elapsed) {
  std::ostringstream line;
  line << progress_bar(fraction, 24) << " " << std::setw(3) << static_cast<int>(fraction * 100)
       << "%  " << layer_text(progress) << "  residual " << residual_text(progress.residual)
       << "  ETA ";
  const std::optional<double> eta = eta_seconds(fraction, elapsed);
  line << (eta ? duration_text(*eta) : "?");
  return line.str();
}

}  // namespace ur::tables
