#include "solver/position_index.h"

#include <algorithm>
#include <bit>
#include <numeric>

#include "core/rule_sets.h"

namespace ur::solver {
namespace {

// Number of 6-bit private masks with popcount <= cap.
int masks_up_to(int cap) {
  int count = 0;
  for (unsigned mask = 0; mask < 64; ++mask) count += std::popcount(mask) <= cap ? 1 : 0;
  return count;
}

}  // namespace

std::optional<std::string> unsupported_rules(const Rules& rules) {
  if (rules.pieces < Rules::kMinPieces || rules.pieces > Rules::kMaxPieces) {
    return "pieces must be between 1 and 7, got " + std::to_string(rules.pieces);
  }
  if (rules.path != PathKind::Finkel || rules.board != BoardShape::Standard) {
    return "perfect play for " + rule_set_title(rules) +
           " is not available yet: ur's solver handles Finkel's path only (14 squares, "
           "B1-B8 shared)";
  }
  if (rules.dice < 1 || rules.dice > 8) return "the solver needs 1-8 dice";
  return std::nullopt;
}

std::uint64_t count_positions(const Rules& rules, bool include_mover_finished) {
  const int pieces = rules.pieces;
  std::uint64_t total = 0;
  for (int home_mine = 0; home_mine <= pieces; ++home_mine) {
    if (home_mine == pieces && !include_mover_finished) continue;
    for (int home_theirs = 0; home_theirs <= pieces; ++home_theirs) {
      for (unsigned mine = 0; mine < 256; ++mine) {
        for (unsigned theirs = 0; theirs < 256; ++theirs) {
          if (mine & theirs) continue;
          const int cap_mine = pieces - home_mine - std::popcount(mine);
          const int cap_theirs = pieces - home_theirs - std::popcount(theirs);
          if (cap_mine < 0 || cap_theirs < 0) continue;
          total += std::uint64_t(masks_up_to(cap_mine)) * masks_up_to(cap_theirs);
        }
      }
    }
  }
  return total;
}

PositionIndex::PositionIndex(const Rules& rules) : rules_(rules) {
  for (unsigned bits = 0; bits < 256; ++bits) {
    unsigned value = 0;
    for (int square = kSharedSquares - 1; square >= 0; --square) {
      value = value * 3 + ((bits >> square) & 1u);
    }
    base3_[bits] = static_cast<std::uint16_t>(value);
  }
  std::array<std::uint8_t, 64> masks{};
  std::iota(masks.begin(), masks.end(), std::uint8_t{0});
  std::stable_sort(masks.begin(), masks.end(),
                   [](unsigned a, unsigned b) { return std::popcount(a) < std::popcount(b); });
  for (int rank = 0; rank < 64; ++rank) {
    rank_mask_[rank] = masks[rank];
    mask_rank_[masks[rank]] = static_cast<std::uint8_t>(rank);
  }

  const int pieces = rules.pieces;
  const int home_pairs = pieces * (pieces + 1);
  slots_.assign(static_cast<std::size_t>((pieces + 1) * (pieces + 1)) * kSharedPatterns, Slot{});
  layer_first_block_.assign(home_pairs + 1, 0);
  std::uint64_t offset = 0;
  for (int home_mine = 0; home_mine < pieces; ++home_mine) {
    for (int home_theirs = 0; home_theirs <= pieces; ++home_theirs) {
      layer_first_block_[home_mine * (pieces + 1) + home_theirs] = blocks_.size();
      // Patterns in increasing base-3 value: the block order is the slot order.
      for (unsigned pattern = 0; pattern < kSharedPatterns; ++pattern) {
        unsigned mine = 0;
        unsigned theirs = 0;
        unsigned rest = pattern;
        for (int square = 0; square < kSharedSquares; ++square) {
          const unsigned digit = rest % 3;
          rest /= 3;
          if (digit == 1) mine |= 1u << square;
          if (digit == 2) theirs |= 1u << square;
        }
        const int cap_mine = pieces - home_mine - std::popcount(mine);
        const int cap_theirs = pieces - home_theirs - std::popcount(theirs);
        if (cap_mine < 0 || cap_theirs < 0) continue;
        Block block;
        block.offset = offset;
        block.home_mine = static_cast<std::uint8_t>(home_mine);
        block.home_theirs = static_cast<std::uint8_t>(home_theirs);
        block.shared_mine = static_cast<std::uint8_t>(mine);
        block.shared_theirs = static_cast<std::uint8_t>(theirs);
        block.rows = static_cast<std::uint8_t>(masks_up_to(cap_mine));
        block.columns = static_cast<std::uint8_t>(masks_up_to(cap_theirs));
        Slot& slot = slots_[(home_mine * (pieces + 1) + home_theirs) * kSharedPatterns + pattern];
        slot.offset = static_cast<std::uint32_t>(offset);
        slot.columns = block.columns;
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
  const unsigned pattern = base3_[block.shared_theirs] + 2 * base3_[block.shared_mine];
  return slots_[(block.home_theirs * (rules_.pieces + 1) + block.home_mine) * kSharedPatterns +
                pattern]
      .block;
}

std::uint64_t PositionIndex::rank(const Position& position) const {
  const int mover = index_of(position.turn);
  return rank_view(position.board[mover], position.board[1 - mover], position.home[mover],
                   position.home[1 - mover]);
}

Position PositionIndex::unrank(std::uint64_t index) const {
  const auto after = std::upper_bound(
      blocks_.begin(), blocks_.end(), index,
      [](std::uint64_t value, const Block& block) { return value < block.offset; });
  const Block& block = *(after - 1);
  const std::uint64_t within = index - block.offset;
  const unsigned row = static_cast<unsigned>(within / block.columns);
  const unsigned column = static_cast<unsigned>(within % block.columns);
  Position position;
  position.turn = Side::Light;
  position.board[0] = private_board(rank_mask_[row]) | (SquareMask{block.shared_mine} << 5);
  position.board[1] = private_board(rank_mask_[column]) | (SquareMask{block.shared_theirs} << 5);
  position.home = {block.home_mine, block.home_theirs};
  for (int side = 0; side < 2; ++side) {
    position.start[side] = static_cast<std::uint8_t>(rules_.pieces - position.home[side] -
                                                     std::popcount(position.board[side]));
  }
  return position;
}

}  // namespace ur::solver
