// Parts of the solver shared by its files: the plans a sweep reads, the threads, the exact
// solution of a state with its mirror. Internal to src/solver.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <memory>
#include <optional>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "solver/huge_pages.h"
#include "solver/position_index.h"

namespace ur::solver::detail {

// Values are shared between threads that run Gauss-Seidel on disjoint blocks and read each
// other's fresh values: relaxed atomic accesses make those races well defined and cost
// nothing on x86-64.
inline double load(const double& slot) {
  return std::atomic_ref<const double>(slot).load(std::memory_order_relaxed);
}
inline void store(double& slot, double value) {
  std::atomic_ref<double>(slot).store(value, std::memory_order_relaxed);
}

// Runs worker(t) for t = 0 .. threads - 1 at once, t = 0 on the calling thread.
template <class Worker>
void run_workers(int threads, const Worker& worker) {
  std::vector<std::thread> helpers;
  for (int t = 1; t < threads; ++t) helpers.emplace_back(worker, t);
  worker(0);
  for (std::thread& helper : helpers) helper.join();
}

// Runs body(begin, end) over [0, count) in chunks of `chunk`, taken in turn by `threads` threads.
template <class Body>
void for_each_chunk(int threads, std::size_t count, std::size_t chunk, const Body& body) {
  std::atomic<std::size_t> next{0};
  run_workers(threads, [&](int) {
    for (std::size_t begin; (begin = next.fetch_add(chunk)) < count;) {
      body(begin, std::min(count, begin + chunk));
    }
  });
}

// Index of the state in row `row` and column `column` of `block`.
inline std::uint64_t state_index(const Block& block, std::uint32_t row, std::uint32_t column) {
  return block.offset + std::uint64_t{row} * block.columns + column;
}

// What one row (a fixed private mask of the mover) of a block leads to. Moves depend only on
// the mover's pieces and the opponent's shared squares, never on the opponent's private
// squares, which are the column: so for column c every successor index is base + c * stride.
enum SuccessorKind : std::uint8_t {
  kMoverAgain,  // the mover throws again: value V
  kOpponent,    // the opponent moves next: value 1 - V
  kMoverWins,   // value 1
};

struct Successor {
  std::uint32_t base;
  std::uint16_t stride;
  std::uint8_t kind;
};

// The pair plan's allocator: huge pages (HugePageAllocator), and the elements a resize adds
// default-initialised, which for trivial types (Successor) means unset, since the threads
// write them right after the plan grows.
template <class T>
struct PlanAllocator : HugePageAllocator<T> {
  template <class U>
  struct rebind {
    using other = PlanAllocator<U>;
  };
  PlanAllocator() = default;
  template <class U>
  PlanAllocator(const PlanAllocator<U>&) noexcept {}
  template <class U>
  void construct(U* at) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(at)) U;
  }
  template <class U, class... Args>
  void construct(U* at, Args&&... args) {
    ::new (static_cast<void*>(at)) U(std::forward<Args>(args)...);
  }
};

struct RowPlan {
  std::uint32_t begin = 0;  // first successor
  // Successors of roll r are begin + [ends[r - 2], ends[r - 1]) (ends[-1] taken as 0); an
  // empty range is a pass.
  std::array<std::uint8_t, 8> ends{};
  std::uint8_t rank = 0;     // the row's private-mask rank
  float pass_weight = 0.0f;  // chance of passing (roll 0 and rolls with no move), k / 2^dice
};

// A unit of work: the states of a block whose end squares (Finkel: 13, 14) hold given masks, solved
// together with their mirrors (the positions after a pass) in the mirror block. Rows of the
// block are its mover's private masks; rows of the mirror block are the opponent's.
struct Unit {
  std::uint32_t block;
  std::uint32_t mirror_block;
  std::uint32_t rows_begin, rows_end;                // in PairPlan::rows
  std::uint32_t mirror_rows_begin, mirror_rows_end;  // in PairPlan::rows
  std::uint8_t end_mine, end_theirs;                 // end squares, the first as bit 0
  // Order keys: units are swept by `major`, then `minor`, both descending. They are the two
  // sides' places in the order (side_order in plan.cpp): the larger as `major`, or the smaller
  // where a capture throws again. Either way a non-capture move raises one side's place and so
  // leads to a unit swept earlier in the same sweep, as when the units were sorted by the sum of
  // the two; but some captures now do too (with the larger first, those by the side ahead),
  // where under the sum every capture read a value of the last sweep. Which order needs fewer
  // sweeps follows that one rule in every set measured (docs/performance.md, "The units sorted
  // by the side ahead").
  std::uint64_t major, minor;
};

// Everything a sweep over one layer pair needs, computed once per pair. Rows and successors are
// on huge pages: on 4 KiB pages, filling them took 95% of a Blitz solve's page faults (about
// 10-20 us each on a virtual machine), as a larger pair's plan is a new allocation.
struct PairPlan {
  std::vector<Unit> units;  // in sweep order: major, then minor, descending
  std::vector<RowPlan, PlanAllocator<RowPlan>> rows;
  std::vector<Successor, PlanAllocator<Successor>> successors;
  std::uint64_t states = 0;
};

// A state s and its mirror m (the position after a pass) solved together exactly:
//   V(s) = A_s + P_s (1 - V(m)),  V(m) = A_m + P_m (1 - V(s))
// where A is the value of the rolls that move and P the chance of passing.
struct MirrorValues {
  double value;
  double mirror_value;
};

// 1 / (1 - P_s P_m), or 0 where both sides always pass (impossible with real dice; the
// values then stay defined).
inline double inverse_determinant(double pass, double mirror_pass) {
  const double determinant = 1.0 - pass * mirror_pass;
  return determinant > 0.0 ? 1.0 / determinant : 0.0;
}

inline MirrorValues solve_with_mirror(double moving, double pass, double mirror_moving,
                                      double mirror_pass, double inverse) {
  const double value =
      inverse > 0.0 ? (moving + pass * (1.0 - mirror_moving - mirror_pass)) * inverse : 0.5;
  return {value, mirror_moving + mirror_pass * (1.0 - value)};
}

// A state that is its own mirror (both sides placed alike): V = A + P (1 - V).
inline double solve_own_mirror(double moving, double pass) {
  return (moving + pass) / (1.0 + pass);
}

// States a sweep of `unit` updates, counted as PairPlan::states counts them (a block that is
// its own mirror once).
inline std::uint64_t unit_states(const Unit& unit) {
  return std::uint64_t{unit.rows_end - unit.rows_begin} *
         (unit.mirror_rows_end - unit.mirror_rows_begin) *
         (unit.block == unit.mirror_block ? 1u : 2u);
}

struct LayerPair {
  int home_mine;
  int home_theirs;
};

// plan.cpp: the order of the layer pairs, and each pair's units with their row plans.
// Pairs {(a, b), (b, a)} in an order where every pair comes after the pairs it reads:
// decreasing a + b. Layers where the opponent has all pieces home are terminal (V = 0).
std::vector<LayerPair> solve_order(int pieces);
// Masks of the low private squares (1..low), most advanced first: a move within them (or from
// the start pile) leads to a mask earlier in this list.
std::vector<unsigned> low_masks_by_progress(int low);
// The order keys (Unit::major, Unit::minor) of the unit that holds the states of `block`, and
// of its mirror block, whose end squares hold end_mine and end_theirs.
std::pair<std::uint64_t, std::uint64_t> unit_order(const PositionIndex& index, const Block& block,
                                                   unsigned end_mine, unsigned end_theirs);
// The units of a layer pair in sweep order (Unit::major), with their row plans.
PairPlan plan_pair(const PositionIndex& index, const LayerPair& pair,
                   const std::vector<unsigned>& low_masks, int threads);
// The same into `plan`, whose memory is reused: its pages stay backed from pair to pair
// instead of being returned to the system and faulted in again (5-piece Blitz: 3 s).
void plan_pair(const PositionIndex& index, const LayerPair& pair,
               const std::vector<unsigned>& low_masks, int threads, PairPlan& plan);

// row_sweep.cpp: one Gauss-Seidel pass over a unit through its row plans, each state solved
// together with its mirror. Returns the largest change.
double sweep_unit(const PositionIndex& index, const PairPlan& plan, const Unit& unit,
                  const double* roll_weights, int max_roll, double* values);

}  // namespace ur::solver::detail
