#include "solver/compiled_pair.h"

#include <algorithm>
#include <cmath>

namespace ur::solver::detail {

namespace {

// Visits the updates of unit u in sweep order: visit(local position of the state (its mirror's
// is one more), global index of the state, global index of the mirror).
template <class Visit>
void visit_updates(const PositionIndex& index, const PairPlan& plan, const CompiledPair& compiled,
                   std::size_t u, const Visit& visit) {
  const Unit& unit = plan.units[u];
  const Block& block = index.blocks()[unit.block];
  const Block& mirrored = index.blocks()[unit.mirror_block];
  std::uint64_t id = 2 * compiled.updates_begin[u];
  for (std::uint32_t r = unit.rows_begin; r < unit.rows_end; ++r) {
    const RowPlan& row = plan.rows[r];
    for (std::uint32_t m = unit.mirror_rows_begin; m < unit.mirror_rows_end; ++m, id += 2) {
      const RowPlan& mirror_row = plan.rows[m];
      visit(id, state_index(block, row.rank, mirror_row.rank),
            state_index(mirrored, mirror_row.rank, row.rank));
    }
  }
}

// Calls visit(row plan, column) for the states of row r of the unit in sweep_compiled_unit's
// order: the row's states, one mirror row after the other, then their mirrors (none for a
// state that is its own mirror).
template <class Visit>
void visit_row_states(const PairPlan& plan, const Unit& unit, std::uint32_t r, const Visit& visit) {
  const RowPlan& row = plan.rows[r];
  for (std::uint32_t m = unit.mirror_rows_begin; m < unit.mirror_rows_end; ++m) {
    visit(row, plan.rows[m].rank);
  }
  for (std::uint32_t m = unit.mirror_rows_begin; m < unit.mirror_rows_end; ++m) {
    if (!is_own_mirror(unit, row, plan.rows[m])) visit(plan.rows[m], row.rank);
  }
}

// The value to the mover of the successor in `entry`: |0 - V| = V when the mover throws again,
// |1 - V| = 1 - V otherwise (0 <= V <= 1).
inline double successor_value(std::uint32_t entry, const double* local) {
  return std::abs(static_cast<double>(entry >> 31) - load(local[entry & kLocalMask]));
}

// moving_value over a state's resolved successors, recording the move each roll takes (the
// first best) into *choice and counting in *changed whether they differ from those there.
double compiled_moving_value(const RowPlan& row, const std::uint32_t* entries,
                             const double* roll_weights, int max_roll, const double* local,
                             std::uint32_t* choice, std::uint64_t* changed) {
  double expected = 0.0;
  std::uint32_t picks = 0;
  int begin = 0;
  for (int roll = 1; roll <= max_roll; ++roll) {
    const int end = row.ends[roll - 1];
    double best = 0.0;
    int pick = 0;
    for (int k = begin; k < end; ++k) {
      __builtin_prefetch(local + (entries[k + kEntriesAhead] & kLocalMask));
      const double value = successor_value(entries[k], local);
      // Without branches: a branch on the values waits for their loads when it mispredicts.
      const bool better = value > best;
      pick = better ? k - begin : pick;
      best = better ? value : best;
    }
    picks |= static_cast<std::uint32_t>(pick) << (kChoiceBits * (roll - 1));
    expected += roll_weights[roll] * best;
    begin = end;
  }
  *changed += *choice != picks;
  *choice = picks;
  return expected;
}

// The moving value of a state under its recorded choices: one successor a roll.
double chosen_moving_value(const RowPlan& row, const std::uint32_t* entries,
                           const double* roll_weights, int max_roll, const double* local,
                           std::uint32_t choice) {
  double expected = 0.0;
  int begin = 0;
  for (int roll = 1; roll <= max_roll; ++roll, choice >>= kChoiceBits) {
    const int end = row.ends[roll - 1];
    if (begin < end) {
      __builtin_prefetch(local + (entries[begin + kEntriesAhead] & kLocalMask));
      expected +=
          roll_weights[roll] * successor_value(entries[begin + (choice & kChoiceMask)], local);
    }
    begin = end;
  }
  return expected;
}

template <bool Follow>
double state_moving_value(const RowPlan& row, const std::uint32_t* entries,
                          const double* roll_weights, int max_roll, const double* local,
                          std::uint32_t* choice, std::uint64_t* changed) {
  if constexpr (Follow) {
    return chosen_moving_value(row, entries, roll_weights, max_roll, local, *choice);
  } else {
    return compiled_moving_value(row, entries, roll_weights, max_roll, local, choice, changed);
  }
}

// Where each planned successor leads: for column c, map slot `slot + c * stride` in the pair,
// or a constant (global index base + c * stride), or a win (V = 1, no lookup).
constexpr std::int64_t kConstant = -1;
constexpr std::int64_t kWin = -2;
std::int64_t slot_of(const PairRanges& ranges, const Successor& successor) {
  if (successor.kind == kMoverWins) return kWin;
  const auto slot = ranges.slot(successor.base);
  return slot ? static_cast<std::int64_t>(*slot) : kConstant;
}

// Where a compiled pair's parts go, worked out before anything is listed (8 bytes a successor,
// as much as the plan's successors): a pair too big to compile must not cost that on top of
// its plan.
struct Layout {
  std::vector<std::uint64_t> entries_begin;    // per unit, plus an end marker
  std::vector<std::uint64_t> updates_begin;    // per unit, plus an end marker
  std::vector<std::uint64_t> constants_begin;  // per unit, plus an end marker
  std::uint64_t zero_slot = 0;                 // V = 0: a win reads 1 - 0
  std::uint64_t constants_at = 0;
  std::uint64_t local_size = 0;
  std::uint64_t entry_count = 0;
  // Entries, local values and map; UINT64_MAX where the local positions would not fit the
  // entries' 31 bits.
  std::uint64_t bytes = 0;
};

Layout layout_of(const PairPlan& plan, const PairRanges& ranges, int max_roll, int threads) {
  std::vector<std::uint8_t> row_constants(plan.rows.size());
  for_each_chunk(threads, plan.rows.size(), 4096, [&](std::size_t begin, std::size_t end) {
    for (std::size_t r = begin; r < end; ++r) {
      const RowPlan& row = plan.rows[r];
      std::uint8_t constants = 0;
      for (std::uint32_t k = row.begin; k < row.begin + successor_count(row, max_roll); ++k) {
        constants += slot_of(ranges, plan.successors[k]) == kConstant;
      }
      row_constants[r] = constants;
    }
  });
  const std::size_t units = plan.units.size();
  Layout layout;
  layout.entries_begin.assign(units + 1, 0);
  layout.updates_begin.assign(units + 1, 0);
  layout.constants_begin.assign(units + 1, 0);
  for (std::size_t u = 0; u < units; ++u) {
    const Unit& unit = plan.units[u];
    std::uint64_t entries = 0;
    std::uint64_t constants = 0;
    for (std::uint32_t r = unit.rows_begin; r < unit.rows_end; ++r) {
      visit_row_states(plan, unit, r, [&](const RowPlan& row, std::uint64_t) {
        entries += successor_count(row, max_roll);
        constants += row_constants[&row - plan.rows.data()];
      });
    }
    layout.entries_begin[u + 1] = layout.entries_begin[u] + entries;
    layout.updates_begin[u + 1] =
        layout.updates_begin[u] + std::uint64_t{unit.rows_end - unit.rows_begin} *
                                      (unit.mirror_rows_end - unit.mirror_rows_begin);
    layout.constants_begin[u + 1] = layout.constants_begin[u] + constants;
  }
  layout.zero_slot = 2 * layout.updates_begin[units];
  layout.constants_at = layout.zero_slot + 1;
  layout.local_size = layout.constants_at + layout.constants_begin[units];
  layout.entry_count = layout.entries_begin[units] + kEntriesAhead;
  layout.bytes = layout.local_size > kLocalMask ? UINT64_MAX
                                                : layout.entry_count * sizeof(std::uint32_t) +
                                                      layout.local_size * sizeof(double) +
                                                      ranges.size() * sizeof(std::uint32_t);
  return layout;
}

}  // namespace

// Bytes compile_pair needs for a planned pair, or UINT64_MAX where its local positions would
// not fit the entries' 31 bits.
std::uint64_t compiled_pair_bytes(const PairPlan& plan, const PairRanges& ranges, int max_roll) {
  return layout_of(plan, ranges, max_roll, 1).bytes;
}

// Compiles a planned pair, whose layers are `ranges`, into `storage`, reading the constants
// from `values`; nullopt when the compiled form would need more than `budget` bytes.
std::optional<CompiledPair> compile_pair(const PositionIndex& index, const PairPlan& plan,
                                         const PairRanges& ranges, const double* values,
                                         int max_roll, std::size_t budget, int threads,
                                         CompileStorage& storage) {
  const Layout layout = layout_of(plan, ranges, max_roll, threads);
  if (layout.bytes > budget) return std::nullopt;
  const std::size_t units = plan.units.size();
  CompiledPair compiled;
  compiled.entries_begin = layout.entries_begin;
  compiled.updates_begin = layout.updates_begin;
  std::uint32_t* const entries = storage.entries.reserve(layout.entry_count, budget);
  double* const local = storage.local.reserve(layout.local_size, budget);
  std::uint32_t* const map = storage.map.reserve(ranges.size(), budget);
  std::fill(entries + compiled.entries_begin[units], entries + layout.entry_count, 0u);
  local[layout.zero_slot] = 0.0;
  compiled.entries = entries;
  compiled.local = local;
  compiled.changes = storage.changes.reserve(layout.zero_slot, budget / 2);
  compiled.choices = storage.choices.reserve(layout.zero_slot, budget / 2);

  // Local positions of the pair's states, which start at V = 0.
  for_each_chunk(threads, units, 1, [&](std::size_t u, std::size_t) {
    visit_updates(index, plan, compiled, u,
                  [&](std::uint64_t id, std::uint64_t at, std::uint64_t mirror_at) {
                    local[id] = local[id + 1] = 0.0;
                    compiled.choices[id] = compiled.choices[id + 1] = 0;  // compared when recorded
                    map[*ranges.slot(at)] = static_cast<std::uint32_t>(id);
                    if (at != mirror_at)
                      map[*ranges.slot(mirror_at)] = static_cast<std::uint32_t>(id + 1);
                  });
  });
  // The map is read at scattered places: the slots of a unit's row are listed (and prefetched)
  // while the previous row's are read, so that the cache misses overlap.
  std::atomic<std::size_t> next{0};
  run_workers(threads, [&](int) {
    // Per row: a map slot, or -1 - (global index of a constant), or kWin.
    std::array<std::vector<std::int64_t>, 2> slots;
    const auto list = [&](const RowPlan& row, std::uint64_t column,
                          std::vector<std::int64_t>& out) {
      for (std::uint32_t k = row.begin; k < row.begin + successor_count(row, max_roll); ++k) {
        const std::int64_t slot = slot_of(ranges, plan.successors[k]);
        const auto offset = static_cast<std::int64_t>(column * plan.successors[k].stride);
        if (slot >= 0) {
          __builtin_prefetch(map + slot + offset);
          out.push_back(slot + offset);
        } else if (slot == kConstant) {
          const std::int64_t global = plan.successors[k].base + offset;
          __builtin_prefetch(values + global);
          out.push_back(-1 - global);
        } else {
          out.push_back(kWin);
        }
      }
    };
    for (std::size_t u; (u = next.fetch_add(1)) < units;) {
      const Unit& unit = plan.units[u];
      std::uint32_t* entry = entries + compiled.entries_begin[u];
      std::uint64_t constant = layout.constants_at + layout.constants_begin[u];
      const auto list_row = [&](std::uint32_t r) {
        std::vector<std::int64_t>& out = slots[r & 1];
        out.clear();
        visit_row_states(plan, unit, r,
                         [&](const RowPlan& row, std::uint64_t column) { list(row, column, out); });
      };
      list_row(unit.rows_begin);
      for (std::uint32_t r = unit.rows_begin; r < unit.rows_end; ++r) {
        if (r + 1 < unit.rows_end) list_row(r + 1);
        const std::vector<std::int64_t>& listed = slots[r & 1];
        std::size_t k = 0;
        visit_row_states(plan, unit, r, [&](const RowPlan& row, std::uint64_t) {
          for (std::uint32_t s = row.begin; s < row.begin + successor_count(row, max_roll); ++s) {
            const std::int64_t slot = listed[k++];
            std::uint64_t position;
            if (slot >= 0) {
              position = map[slot];
            } else if (slot == kWin) {
              position = layout.zero_slot;
            } else {
              local[constant] = values[-1 - slot];
              position = constant++;
            }
            *entry++ = static_cast<std::uint32_t>(position) |
                       (plan.successors[s].kind == kMoverAgain ? 0u : kOpponentBit);
          }
        });
      }
    }
  });
  return compiled;
}

namespace {

template <bool Follow>
UnitSweep sweep_compiled(const PairPlan& plan, const CompiledPair& compiled, std::size_t u,
                         const double* roll_weights, int max_roll, double* local) {
  const Unit& unit = plan.units[u];
  const std::uint32_t* entries = compiled.entries + compiled.entries_begin[u];
  const std::uint32_t columns = unit.mirror_rows_end - unit.mirror_rows_begin;
  // Per mirror row (a unit has at most 2^kMaxLowSquares: the masks of the low squares).
  std::array<double, 1u << kMaxLowSquares> moving;
  std::array<double, 1u << kMaxLowSquares> inverse;
  std::uint64_t id = 2 * compiled.updates_begin[u];
  double largest = 0.0;
  std::uint64_t changed = 0;
  for (std::uint32_t r = unit.rows_begin; r < unit.rows_end; ++r) {
    const RowPlan& row = plan.rows[r];
    const std::uint32_t count = successor_count(row, max_roll);
    for (std::uint32_t j = 0; j < columns; ++j, entries += count) {
      moving[j] = state_moving_value<Follow>(row, entries, roll_weights, max_roll, local,
                                             compiled.choices + id + 2 * j, &changed);
    }
    // Divided apart from the values, so that the divisions overlap instead of each one
    // delaying its state's stores (inline, a quarter of this function's samples sat on them).
    for (std::uint32_t j = 0; j < columns; ++j) {
      inverse[j] =
          inverse_determinant(row.pass_weight, plan.rows[unit.mirror_rows_begin + j].pass_weight);
    }
    for (std::uint32_t j = 0; j < columns; ++j, id += 2) {
      const RowPlan& mirror_row = plan.rows[unit.mirror_rows_begin + j];
      MirrorValues solved;
      if (is_own_mirror(unit, row, mirror_row)) {
        solved.value = solved.mirror_value = solve_own_mirror(moving[j], row.pass_weight);
      } else {
        solved = solve_with_mirror(
            moving[j], row.pass_weight,
            state_moving_value<Follow>(mirror_row, entries, roll_weights, max_roll, local,
                                       compiled.choices + id + 1, &changed),
            mirror_row.pass_weight, inverse[j]);
        entries += successor_count(mirror_row, max_roll);
      }
      const double change = solved.value - load(local[id]);
      const double mirror_change = solved.mirror_value - load(local[id + 1]);
      largest = std::max(largest, std::max(std::abs(change), std::abs(mirror_change)));
      compiled.changes[id] = static_cast<float>(change);
      compiled.changes[id + 1] = static_cast<float>(mirror_change);
      store(local[id], solved.value);
      store(local[id + 1], solved.mirror_value);
    }
  }
  return {largest, changed};
}

}  // namespace

// sweep_unit over a compiled pair. A row's states share one plan, so their moving values are
// computed in a run (their loop counts repeat, which the branch predictor learns), then each is
// solved with its mirror, whose plan differs from one to the next.
UnitSweep sweep_compiled_unit(const PairPlan& plan, const CompiledPair& compiled, std::size_t u,
                              const double* roll_weights, int max_roll, double* local,
                              SweepKind kind) {
  return kind == SweepKind::kFollowChoices
             ? sweep_compiled<true>(plan, compiled, u, roll_weights, max_roll, local)
             : sweep_compiled<false>(plan, compiled, u, roll_weights, max_roll, local);
}

void extrapolate(const CompiledPair& compiled, double factor, std::size_t begin, std::size_t end) {
  for (std::uint64_t id = 2 * compiled.updates_begin[begin]; id < 2 * compiled.updates_begin[end];
       ++id) {
    const double value = compiled.local[id] + factor * compiled.changes[id];
    store(compiled.local[id], std::clamp(value, 0.0, 1.0));
  }
}

void SweepSchedule::after_sweep(SweepKind kind, double change, std::uint64_t changed_choices,
                                std::uint64_t states, double tolerance) {
  const double ratio = last_change_ > 0.0 ? change / last_change_ : 1.0;
  last_change_ = change;
  if (kind != SweepKind::kFollowChoices) {
    // The first sweep of a pair recorded its moves over those of the pair before.
    if (!recorded_) changed_choices = states;
    recorded_ = true;
    follow_left_ =
        static_cast<double>(changed_choices) <= kSettledShare * static_cast<double>(states)
            ? kFollowWhenSettled
            : kFollowWhileChanging;
  } else if (--follow_left_ > 0 && change * std::min(ratio, 1.0) <= tolerance) {
    follow_left_ = 0;  // the next sweep may end the pair: only a Bellman sweep can
  }
}

double Extrapolator::after_full_sweep(double change) {
  const double ratio = change_ > 0.0 ? change / change_ : 0.0;
  change_ = change;
  const bool steady = ++sweeps_ >= 3 && ratio > kLowestRatio && ratio < kHighestRatio &&
                      std::abs(ratio - ratio_) < kRatioSpread;
  ratio_ = ratio;
  if (!steady) return 0.0;
  sweeps_ = 0;
  return ratio / (1.0 - ratio);
}

// Copies a compiled pair's values to their global indices.
void write_back(const PositionIndex& index, const PairPlan& plan, const CompiledPair& compiled,
                double* values, int threads) {
  for_each_chunk(threads, plan.units.size(), 1, [&](std::size_t u, std::size_t) {
    visit_updates(index, plan, compiled, u,
                  [&](std::uint64_t id, std::uint64_t at, std::uint64_t mirror_at) {
                    values[at] = compiled.local[id];
                    values[mirror_at] = compiled.local[id + 1];
                  });
  });
}

}  // namespace ur::solver::detail
