// Planning a layer pair: its units (a block's states with given end squares, with their mirrors)
// in sweep order, and for each row (a mover's private mask) the successors of every roll.
#include <numeric>
#include <unordered_map>

#include "core/movegen.h"
#include "solver/solver_detail.h"

namespace ur::solver::detail {
namespace {

// A successor position from its mover's view, before it is ranked.
struct ViewedSuccessor {
  SquareMask mine, theirs;
  std::uint8_t home_mine, home_theirs;
  SuccessorKind kind;
};

// The rows of one block whose private masks have given end-square bits, planned once and shared
// by the (up to four) units that sweep them. Successor positions are relative to the set.
struct RowSet {
  std::vector<RowPlan> rows;
  std::vector<Successor> successors;
  std::vector<ViewedSuccessor> viewed;  // scratch: one row's successors before ranking
};

// Appends the plans of the rows of `block` whose private masks are `masks`, in that order.
// A row's successors are generated first and ranked after: each rank reads the index's slot
// table (hundreds of MB for a wide shared lane), so the reads are asked for together.
void plan_rows(const PositionIndex& index, const Block& block, const std::vector<unsigned>& masks,
               RowSet& set) {
  const Rules& rules = index.rules();
  for (unsigned mask : masks) {
    RowPlan row;
    row.rank = static_cast<std::uint8_t>(index.rank_of_private_mask(mask));
    row.begin = static_cast<std::uint32_t>(set.successors.size());
    // Column 0 is the opponent's empty private mask (rank 0): moves do not depend on it.
    const Position position = index.block_position(block, row.rank, 0);
    double pass_weight = roll_probability(rules, 0);
    set.viewed.clear();
    for (Roll roll = 1; roll <= rules.max_roll(); ++roll) {
      const MoveList moves = legal_moves(rules, position, roll);
      if (moves.empty()) pass_weight += roll_probability(rules, roll);
      for (const Move& move : moves) {
        const Position after = apply_move(rules, position, move);
        const int mover = after.turn == Side::Light ? 0 : 1;
        const ViewedSuccessor viewed{after.board[mover], after.board[1 - mover], after.home[mover],
                                     after.home[1 - mover],
                                     after.home[0] == rules.pieces ? kMoverWins
                                     : mover == 0                  ? kMoverAgain
                                                                   : kOpponent};
        if (viewed.kind != kMoverWins) {
          index.prefetch_view(viewed.mine, viewed.theirs, viewed.home_mine, viewed.home_theirs);
        }
        set.viewed.push_back(viewed);
      }
      row.ends[roll - 1] = static_cast<std::uint8_t>(set.viewed.size());
    }
    for (const ViewedSuccessor& viewed : set.viewed) {
      Successor successor{0, 0, kMoverWins};
      if (viewed.kind != kMoverWins) {
        successor = {static_cast<std::uint32_t>(index.rank_view(
                         viewed.mine, viewed.theirs, viewed.home_mine, viewed.home_theirs)),
                     viewed.kind == kMoverAgain
                         ? std::uint16_t{1}
                         : static_cast<std::uint16_t>(index.columns_view(
                               viewed.mine, viewed.theirs, viewed.home_mine, viewed.home_theirs)),
                     viewed.kind};
      }
      set.successors.push_back(successor);
    }
    row.pass_weight = static_cast<float>(pass_weight);
    set.rows.push_back(row);
  }
}

// One side's place in the unit order: the progress of its pieces on the shared and end squares,
// each square counted by its number in the side's own route (an end square by its number plus
// 7: Finkel 13 -> 20, 14 -> 21), then its squares themselves to break ties. Entering or
// advancing on the shared squares and reaching the end squares raise it; only captures lower it.
std::uint64_t side_order(const PositionIndex& index, unsigned shared, unsigned end) {
  std::uint64_t progress = 0;
  for (int bit = 0; bit < index.shared_squares(); ++bit) {
    if (shared >> bit & 1u) progress += static_cast<std::uint64_t>(bit + index.shared_first());
  }
  for (int bit = 0; bit < index.end_squares(); ++bit) {
    if (end >> bit & 1u) progress += static_cast<std::uint64_t>(index.end_first() + bit + 7);
  }
  return progress << 32 | std::uint64_t{shared} << 8 | end;
}

// Private masks with the given end bits and at most `cap` pieces, most advanced first.
void unit_masks(const std::vector<unsigned>& low_masks, int low, unsigned end, int cap,
                std::vector<unsigned>& masks) {
  masks.clear();
  for (unsigned mask_low : low_masks) {
    const unsigned mask = mask_low | (end << low);
    if (std::popcount(mask) <= cap) masks.push_back(mask);
  }
}

}  // namespace

std::pair<std::uint64_t, std::uint64_t> unit_order(const PositionIndex& index, const Block& block,
                                                   unsigned end_mine, unsigned end_theirs) {
  const std::uint64_t mine = side_order(index, block.shared_mine, end_mine);
  const std::uint64_t theirs =
      side_order(index, index.other_numbering(block.shared_theirs), end_theirs);
  // The side ahead leads, or the side behind where a capture throws again (Unit::major).
  return index.rules().capture_gives_extra_throw
             ? std::pair{std::min(mine, theirs), std::max(mine, theirs)}
             : std::pair{std::max(mine, theirs), std::min(mine, theirs)};
}

// Masks of the low private squares (1..low), most advanced first: a move within them (or from
// the start pile) leads to a mask earlier in this list.
std::vector<unsigned> low_masks_by_progress(int low) {
  std::vector<unsigned> masks(std::size_t{1} << low);
  std::iota(masks.begin(), masks.end(), 0u);
  const auto progress = [low](unsigned mask) {
    int sum = 0;
    for (int bit = 0; bit < low; ++bit) sum += (mask >> bit & 1u) ? bit + 1 : 0;
    return sum;
  };
  std::stable_sort(masks.begin(), masks.end(),
                   [&](unsigned a, unsigned b) { return progress(a) > progress(b); });
  return masks;
}

// Pairs {(a, b), (b, a)} in an order where every pair comes after the pairs it reads:
// decreasing a + b. Layers where the opponent has all pieces home are terminal (V = 0).
std::vector<LayerPair> solve_order(int pieces) {
  std::vector<LayerPair> order;
  for (int sum = 2 * (pieces - 1); sum >= 0; --sum) {
    for (int a = 0; a <= sum / 2; ++a) {
      const int b = sum - a;
      if (b <= pieces - 1) order.push_back({a, b});
    }
  }
  return order;
}

// The units of a layer pair in sweep order (Unit::major), with their row plans.
PairPlan plan_pair(const PositionIndex& index, const LayerPair& pair,
                   const std::vector<unsigned>& low_masks, int threads) {
  PairPlan plan;
  plan_pair(index, pair, low_masks, threads, plan);
  return plan;
}

void plan_pair(const PositionIndex& index, const LayerPair& pair,
               const std::vector<unsigned>& low_masks, int threads, PairPlan& plan) {
  const std::span<const Block> blocks = index.blocks();
  const int pieces = index.rules().pieces;
  plan.units.clear();
  plan.rows.clear();
  plan.successors.clear();
  plan.states = 0;
  const auto [first, last] = index.layer_blocks(pair.home_mine, pair.home_theirs);
  for (std::size_t b = first; b < last; ++b) {
    const std::size_t mirror_at = index.mirror_block(blocks[b]);
    if (mirror_at < b) continue;  // done from the other block
    const Block& block = blocks[b];
    plan.states += block.size() + (mirror_at == b ? 0 : blocks[mirror_at].size());
    const int cap_mine = pieces - block.home_mine - std::popcount(unsigned{block.shared_mine});
    const int cap_theirs =
        pieces - block.home_theirs - std::popcount(unsigned{block.shared_theirs});
    const unsigned end_masks = 1u << index.end_squares();
    for (unsigned end_mine = 0; end_mine < end_masks; ++end_mine) {
      if (std::popcount(end_mine) > cap_mine) continue;
      for (unsigned end_theirs = 0; end_theirs < end_masks; ++end_theirs) {
        if (std::popcount(end_theirs) > cap_theirs) continue;
        const auto [major, minor] = unit_order(index, block, end_mine, end_theirs);
        plan.units.push_back({static_cast<std::uint32_t>(b), static_cast<std::uint32_t>(mirror_at),
                              0, 0, 0, 0, static_cast<std::uint8_t>(end_mine),
                              static_cast<std::uint8_t>(end_theirs), major, minor});
      }
    }
  }
  std::stable_sort(plan.units.begin(), plan.units.end(), [](const Unit& a, const Unit& b) {
    return std::pair{a.major, a.minor} > std::pair{b.major, b.minor};
  });
  // Row sets by (block, end bits), numbered in order of first use.
  std::unordered_map<std::uint64_t, std::uint32_t> set_numbers;
  std::vector<std::pair<std::uint32_t, unsigned>> set_keys;  // (block, end bits)
  std::vector<std::array<std::uint32_t, 2>> unit_sets;       // rows, mirror rows
  const auto set_number = [&](std::uint32_t block, unsigned end) {
    const auto [at, added] = set_numbers.try_emplace(std::uint64_t{block} * 4 + end,
                                                     static_cast<std::uint32_t>(set_keys.size()));
    if (added) set_keys.push_back({block, end});
    return at->second;
  };
  for (const Unit& unit : plan.units) {
    unit_sets.push_back(
        {set_number(unit.block, unit.end_mine), set_number(unit.mirror_block, unit.end_theirs)});
  }
  // The sets are planned in batches into reused buffers and appended to the plan, whose rows
  // are reserved exactly and whose successors are reserved to a bound (one per piece and roll)
  // that is only address space until written: the plan is held once, not twice over as when
  // every set was planned before one copy of them all (7-piece Masters: its largest pair's plan
  // is some GiB).
  const Rules& rules = index.rules();
  std::vector<unsigned> masks;
  std::size_t total_rows = 0;
  for (const auto& [block_at, end] : set_keys) {
    const Block& block = blocks[block_at];
    unit_masks(low_masks, index.low_squares(), end,
               pieces - block.home_mine - std::popcount(unsigned{block.shared_mine}), masks);
    total_rows += masks.size();
  }
  plan.rows.reserve(total_rows);
  plan.successors.reserve(total_rows * static_cast<std::size_t>(rules.max_roll()) *
                          static_cast<std::size_t>(pieces));
  constexpr std::size_t kBatch = 4096;  // sets planned at a time
  std::vector<RowSet> batch(std::min(kBatch, set_keys.size()));
  std::vector<std::uint32_t> set_begin;
  std::vector<std::size_t> successors_at(batch.size() + 1);  // of a batch's sets in the plan
  for (std::size_t batch_first = 0; batch_first < set_keys.size(); batch_first += kBatch) {
    const std::size_t count = std::min(kBatch, set_keys.size() - batch_first);
    std::atomic<std::size_t> next{0};
    run_workers(threads, [&](int) {
      std::vector<unsigned> set_masks;
      for (std::size_t k; (k = next.fetch_add(1)) < count;) {
        const auto& [block_at, end] = set_keys[batch_first + k];
        const Block& block = blocks[block_at];
        unit_masks(low_masks, index.low_squares(), end,
                   pieces - block.home_mine - std::popcount(unsigned{block.shared_mine}),
                   set_masks);
        batch[k].rows.clear();
        batch[k].successors.clear();
        plan_rows(index, block, set_masks, batch[k]);
      }
    });
    // Appended by the threads too: one thread copying took a third of the planning time.
    const std::size_t first_set = set_begin.size();  // this batch's first entry in set_begin
    std::size_t rows = plan.rows.size();
    successors_at[0] = plan.successors.size();
    for (std::size_t k = 0; k < count; ++k) {
      set_begin.push_back(static_cast<std::uint32_t>(rows));
      rows += batch[k].rows.size();
      successors_at[k + 1] = successors_at[k] + batch[k].successors.size();
    }
    plan.rows.resize(rows);
    plan.successors.resize(successors_at[count]);
    for_each_chunk(threads, count, 64, [&](std::size_t begin, std::size_t end) {
      for (std::size_t k = begin; k < end; ++k) {
        const RowSet& set = batch[k];
        RowPlan* row = plan.rows.data() + set_begin[first_set + k];
        for (RowPlan copy : set.rows) {
          copy.begin += static_cast<std::uint32_t>(successors_at[k]);
          *row++ = copy;
        }
        std::copy(set.successors.begin(), set.successors.end(),
                  plan.successors.begin() + static_cast<std::ptrdiff_t>(successors_at[k]));
      }
    });
  }
  set_begin.push_back(static_cast<std::uint32_t>(plan.rows.size()));
  for (std::size_t u = 0; u < plan.units.size(); ++u) {
    Unit& unit = plan.units[u];
    unit.rows_begin = set_begin[unit_sets[u][0]];
    unit.rows_end = set_begin[unit_sets[u][0] + 1];
    unit.mirror_rows_begin = set_begin[unit_sets[u][1]];
    unit.mirror_rows_end = set_begin[unit_sets[u][1] + 1];
  }
}

}  // namespace ur::solver::detail
