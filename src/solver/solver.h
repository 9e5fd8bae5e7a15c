// Solving the game: the win probability of every position under perfect play, by value
// iteration to the fixed point of
//   V(s) = sum_r P(r) * max over moves m of (V(s') if the mover throws again, else 1 - V(s'))
// where s' is the position after m (a pass when no move exists or the roll is 0).
// No I/O: progress goes to a callback and an atomic flag cancels.
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "core/movegen.h"
#include "solver/position_index.h"

namespace ur::solver {

// The mover's chance to win after making `move` in `position` (the mover's view, light to
// move), read through `value` (index -> V of the position's mover).
template <class ValueOf>
double value_after_move(const PositionIndex& index, const Position& position, const Move& move,
                        ValueOf&& value) {
  const Rules& rules = index.rules();
  const Position after = apply_move(rules, position, move);
  if (after.home[0] == rules.pieces) return 1.0;  // the mover just won
  if (after.turn == Side::Light) {
    return value(index.rank_view(after.board[0], after.board[1], after.home[0], after.home[1]));
  }
  return 1.0 - value(index.rank_view(after.board[1], after.board[0], after.home[1], after.home[0]));
}

// The mover's chance after passing: the opponent then moves in the same position.
template <class ValueOf>
double value_after_pass(const PositionIndex& index, const Position& position, ValueOf&& value) {
  return 1.0 - value(index.rank_view(position.board[1], position.board[0], position.home[1],
                                     position.home[0]));
}

// Right-hand side of the Bellman equation for `position` (mover's view, game not over).
template <class ValueOf>
double bellman_value(const PositionIndex& index, const Position& position, ValueOf&& value) {
  const Rules& rules = index.rules();
  const double total_weight = roll_weight_total(rules);
  double pass_value = -1.0;  // computed at most once
  double expected = 0.0;
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    const MoveList moves = legal_moves(rules, position, roll);
    double best;
    if (moves.empty()) {
      if (pass_value < 0.0) pass_value = value_after_pass(index, position, value);
      best = pass_value;
    } else {
      best = 0.0;
      for (const Move& move : moves) {
        best = std::max(best, value_after_move(index, position, move, value));
      }
    }
    expected += roll_weight(rules, roll) * best;
  }
  return expected / total_weight;
}

struct SolveOptions {
  int threads = 1;          // worker threads, >= 1
  double tolerance = 1e-9;  // stop a layer when a sweep changes no value by more than this
  int max_sweeps = 100000;  // per layer pair; a safety net, never reached in practice
  // Memory for a layer pair's compiled successor lists (about 70 bytes a state, and 8 more
  // outside this budget for each state's last change and recorded moves), which sweep faster
  // than row plans; a bigger pair uses its row plans. 2.25 GiB compiles every pair of 7-piece
  // Finkel (the largest, 29.6 million states, takes 2,229 MiB; peak 3,635 MiB, 1.1 GB of it the
  // values) and Masters' pairs up to about 30 million states (peak under 8 GiB).
  std::size_t compiled_pair_bytes = std::size_t{2304} << 20;
};

// Whether `rules` leave 6 or more private squares a side (Finkel's route), so the index splits
// into 64-state blocks whose rows share a plan over many states; the 12 shared squares of
// Masters, Blitz and Aseb make small blocks instead. Memory and time both follow it.
inline bool has_finkel_split(const Rules& rules) {
  return rules.route_length - count_squares(rules.shared) >= 6;
}

// Bytes a solve of `rules` holds at its peak, about and on the high side: the values (8 bytes a
// position), the index, the compiled pair lists up to their budget, and the plans of a large
// layer pair, counted per position of the whole table: Finkel's 64-state blocks share a row's
// plan over many states, the 12 shared squares of Masters, Blitz and Aseb make small blocks
// (measured: docs/performance.md).
std::uint64_t solve_memory_bytes(const Rules& rules, const SolveOptions& options);

struct SolveProgress {
  int pair = 0;       // layer pairs finished so far
  int pairs = 0;      // layer pairs in all
  int home_mine = 0;  // the pair being solved: (home_mine, home_theirs) and its mirror
  int home_theirs = 0;
  int sweep = 0;                   // sweeps done in this pair
  double residual = 0.0;           // largest change in the last sweep
  std::uint64_t states_done = 0;   // states in finished pairs
  std::uint64_t states_total = 0;  // states to solve (terminal layers excluded)
  std::uint64_t updates = 0;       // state updates so far
};

using ProgressCallback = std::function<void(const SolveProgress&)>;

struct SolveResult {
  std::vector<double> values;          // V by index; empty when cancelled
  double residual = 0.0;               // bound on the Bellman residual: largest last-sweep change
  std::uint64_t updates = 0;           // state updates done
  std::uint64_t followed_updates = 0;  // of them, along recorded moves (SweepKind::kFollowChoices)
  int total_sweeps = 0;                // sweeps over all layer pairs
  std::uint64_t compiled_states = 0;   // states of the pairs swept through compiled lists
  bool cancelled = false;
};

// Solves every position of `index`. `progress` (may be empty) is called after every sweep,
// from the calling thread. Setting `*cancel` (may be null) stops at the next sweep.
SolveResult solve(const PositionIndex& index, const SolveOptions& options,
                  const ProgressCallback& progress, const std::atomic<bool>* cancel);

struct VerifyResult {
  double max_residual = 0.0;
  std::uint64_t worst_index = 0;
};

// Recomputes the Bellman right-hand side of every position once from `value` and returns
// the largest |V(s) - rhs(s)|. Independent of the solver loop.
VerifyResult verify(const PositionIndex& index, const std::function<double(std::uint64_t)>& value,
                    int threads);

}  // namespace ur::solver
