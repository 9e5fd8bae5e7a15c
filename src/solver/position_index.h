// A perfect index of positions: a bijection between the positions of a rule set, seen from
// the side to move, and the dense integers 0..size()-1. No keys are stored.
//
// Positions are indexed from the mover's view: a position with dark to move is mirrored so
// the mover is "mine" and the other side "theirs". Positions where the mover already has all
// pieces home are not indexed (the game ended before that turn), so for Finkel's 7 pieces
// size() is 137,892,016; with them it would be 137,913,936 (count_positions below).
//
// Layout: layers by homes (home_mine, home_theirs), home_mine in 0..pieces-1 and
// home_theirs in 0..pieces; within a layer, blocks by the pattern of the 8 shared squares
// (base 3: empty / mine / theirs); within a block, row = rank of my private-square mask,
// column = rank of their private-square mask. Private masks (squares 1-4, 13-14 as 6 bits)
// are ranked in order of popcount, so the masks with popcount <= c are ranks 0..A(c)-1
// whatever c is, and a block is a dense A(cap_mine) x A(cap_theirs) rectangle.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"

namespace ur::solver {

// Why the index cannot handle `rules` (it needs the 14-square route with shared squares
// 5-12), or nothing when it can.
std::optional<std::string> unsupported_rules(const Rules& rules);

// Number of positions seen from the side to move, computed combinatorially. With
// `include_mover_finished` it also counts every home pair where the mover has all pieces home
// (the published 137,913,936 for 7 pieces, which includes the one impossible slot where both
// sides are home); without, it is PositionIndex::size().
std::uint64_t count_positions(const Rules& rules, bool include_mover_finished);

inline constexpr int kPrivateSquares = 6;
inline constexpr int kSharedSquares = 8;
inline constexpr int kSharedPatterns = 6561;  // 3^8

// Squares 1-4 become bits 0-3, squares 13-14 bits 4-5.
constexpr unsigned private_bits(SquareMask board) {
  return ((board >> 1) & 0xFu) | ((board >> 9) & 0x30u);
}
constexpr SquareMask private_board(unsigned bits) {
  return ((bits & 0xFu) << 1) | ((bits & 0x30u) << 9);
}
// Squares 5-12 become bits 0-7.
constexpr unsigned shared_bits(SquareMask board) {
  return (board >> 5) & 0xFFu;
}

// One block: all positions of one home pair and one shared pattern.
struct Block {
  std::uint64_t offset = 0;  // index of the block's first position
  std::uint8_t home_mine = 0;
  std::uint8_t home_theirs = 0;
  std::uint8_t shared_mine = 0;  // shared squares as bits 0-7 (square 5 = bit 0)
  std::uint8_t shared_theirs = 0;
  std::uint8_t rows = 0;     // A(cap_mine): private masks of mine with popcount <= cap
  std::uint8_t columns = 0;  // A(cap_theirs)
  std::uint32_t size() const { return std::uint32_t{rows} * columns; }
};

class PositionIndex {
 public:
  // Precondition: unsupported_rules(rules) is empty.
  explicit PositionIndex(const Rules& rules);

  const Rules& rules() const { return rules_; }
  std::uint64_t size() const { return size_; }

  // Index of a valid position whose mover does not have all pieces home.
  std::uint64_t rank(const Position& position) const;
  // The position of an index, light to move (the mover's view).
  Position unrank(std::uint64_t index) const;

  // Index from the mover's view: boards in each side's own numbering and homes.
  std::uint64_t rank_view(SquareMask mine, SquareMask theirs, int home_mine,
                          int home_theirs) const {
    const unsigned pattern = base3_[shared_bits(mine)] + 2 * base3_[shared_bits(theirs)];
    const Slot& slot =
        slots_[(home_mine * (rules_.pieces + 1) + home_theirs) * kSharedPatterns + pattern];
    return slot.offset + std::uint64_t{mask_rank_[private_bits(mine)]} * slot.columns +
           mask_rank_[private_bits(theirs)];
  }

  // Row length (A(cap_theirs)) of the block holding the mover's-view position.
  std::uint32_t columns_view(SquareMask mine, SquareMask theirs, int home_mine,
                             int home_theirs) const {
    const unsigned pattern = base3_[shared_bits(mine)] + 2 * base3_[shared_bits(theirs)];
    return slots_[(home_mine * (rules_.pieces + 1) + home_theirs) * kSharedPatterns + pattern]
        .columns;
  }
  // The block of the mirrored view of `block`'s positions (homes and shared squares swapped).
  std::size_t mirror_block(const Block& block) const;

  // Blocks in index order; a layer's blocks are contiguous.
  const std::vector<Block>& blocks() const { return blocks_; }
  // Blocks [first, last) of the layer (home_mine, home_theirs).
  std::pair<std::size_t, std::size_t> layer_blocks(int home_mine, int home_theirs) const;
  std::uint32_t rank_of_private_mask(unsigned mask) const { return mask_rank_[mask]; }
  // Private mask (6 bits) of a row or column rank.
  unsigned private_mask_of_rank(int rank) const { return rank_mask_[rank]; }

 private:
  struct Slot {  // 12 bytes: a layer's 6561 slots stay cache-resident
    std::uint32_t offset = 0;
    std::uint32_t columns = 0;
    std::uint32_t block = 0;  // position in blocks_
  };
  Rules rules_;
  std::uint64_t size_ = 0;
  std::array<std::uint16_t, 256> base3_{};      // 8 shared bits as base-3 digits of value 1
  std::array<std::uint8_t, 64> mask_rank_{};    // private mask -> rank (popcount order)
  std::array<std::uint8_t, 64> rank_mask_{};    // rank -> private mask
  std::vector<Slot> slots_;                     // by (home pair, shared pattern)
  std::vector<Block> blocks_;                   // non-empty blocks, index order
  std::vector<std::size_t> layer_first_block_;  // by home pair, plus one end marker
};

}  // namespace ur::solver
