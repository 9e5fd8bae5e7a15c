#include "solver/position_index.h"

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/rule_sets.h"

namespace ur::solver {
namespace {

// The route's split into low private, shared and end private squares; see the file comment.
struct Split {
  int low = 0;           // squares 1..low are private
  int shared_first = 0;  // squares shared_first..shared_first + shared - 1 are shared
  int shared = 0;
  int end = 0;  // the last `end` squares are private
};

Split split_of(const Rules& rules) {
  Split split;
  const int first = std::countr_zero(rules.shared);
  const int last = 31 - std::countl_zero(rules.shared);
  split.low = first - 1;
  split.shared_first = first;
  split.shared = last - first + 1;
  split.end = rules.route_length - last;
  return split;
}

std::uint64_t binomial(int n, int k) {
  if (k < 0 || k > n) return 0;
  std::uint64_t value = 1;
  for (int i = 1; i <= k; ++i) value = value * (n - k + i) / i;
  return value;
}

// Number of private masks over `squares` squares with popcount <= cap (0 for cap < 0).
std::uint64_t masks_up_to(int squares, int cap) {
  std::uint64_t count = 0;
  for (int k = 0; k <= cap; ++k) count += binomial(squares, k);
  return count;
}

std::uint64_t slot_count(const Rules& rules, const Split& split) {
  std::uint64_t patterns = 1;
  for (int k = 0; k < split.shared; ++k) patterns *= 3;
  return std::uint64_t(rules.pieces) * (rules.pieces + 1) * patterns;
}

}  // namespace

std::optional<std::string> unsupported_rules(const Rules& rules) {
  if (rules.pieces < Rules::kMinPieces || rules.pieces > Rules::kMaxPieces) {
    return "pieces must be between 1 and 7, got " + std::to_string(rules.pieces);
  }
  const std::string name = "perfect play for " + rule_set_title(rules) + " is not available: ";
  if (rules.self_crossing) {
    return name + "its path crosses itself (the " + std::string(path_name(rules.path)) +
           " path), and ur's solver indexes only paths that visit each cell once";
  }
  if (rules.shared == 0) return name + "no square is shared, so the sides never meet";
  const Split split = split_of(rules);
  if (count_squares(rules.shared) != split.shared) {
    return name + "its shared squares are not one run of the path";
  }
  if (split.low > kMaxLowSquares || split.low + split.end > kMaxPrivateSquares) {
    return name + "it has more private squares than the solver's index holds (" +
           std::to_string(kMaxLowSquares) + " before the shared ones, " +
           std::to_string(kMaxPrivateSquares) + " in all)";
  }
  // Slots and successor lists hold 32-bit indices.
  if (const std::uint64_t count = count_positions(rules, false);
      count >= (std::uint64_t{1} << 32)) {
    return name + "its " + std::to_string(count) + " positions are more than 32-bit indices reach";
  }
  return std::nullopt;
}

std::uint64_t count_layer_positions(const Rules& rules, int home_mine, int home_theirs) {
  const Split split = split_of(rules);
  const int private_squares = split.low + split.end;
  std::uint64_t total = 0;
  // i of my pieces and j of theirs on the shared squares: S! / (i! j! (S-i-j)!) patterns.
  for (int i = 0; i <= split.shared; ++i) {
    for (int j = 0; i + j <= split.shared; ++j) {
      const int cap_mine = rules.pieces - home_mine - i;
      const int cap_theirs = rules.pieces - home_theirs - j;
      if (cap_mine < 0 || cap_theirs < 0) continue;
      total += binomial(split.shared, i) * binomial(split.shared - i, j) *
               masks_up_to(private_squares, cap_mine) * masks_up_to(private_squares, cap_theirs);
    }
  }
  return total;
}

std::uint64_t count_positions(const Rules& rules, bool include_mover_finished) {
  std::uint64_t total = 0;
  for (int home_mine = 0; home_mine <= rules.pieces; ++home_mine) {
    if (home_mine == rules.pieces && !include_mover_finished) continue;
    for (int home_theirs = 0; home_theirs <= rules.pieces; ++home_theirs) {
      total += count_layer_positions(rules, home_mine, home_theirs);
    }
  }
  return total;
}

std::uint64_t index_bytes(const Rules& rules) {
  const Split split = split_of(rules);
  std::uint64_t blocks = 0;  // non-empty blocks: home pairs times valid patterns
  for (int home_mine = 0; home_mine < rules.pieces; ++home_mine) {
    for (int home_theirs = 0; home_theirs <= rules.pieces; ++home_theirs) {
      for (int i = 0; i <= std::min(split.shared, rules.pieces - home_mine); ++i) {
        for (int j = 0; i + j <= split.shared && j <= rules.pieces - home_theirs; ++j) {
          blocks += binomial(split.shared, i) * binomial(split.shared - i, j);
        }
      }
    }
  }
  return slot_count(rules, split) * 8 + blocks * sizeof(Block);
}

PositionIndex::PositionIndex(const Rules& rules) : rules_(rules) {
  const Split split = split_of(rules);
  low_ = split.low;
  end_ = split.end;
  shared_first_ = split.shared_first;
  shared_ = split.shared;
  end_first_ = rules.route_length - split.end + 1;
  low_mask_ = (1u << low_) - 1;
  end_mask_ = (1u << end_) - 1;
  shared_mask_ = (1u << shared_) - 1;
  shared_board_ = rules.shared;
  patterns_ = 1;
  for (int k = 0; k < shared_; ++k) patterns_ *= 3;

  // Their shared bits in my numbering, through Rules::opposite.
  renumber_.resize(std::size_t{1} << shared_);
  base3_mine_.resize(renumber_.size());
  base3_theirs_.resize(renumber_.size());
  for (unsigned bits = 0; bits < renumber_.size(); ++bits) {
    const SquareMask mine = opponent_in_my_numbering(rules, SquareMask{bits} << shared_first_);
    renumber_[bits] = static_cast<std::uint16_t>(shared_bits(mine));
    unsigned value = 0;
    for (int square = shared_ - 1; square >= 0; --square) {
      value = value * 3 + ((bits >> square) & 1u);
    }
    base3_mine_[bits] = value;
  }
  for (unsigned bits = 0; bits < renumber_.size(); ++bits) {
    base3_theirs_[bits] = 2 * base3_mine_[renumber_[bits]];
  }
  const int private_squares = low_ + end_;
  const int private_masks = 1 << private_squares;
  std::vector<std::uint8_t> masks(private_masks);
  std::iota(masks.begin(), masks.end(), std::uint8_t{0});
  std::stable_sort(masks.begin(), masks.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
  for (int rank = 0; rank < private_masks; ++rank) {
    rank_mask_[rank] = masks[rank];
    mask_rank_[masks[rank]] = static_cast<std::uint8_t>(rank);
  }
  for (int cap = 0; cap < static_cast<int>(masks_up_to_.size()); ++cap) {
    masks_up_to_[cap] = static_cast<std::uint8_t>(masks_up_to(private_squares, cap));
  }

  const int pieces = rules.pieces;
  const int home_pairs = pieces * (pieces + 1);
  slots_.assign(slot_count(rules, split), Slot{});
  layer_first_block_.assign(home_pairs + 1, 0);
  // A pattern's squares, digit by digit, from tables of its low and high halves of base-3
  // digits (digit 1: mine, 2: theirs): 3^12 patterns in each of 30 layers, so decoding them one
  // digit at a time took two seconds.
  const int low_digits = (shared_ + 1) / 2;
  unsigned low_patterns = 1;
  for (int k = 0; k < low_digits; ++k) low_patterns *= 3;
  std::vector<std::pair<std::uint16_t, std::uint16_t>> half_squares(low_patterns);
  for (unsigned half = 0; half < low_patterns; ++half) {
    unsigned rest = half;
    for (int square = 0; square < low_digits; ++square, rest /= 3) {
      if (rest % 3 == 1) half_squares[half].first |= static_cast<std::uint16_t>(1u << square);
      if (rest % 3 == 2) half_squares[half].second |= static_cast<std::uint16_t>(1u << square);
    }
  }
  std::uint64_t offset = 0;
  for (int home_mine = 0; home_mine < pieces; ++home_mine) {
    for (int home_theirs = 0; home_theirs <= pieces; ++home_theirs) {
      layer_first_block_[home_mine * (pieces + 1) + home_theirs] = blocks_.size();
      // Patterns in increasing base-3 value: the block order is the slot order.
      for (unsigned pattern = 0; pattern < patterns_; ++pattern) {
        const auto [low_mine, low_theirs] = half_squares[pattern % low_patterns];
        const auto [high_mine, high_theirs] = half_squares[pattern / low_patterns];
        const unsigned mine = low_mine | unsigned{high_mine} << low_digits;
        const unsigned theirs = low_theirs | unsigned{high_theirs} << low_digits;
        const int cap_mine = pieces - home_mine - std::popcount(mine);
        const int cap_theirs = pieces - home_theirs - std::popcount(theirs);
        if (cap_mine < 0 || cap_theirs < 0) continue;
        Block block;
        block.offset = offset;
        block.home_mine = static_cast<std::uint8_t>(home_mine);
        block.home_theirs = static_cast<std::uint8_t>(home_theirs);
        block.shared_mine = static_cast<std::uint16_t>(mine);
        block.shared_theirs = static_cast<std::uint16_t>(theirs);
        block.rows = masks_up_to_[cap_mine];
        block.columns = masks_up_to_[cap_theirs];
        Slot& slot =
            slots_[static_cast<std::size_t>(home_mine * (pieces + 1) + home_theirs) * patterns_ +
                   pattern];
        slot.offset = static_cast<std::uint32_t>(offset);
        slot.block = static_cast<std::uint32_t>(blocks_.size());
        blocks_.push_back(block);
        offset += block.size();
      }
    }
  }
  layer_first_block_[home_pairs] = blocks_.size();
  size_ = offset;
}

std::pair<std::size_t, std::size_t> PositionIndex::layer_blocks(int home_mine,
                                                                int home_theirs) const {
  const int layer = home_mine * (rules_.pieces + 1) + home_theirs;
  return {layer_first_block_[layer], layer_first_block_[layer + 1]};
}

std::size_t PositionIndex::mirror_block(const Block& block) const {
  // The opponent's view: their squares (mine, renumbered) are now the mover's.
  const SquareMask mine = SquareMask{renumber_[block.shared_theirs]} << shared_first_;
  const SquareMask theirs = SquareMask{block.shared_mine} << shared_first_;
  return slot_view(mine, theirs, block.home_theirs, block.home_mine).block;
}

std::uint64_t PositionIndex::rank(const Position& position) const {
  const int mover = index_of(position.turn);
  return rank_view(position.board[mover], position.board[1 - mover], position.home[mover],
                   position.home[1 - mover]);
}

Position PositionIndex::block_position(const Block& block, int row, int column) const {
  Position position;
  position.turn = Side::Light;
  position.board[0] =
      private_board(rank_mask_[row]) | (SquareMask{block.shared_mine} << shared_first_);
  position.board[1] = private_board(rank_mask_[column]) |
                      (SquareMask{renumber_[block.shared_theirs]} << shared_first_);
  position.home = {block.home_mine, block.home_theirs};
  for (int side = 0; side < 2; ++side) {
    position.start[side] = static_cast<std::uint8_t>(rules_.pieces - position.home[side] -
                                                     std::popcount(position.board[side]));
  }
  return position;
}

const Block& PositionIndex::block_of(std::uint64_t index) const {
  const auto after = std::upper_bound(
      blocks_.begin(), blocks_.end(), index,
      [](std::uint64_t value, const Block& block) { return value < block.offset; });
  return *(after - 1);
}

Position PositionIndex::unrank(std::uint64_t index) const {
  const Block& block = block_of(index);
  const std::uint64_t within = index - block.offset;
  return block_position(block, static_cast<int>(within / block.columns),
                        static_cast<int>(within % block.columns));
}

}  // namespace ur::solver
