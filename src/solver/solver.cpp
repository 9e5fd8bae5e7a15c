// The solve: layer pairs in order, each swept (compiled where it fits) until its largest change
// is within the tolerance, with extra sweeps of its slowest units in between.
#include "solver/solver.h"

#include <cmath>
#include <numeric>

#include "solver/compiled_pair.h"
#include "solver/work_shares.h"

namespace ur::solver {

using namespace detail;

std::uint64_t solve_memory_bytes(const Rules& rules, const SolveOptions& options) {
  // Beside the values (8 bytes a position) and the index, one pair is held at a time: either
  // the row plan of a pair too big to compile (the largest pair's, about plan_bytes_per_position
  // over the whole set: 7-piece Masters 7,008 MiB = 3,822 values + 343 index + 2,843 plan) or a
  // compiled pair's lists (the largest that fits the budget, at kCompiledBytesPerState)
  // with its plan and work lists: under 0.1 of the lists again for Finkel's split (7 pieces:
  // 3,635 MiB = 1,052 values + 2,229 lists + 226 changes and recorded moves + the rest), 0.7 for
  // the wide shared lane's small blocks (Blitz: 2,141-2,164 MiB = 315 values + 146 index + 1,077
  // lists + the rest; Aseb up to 2,393 MiB).
  const double positions = static_cast<double>(count_positions(rules, false));
  const bool finkel_split = has_finkel_split(rules);
  const double plan_bytes_per_position = finkel_split ? 1.0 : 6.0;
  const double compiled_pair_plan_share = finkel_split ? 0.15 : 0.7;
  // The largest pair that compiles: its lists, at kCompiledBytesPerState, fit the budget.
  double compiled = 0.0;
  for (const LayerPair& pair : solve_order(rules.pieces)) {
    std::uint64_t states = count_layer_positions(rules, pair.home_mine, pair.home_theirs);
    if (pair.home_mine != pair.home_theirs) {
      states += count_layer_positions(rules, pair.home_theirs, pair.home_mine);
    }
    const double lists = static_cast<double>(states) * kCompiledBytesPerState;
    if (lists <= static_cast<double>(options.compiled_pair_bytes)) {
      compiled = std::max(compiled, lists);
    }
  }
  // Beside its lists, a compiled pair keeps each state's last change for extrapolation and its
  // recorded moves.
  const double changes =
      compiled / kCompiledBytesPerState * (sizeof(float) + sizeof(std::uint32_t));
  const double pair = std::max(positions * plan_bytes_per_position,
                               compiled * (1.0 + compiled_pair_plan_share) + changes);
  // The process itself (binary, libraries, thread stacks, allocations rounded to huge pages):
  // 33 MiB peak for the 294 positions of 1-piece Masters, 67 MiB for 2 pieces, which the
  // terms above put at 27 MiB.
  constexpr double kProcessBytes = 48.0 * (1 << 20);
  return static_cast<std::uint64_t>(positions * sizeof(double) + pair + kProcessBytes) +
         index_bytes(rules);
}

SolveResult solve(const PositionIndex& index, const SolveOptions& options,
                  const ProgressCallback& progress, const std::atomic<bool>* cancel) {
  const int pieces = index.rules().pieces;
  const int threads = std::max(1, options.threads);
  SolveResult result;
  result.values.reserve(index.size());
  advise_huge_pages(result.values.data(), index.size() * sizeof(double));
  result.values.resize(index.size(), 0.0);
  double* values = result.values.data();

  const std::vector<LayerPair> order = solve_order(pieces);
  SolveProgress report;
  report.pairs = static_cast<int>(order.size());
  for (const LayerPair& pair : order) report.states_total += PairRanges(index, pair).size();

  const std::vector<unsigned> low_masks = low_masks_by_progress(index.low_squares());
  const int max_roll = index.rules().max_roll();
  std::vector<double> roll_weights;
  for (Roll roll = 0; roll <= max_roll; ++roll) {
    roll_weights.push_back(roll_probability(index.rules(), roll));
  }
  // After a full sweep, the units whose change was above kSlowShare of the largest (the
  // early fights on squares 5-8, where captures cycle: 2-20% of the states) are swept again
  // alone, up to kMaxFocusSweeps times or until their change is below kFocusTarget of that
  // sweep's, each time keeping those whose change was above kSlowShare of that focus sweep's. The
  // rest of the pair converges faster than they do, so this saves full sweeps (5 pieces: 471M ->
  // 375M updates). Only a full sweep can end a pair, so the stopping bound stays a bound on the
  // whole pair's Bellman residual.
  constexpr double kSlowShare = 0.03;
  constexpr double kFocusTarget = 0.01;
  constexpr int kMaxFocusSweeps = 10;
  constexpr double kMaxFocusStates = 0.2;  // of the pair: above it, a full sweep is as good
  std::vector<double> unit_changes;
  std::vector<std::uint32_t> all_units;
  std::vector<std::uint32_t> slow_units;
  CompileStorage storage;
  PairPlan plan;
  for (const LayerPair& pair : order) {
    const PairRanges ranges(index, pair);
    // A pair too big to compile comes with a big plan: free the lists of the last compiled pair
    // before planning it (7 pieces: 1,816 MiB peak otherwise).
    if (static_cast<double>(ranges.size()) * kCompiledBytesPerState >
        static_cast<double>(options.compiled_pair_bytes)) {
      storage.release();
    }
    plan_pair(index, pair, low_masks, threads, plan);
    const std::optional<CompiledPair> compiled = compile_pair(
        index, plan, ranges, values, max_roll, options.compiled_pair_bytes, threads, storage);
    if (compiled) result.compiled_states += plan.states;
    if (!compiled) storage.release();
    double* const local = compiled ? compiled->local : nullptr;
    const std::vector<Unit>& work = plan.units;
    const std::uint64_t pair_states = plan.states;
    report.home_mine = pair.home_mine;
    report.home_theirs = pair.home_theirs;
    unit_changes.assign(work.size(), 0.0);
    all_units.resize(work.size());
    std::iota(all_units.begin(), all_units.end(), 0u);
    // Sweeps the listed units, each thread its own share of the list in list order (sweep
    // order); returns the largest change and the states whose recorded moves changed.
    std::vector<std::uint64_t> weights;
    const auto sweep_units = [&](const std::vector<std::uint32_t>& list, SweepKind kind) {
      weights.clear();
      for (const std::uint32_t w : list) weights.push_back(unit_states(work[w]));
      WorkShares shares(weights, threads, 16);
      std::vector<UnitSweep> swept(threads);
      const auto worker = [&](int thread) {
        UnitSweep total;  // kept here: the threads' slots share a cache line
        while (const auto chunk = shares.next(thread)) {
          for (std::size_t k = chunk->first; k < chunk->second; ++k) {
            const std::uint32_t w = list[k];
            const UnitSweep unit =
                compiled ? sweep_compiled_unit(plan, *compiled, w, roll_weights.data(), max_roll,
                                               local, kind)
                         : UnitSweep{sweep_unit(index, plan, work[w], roll_weights.data(), max_roll,
                                                values)};
            unit_changes[w] = unit.largest;
            total.absorb(unit);
          }
        }
        swept[thread] = total;
      };
      run_workers(threads, worker);
      UnitSweep total;
      for (const UnitSweep& part : swept) total.absorb(part);
      return total;
    };
    Extrapolator extrapolator;
    SweepSchedule schedule;
    for (int sweep = 1; sweep <= options.max_sweeps; ++sweep) {
      if (cancel && cancel->load()) {
        result.cancelled = true;
        result.values.clear();
        return result;
      }
      // Only compiled pairs keep recorded moves; the row plans' sweeps are all Bellman sweeps.
      const SweepKind kind = compiled ? schedule.next() : SweepKind::kBellman;
      const UnitSweep swept = sweep_units(all_units, kind);
      const double change = swept.largest;
      result.updates += pair_states;
      if (kind == SweepKind::kFollowChoices) result.followed_updates += pair_states;
      ++result.total_sweeps;
      report.sweep = sweep;
      // A sweep along recorded moves does not measure the Bellman residual.
      if (kind != SweepKind::kFollowChoices) report.residual = change;
      report.updates = result.updates;
      if (progress) progress(report);
      if (kind != SweepKind::kFollowChoices && change <= options.tolerance) {
        result.residual = std::max(result.residual, change);
        break;
      }
      schedule.after_sweep(kind, change, swept.changed_choices, pair_states, options.tolerance);
      if (compiled) {
        if (const double factor = extrapolator.after_full_sweep(change); factor > 0.0) {
          for_each_chunk(threads, work.size(), 64, [&](std::size_t begin, std::size_t end) {
            extrapolate(*compiled, factor, begin, end);
          });
          schedule.after_extrapolation();
          continue;  // the next full sweep measures the extrapolated values
        }
      }
      slow_units.clear();
      std::uint64_t slow_states = 0;
      for (std::uint32_t w = 0; w < work.size(); ++w) {
        if (unit_changes[w] > kSlowShare * change) {
          slow_units.push_back(w);
          slow_states += unit_states(work[w]);
        }
      }
      if (static_cast<double>(slow_states) > kMaxFocusStates * static_cast<double>(pair_states)) {
        continue;
      }
      extrapolator.interrupt();
      for (int focus = 0; focus < kMaxFocusSweeps; ++focus) {
        // Of the kind of the sweep before: after a sweep along recorded moves, a Bellman sweep of
        // the slow units alone would be undone by the next sweep along the moves.
        const double slow_change = sweep_units(slow_units, kind).largest;
        result.updates += slow_states;
        if (kind == SweepKind::kFollowChoices) result.followed_updates += slow_states;
        if (slow_change <= kFocusTarget * change) break;
        // Keep sweeping only the units still slow among them (5 pieces: 375M -> 362M updates).
        std::size_t kept = 0;
        slow_states = 0;
        for (const std::uint32_t w : slow_units) {
          if (unit_changes[w] > kSlowShare * slow_change) {
            slow_units[kept++] = w;
            slow_states += unit_states(work[w]);
          }
        }
        slow_units.resize(kept);
      }
    }
    if (compiled) write_back(index, plan, *compiled, values, threads);
    ++report.pair;
    report.states_done += pair_states;
  }
  if (progress) progress(report);
  return result;
}

}  // namespace ur::solver
