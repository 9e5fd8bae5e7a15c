// The sweep through row plans: every successor index is base + column x stride, read from the
// global values. Used for the layer pairs too big to compile (most of 7-piece Finkel's work).
#include <cmath>

#include "solver/solver_detail.h"

namespace ur::solver::detail {
namespace {

// The mover's expected value over the rolls that have moves, for one state.
double moving_value(const PairPlan& plan, const RowPlan& row, std::uint64_t column,
                    const double* roll_weights, int max_roll, const double* values) {
  const Successor* successors = plan.successors.data() + row.begin;
  double expected = 0.0;
  int begin = 0;
  for (int roll = 1; roll <= max_roll; ++roll) {
    const int end = row.ends[roll - 1];
    // Branch-free: the kind selects offset + sign * V (a pass roll adds 0).
    static constexpr double kOffset[] = {0.0, 1.0, 1.0};
    static constexpr double kSign[] = {1.0, -1.0, 0.0};
    double best = 0.0;
    for (int k = begin; k < end; ++k) {
      const Successor& next = successors[k];
      const double v = load(values[next.base + column * next.stride]);
      best = std::max(best, kOffset[next.kind] + kSign[next.kind] * v);
    }
    expected += roll_weights[roll] * best;
    begin = end;
  }
  return expected;
}

// Asks the cache for the successor values of state (row, column), without waiting.
void prefetch_successors(const PairPlan& plan, const RowPlan& row, std::uint64_t column,
                         int max_roll, const double* values) {
  const Successor* successors = plan.successors.data() + row.begin;
  const int count = row.ends[max_roll - 1];
  for (int k = 0; k < count; ++k) {
    __builtin_prefetch(values + successors[k].base + column * successors[k].stride);
  }
}

}  // namespace

// One Gauss-Seidel pass over a unit through its row plans, each state solved together with its
// mirror. Returns the largest change.
double sweep_unit(const PositionIndex& index, const PairPlan& plan, const Unit& unit,
                  const double* roll_weights, int max_roll, double* values) {
  const Block& block = index.blocks()[unit.block];
  const Block& mirrored = index.blocks()[unit.mirror_block];
  // The updates are bound by the latency of the successor loads (scattered over the pair and
  // the layers below), so the successors of the state kPrefetchAhead updates ahead are
  // requested early: measured 1.4x (4 pieces, in L3) to 2.3x (5 pieces) fewer ns per update.
  constexpr int kPrefetchAhead = 6;
  double largest = 0.0;
  std::uint32_t ahead_row = unit.rows_begin;
  std::uint32_t ahead_mirror_row = unit.mirror_rows_begin;
  const auto prefetch_ahead = [&] {
    if (ahead_row >= unit.rows_end) return;
    const RowPlan& row = plan.rows[ahead_row];
    const RowPlan& mirror_row = plan.rows[ahead_mirror_row];
    prefetch_successors(plan, row, mirror_row.rank, max_roll, values);
    prefetch_successors(plan, mirror_row, row.rank, max_roll, values);
    __builtin_prefetch(values + state_index(mirrored, mirror_row.rank, row.rank));
    if (++ahead_mirror_row == unit.mirror_rows_end) {
      ahead_mirror_row = unit.mirror_rows_begin;
      ++ahead_row;
    }
  };
  for (int k = 0; k < kPrefetchAhead; ++k) prefetch_ahead();
  for (std::uint32_t r = unit.rows_begin; r < unit.rows_end; ++r) {
    const RowPlan& row = plan.rows[r];
    const double pass = row.pass_weight;
    for (std::uint32_t m = unit.mirror_rows_begin; m < unit.mirror_rows_end; ++m) {
      const RowPlan& mirror_row = plan.rows[m];
      prefetch_ahead();
      // State (row, column) of the block mirrors state (column, row) of the mirror block.
      const std::uint64_t at = state_index(block, row.rank, mirror_row.rank);
      const std::uint64_t mirror_at = state_index(mirrored, mirror_row.rank, row.rank);
      const double moving =
          moving_value(plan, row, mirror_row.rank, roll_weights, max_roll, values);
      MirrorValues solved;
      if (at == mirror_at) {
        solved.value = solved.mirror_value = solve_own_mirror(moving, pass);
      } else {
        solved = solve_with_mirror(
            moving, pass, moving_value(plan, mirror_row, row.rank, roll_weights, max_roll, values),
            mirror_row.pass_weight, inverse_determinant(pass, mirror_row.pass_weight));
      }
      largest = std::max(largest, std::abs(solved.value - load(values[at])));
      largest = std::max(largest, std::abs(solved.mirror_value - load(values[mirror_at])));
      store(values[at], solved.value);
      store(values[mirror_at], solved.mirror_value);
    }
  }
  return largest;
}

}  // namespace ur::solver::detail
