// Compiled layer pairs: a pair's plans resolved into one list of successor positions per state
// over a pair-local value array, which sweeps faster than the row plans while it fits its
// memory budget. Internal to src/solver.
#pragma once

#include <algorithm>
#include <memory>

#include "solver/solver_detail.h"

namespace ur::solver::detail {

// Memory for the compiled lists, reused from pair to pair. It is allocated once at the most a
// pair may take (the budget) and left unset: only the pages a pair writes are ever backed, and
// every element is written before it is read. Fresh zeroed vectors for every pair cost 0.8 s of
// page faults and clearing at 5 pieces; buffers that grow with the pairs still cost 0.5 s,
// because the kernel clears every new page.
template <class T>
class ScratchBuffer {
 public:
  // Room for `count` elements; the first call allocates `budget_bytes` (or more).
  T* reserve(std::size_t count, std::size_t budget_bytes) {
    if (count > capacity_) {
      data_.reset();
      capacity_ = std::max(count, budget_bytes / sizeof(T));
      data_.reset(new T[capacity_]);
      advise_huge_pages(data_.get(), capacity_ * sizeof(T));
    }
    return data_.get();
  }
  void release() {
    data_.reset();
    capacity_ = 0;
  }

 private:
  std::unique_ptr<T[]> data_;
  std::size_t capacity_ = 0;
};

struct CompileStorage {
  ScratchBuffer<std::uint32_t> entries;
  ScratchBuffer<double> local;
  ScratchBuffer<std::uint32_t> map;  // a pair state's local position, by global index
  ScratchBuffer<float> changes;
  ScratchBuffer<std::uint32_t> choices;
  void release() {
    entries.release();
    local.release();
    map.release();
    changes.release();
    choices.release();
  }
};

// A layer pair compiled for sweeping: plans resolved into one list of successor positions per
// state. The pair's states get positions in a pair-local value array in sweep order (a unit's
// states and their mirrors side by side), so the values a unit reads sit in few cache lines,
// and a sweep streams through the list instead of computing base + column x stride. It costs
// about 70 bytes a state, so big pairs (most of the 7-piece work) keep the row plans. Successors in
// the solved layers below are constants, copied to slots after the states. The arrays live in a
// CompileStorage.
struct CompiledPair {
  // Per unit and row: the successors of the row's states, one mirror row after the other, then
  // those of their mirrors (none for a state that is its own mirror), each in RowPlan order,
  // then kEntriesAhead zeros. Bits 0-30: a local position; bit 31 set: the value is 1 - V (the
  // opponent moves next).
  const std::uint32_t* entries = nullptr;
  double* local = nullptr;  // 2 per update (state, mirror), then constants
  // Per state of `local`: its last update's change, new - old (float: only extrapolate reads it).
  float* changes = nullptr;
  // Per state of `local`: the move each roll took in the last sweep that recorded them,
  // kChoiceBits a roll from roll 1 in the low bits (an index into the roll's successors).
  std::uint32_t* choices = nullptr;
  std::vector<std::uint64_t> entries_begin;  // per unit, plus an end marker
  std::vector<std::uint64_t> updates_begin;  // per unit, plus an end marker
};

// About what a compiled pair takes a state, on the high side (5-piece Finkel 66-70 bytes, its
// 7 pieces 79, Blitz 75), to tell ahead of planning which pairs will not fit the budget.
inline constexpr double kCompiledBytesPerState = 80.0;

// A roll moves one of at most 7 pieces (or one from the start): 4 bits hold its index, and
// 7 rolls (6 dice, 0 counting as 7) fit 32 bits.
inline constexpr int kChoiceBits = 4;
inline constexpr std::uint32_t kChoiceMask = (1u << kChoiceBits) - 1;

inline constexpr std::uint32_t kOpponentBit = 0x80000000u;
inline constexpr std::uint32_t kLocalMask = 0x7fffffffu;
// The values of the successor this many entries ahead (about 6 updates) are prefetched.
inline constexpr int kEntriesAhead = 128;

inline bool is_own_mirror(const Unit& unit, const RowPlan& row, const RowPlan& mirror_row) {
  return unit.block == unit.mirror_block && row.rank == mirror_row.rank;
}

inline std::uint32_t successor_count(const RowPlan& row, int max_roll) {
  return row.ends[max_roll - 1];
}

// The global index ranges of a pair's one or two layers, numbered on for the map.
class PairRanges {
 public:
  PairRanges(const PositionIndex& index, const LayerPair& pair) {
    const std::span<const Block> blocks = index.blocks();
    for (const auto& [mine, theirs] : {std::pair{pair.home_mine, pair.home_theirs},
                                       std::pair{pair.home_theirs, pair.home_mine}}) {
      const auto [first, last] = index.layer_blocks(mine, theirs);
      if (first < last) {
        ranges_.push_back(
            {blocks[first].offset, blocks[last - 1].offset + blocks[last - 1].size(), size_});
        size_ += ranges_.back().end - ranges_.back().begin;
      }
      if (mine == theirs) break;
    }
  }
  std::uint64_t size() const { return size_; }
  // The map slot of a global index, or nullopt outside the pair.
  std::optional<std::uint64_t> slot(std::uint64_t global) const {
    for (const Range& range : ranges_) {
      if (global >= range.begin && global < range.end) return range.slot + (global - range.begin);
    }
    return std::nullopt;
  }

 private:
  struct Range {
    std::uint64_t begin, end, slot;
  };
  std::vector<Range> ranges_;
  std::uint64_t size_ = 0;
};

// Bytes compile_pair needs for a planned pair, or UINT64_MAX where its local positions would
// not fit the entries' 31 bits.
std::uint64_t compiled_pair_bytes(const PairPlan& plan, const PairRanges& ranges, int max_roll);

// Compiles a planned pair, whose layers are `ranges`, into `storage`, reading the constants
// from `values`; nullopt when the compiled form would need more than `budget` bytes.
std::optional<CompiledPair> compile_pair(const PositionIndex& index, const PairPlan& plan,
                                         const PairRanges& ranges, const double* values,
                                         int max_roll, std::size_t budget, int threads,
                                         CompileStorage& storage);

// What a sweep of a compiled pair does for each roll of each state.
enum class SweepKind {
  kBellman,        // takes the best move; on a compiled pair also records it in
                   // CompiledPair::choices
  kFollowChoices,  // takes the recorded moves: one read a roll instead of one a move
};

struct UnitSweep {
  double largest = 0.0;               // largest change of a value
  std::uint64_t changed_choices = 0;  // kBellman: states whose recorded moves changed
  void absorb(const UnitSweep& other) {
    largest = std::max(largest, other.largest);
    changed_choices += other.changed_choices;
  }
};

// sweep_unit over a compiled pair. A row's states share one plan, so their moving values are
// computed in a run (their loop counts repeat, which the branch predictor learns), then each is
// solved with its mirror, whose plan differs from one to the next.
UnitSweep sweep_compiled_unit(const PairPlan& plan, const CompiledPair& compiled, std::size_t u,
                              const double* roll_weights, int max_roll, double* local,
                              SweepKind kind);

// Chooses the kind of each sweep of a compiled pair (modified policy iteration). A sweep along
// recorded moves reads one successor a roll instead of every move's and costs about 0.52 of a
// Bellman sweep that records them (which costs 1.2 of one that does not). So every Bellman sweep
// is followed by one such sweep, or by kFollowWhenSettled once the moves have settled. In
// unrecorded Bellman sweeps, one thread: Aseb 4 pieces 168.8 -> 151, finkel 5 318 -> 304, Blitz 4
// 98.6 -> 94 (docs/performance.md, "Sweeps along recorded moves"). Only a Bellman sweep
// measures the Bellman residual, so only one may end a pair.
class SweepSchedule {
 public:
  SweepKind next() const {
    return follow_left_ > 0 ? SweepKind::kFollowChoices : SweepKind::kBellman;
  }
  // After a sweep of the whole pair (`states` states) of kind `kind` whose largest change was
  // `change` and which changed the moves of `changed_choices` states.
  void after_sweep(SweepKind kind, double change, std::uint64_t changed_choices,
                   std::uint64_t states, double tolerance);
  // Extrapolated values move states across their moves' boundaries: record them afresh.
  void after_extrapolation() { follow_left_ = 0; }

 private:
  static constexpr int kFollowWhileChanging = 1;
  static constexpr int kFollowWhenSettled = 3;
  static constexpr double kSettledShare = 0.01;  // of the states changed their moves at most
  int follow_left_ = 0;
  bool recorded_ = false;  // a Bellman sweep has recorded the moves of this pair
  double last_change_ = 0.0;
};

// Extrapolates a compiled pair's values along their last changes: V += factor x change for the
// states of units [begin, end), clamped to [0, 1]. After a full sweep whose change shrank by a
// steady ratio r, factor r / (1 - r) removes the error of that slowest mode (see Extrapolator).
void extrapolate(const CompiledPair& compiled, double factor, std::size_t begin, std::size_t end);

// Tells when a compiled pair's values may be extrapolated. Where one mode of the error decays
// slowest, the largest change of successive full sweeps shrinks by a steady ratio r (Aseb:
// 0.6 for 20 sweeps) and the values are then about change x r / (1 - r) short of the fixed
// point along their last changes. Extrapolating there saves sweeps: 4 pieces, Aseb 35 -> 28
// updates a position, Blitz 24 -> 21. Two ratios in a row within kRatioSpread of each other
// count as steady; a focus sweep or an extrapolation starts the count over.
class Extrapolator {
 public:
  // After a full sweep that changed a value by at most `change`: the factor to extrapolate by
  // now, or 0.
  double after_full_sweep(double change);
  // After sweeps of some units only: their changes say nothing about the pair's ratio.
  void interrupt() { sweeps_ = 0; }

 private:
  static constexpr double kRatioSpread = 0.05;
  static constexpr double kLowestRatio = 0.3;    // faster decay: little to gain
  static constexpr double kHighestRatio = 0.95;  // slower: the factor would be too large to trust
  int sweeps_ = 0;                               // full sweeps in a row since the last interruption
  double change_ = 0.0;
  double ratio_ = 0.0;
};

// Copies a compiled pair's values to their global indices.
void write_back(const PositionIndex& index, const PairPlan& plan, const CompiledPair& compiled,
                double* values, int threads);

}  // namespace ur::solver::detail
