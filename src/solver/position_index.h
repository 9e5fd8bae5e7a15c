// A perfect index of positions: a bijection between the positions of a rule set, seen from
// the side to move, and the dense integers 0..size()-1. No keys are stored.
//
// Positions are indexed from the mover's view: a position with dark to move is mirrored so
// the mover is "mine" and the other side "theirs". Positions where the mover already has all
// pieces home are not indexed (the game ended before that turn), so for Finkel's 7 pieces
// size() is 137,892,016; with them it would be 137,913,936 (count_positions below).
//
// Any rule set whose path does not cross itself is indexed the same way. Its route squares
// split into private ones (only the owner's path crosses their cell) and shared ones; the
// supported paths have the shared squares in one run s0..s1 (Finkel 5-12, Masters and Aseb
// 5-16), with "low" private squares 1..s0-1 before it and "end" private squares after it
// (Finkel 13-14). Shared squares are in the mover's numbering: the opponent's pieces there
// are renumbered through Rules::opposite (Masters: their 12, 13 are my 16, 15), which costs
// nothing at lookup because the base-3 digits of their mask come from a table.
//
// Layout: layers by homes (home_mine, home_theirs), home_mine in 0..pieces-1 and
// home_theirs in 0..pieces; within a layer, blocks by the pattern of the shared squares
// (base 3: empty / mine / theirs); within a block, row = rank of my private-square mask,
// column = rank of their private-square mask. Private masks (low squares as the low bits,
// end squares above them) are ranked in order of popcount, so the masks with popcount <= c
// are ranks 0..A(c)-1 whatever c is, and a block is a dense A(cap_mine) x A(cap_theirs)
// rectangle. For Finkel this is exactly the layout tables have always used.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/rules.h"
#include "solver/huge_pages.h"

namespace ur::solver {

// Why the index cannot handle `rules` (a path that crosses itself, shared squares that are not
// one run, too many private squares), or nothing when it can.
std::optional<std::string> unsupported_rules(const Rules& rules);

// Number of positions seen from the side to move, from a closed formula (multinomials over the
// shared squares times binomial sums over the private ones), independent of the index's
// enumeration. With `include_mover_finished` it also counts every home pair where the mover
// has all pieces home (the published 137,913,936 for Finkel's 7 pieces, which includes the one
// impossible slot where both sides are home); without, it is PositionIndex::size().
// Precondition: unsupported_rules(rules) is empty.
std::uint64_t count_positions(const Rules& rules, bool include_mover_finished);

// Positions of one layer (homes of the mover and of the other side), by the same formula.
std::uint64_t count_layer_positions(const Rules& rules, int home_mine, int home_theirs);

// Bytes the index itself takes in memory for `rules` (its slot and block tables), so callers
// can tell before building it whether it fits.
std::uint64_t index_bytes(const Rules& rules);

inline constexpr int kMaxLowSquares = 4;  // the sweep keeps per-row arrays of 2^4 entries
inline constexpr int kMaxPrivateSquares = 6;

// One block: all positions of one home pair and one shared pattern.
struct Block {
  std::uint64_t offset = 0;         // index of the block's first position
  std::uint16_t shared_mine = 0;    // my shared squares, bit k = square shared_first + k
  std::uint16_t shared_theirs = 0;  // theirs, in MY numbering, same bits
  std::uint8_t home_mine = 0;
  std::uint8_t home_theirs = 0;
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
  // The block holding a position's index.
  const Block& block_of(std::uint64_t index) const;

  // Index from the mover's view: boards in each side's own numbering and homes.
  std::uint64_t rank_view(SquareMask mine, SquareMask theirs, int home_mine,
                          int home_theirs) const {
    const Slot& slot = slot_view(mine, theirs, home_mine, home_theirs);
    return slot.offset +
           std::uint64_t{mask_rank_[private_bits(mine)]} * columns_of(theirs, home_theirs) +
           mask_rank_[private_bits(theirs)];
  }

  // Asks the cache for what rank_view(mine, theirs, home_mine, home_theirs) will read.
  void prefetch_view(SquareMask mine, SquareMask theirs, int home_mine, int home_theirs) const {
    __builtin_prefetch(&slot_view(mine, theirs, home_mine, home_theirs));
  }

  // Row length (A(cap_theirs)) of the block holding the mover's-view position.
  std::uint32_t columns_view(SquareMask, SquareMask theirs, int, int home_theirs) const {
    return columns_of(theirs, home_theirs);
  }
  // The block of the mirrored view of `block`'s positions (homes and shared squares swapped).
  std::size_t mirror_block(const Block& block) const;

  // Blocks in index order; a layer's blocks are contiguous.
  std::span<const Block> blocks() const { return blocks_; }
  // Blocks [first, last) of the layer (home_mine, home_theirs).
  std::pair<std::size_t, std::size_t> layer_blocks(int home_mine, int home_theirs) const;
  std::uint32_t rank_of_private_mask(unsigned mask) const { return mask_rank_[mask]; }
  // Private mask of a row or column rank.
  unsigned private_mask_of_rank(int rank) const { return rank_mask_[rank]; }
  // The position of row `row`, column `column` of `block`, the mover's view (light to move).
  Position block_position(const Block& block, int row, int column) const;

  // The route's split (see the file comment).
  int low_squares() const { return low_; }
  int end_squares() const { return end_; }
  int shared_first() const { return shared_first_; }
  int shared_squares() const { return shared_; }
  int end_first() const { return end_first_; }
  // Private squares of a board as a mask: low squares bits 0..low-1, end squares above.
  unsigned private_bits(SquareMask board) const {
    return ((board >> 1) & low_mask_) | (((board >> end_first_) & end_mask_) << low_);
  }
  SquareMask private_board(unsigned bits) const {
    return ((bits & low_mask_) << 1) | (SquareMask{bits >> low_} << end_first_);
  }
  // Shared squares of a board as a mask: square shared_first + k is bit k.
  unsigned shared_bits(SquareMask board) const { return (board >> shared_first_) & shared_mask_; }
  // A shared mask in one side's numbering, in the other side's (an involution).
  unsigned other_numbering(unsigned shared) const { return renumber_[shared]; }

 private:
  struct Slot {  // 8 bytes
    std::uint32_t offset = 0;
    std::uint32_t block = 0;  // position in blocks_
  };
  const Slot& slot_view(SquareMask mine, SquareMask theirs, int home_mine, int home_theirs) const {
    const unsigned pattern = base3_mine_[shared_bits(mine)] + base3_theirs_[shared_bits(theirs)];
    return slots_[static_cast<std::size_t>(home_mine * (rules_.pieces + 1) + home_theirs) *
                      patterns_ +
                  pattern];
  }
  std::uint32_t columns_of(SquareMask theirs, int home_theirs) const {
    return masks_up_to_[rules_.pieces - home_theirs - std::popcount(theirs & shared_board_)];
  }

  Rules rules_;
  std::uint64_t size_ = 0;
  int low_ = 0, end_ = 0, shared_first_ = 0, shared_ = 0, end_first_ = 0;
  unsigned low_mask_ = 0, end_mask_ = 0, shared_mask_ = 0;
  SquareMask shared_board_ = 0;
  std::uint32_t patterns_ = 0;                  // 3^shared
  std::vector<std::uint32_t> base3_mine_;       // shared bits -> base-3 digits of value 1
  std::vector<std::uint32_t> base3_theirs_;     // their shared bits -> digits 2, mine
  std::vector<std::uint16_t> renumber_;         // shared bits -> other side's numbering
  std::array<std::uint8_t, 64> mask_rank_{};    // private mask -> rank (popcount order)
  std::array<std::uint8_t, 64> rank_mask_{};    // rank -> private mask
  std::array<std::uint8_t, 16> masks_up_to_{};  // cap (may be negative: never read) -> A
  std::vector<Slot, detail::HugePageAllocator<Slot>> slots_;     // by (home pair, shared pattern)
  std::vector<Block, detail::HugePageAllocator<Block>> blocks_;  // non-empty blocks, index order
  std::vector<std::size_t> layer_first_block_;  // by home pair, plus one end marker
};

}  // namespace ur::solver
