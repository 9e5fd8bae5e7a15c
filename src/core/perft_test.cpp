// Perft pins (the move-generation signature) and a cross-check against a naive generator.
#include "core/perft.h"

#include <gtest/gtest.h>

#include "core/test_support.h"

namespace ur {
namespace {

std::vector<std::uint64_t> perft_from_opening(const Rules& rules, int max_depth) {
  std::vector<std::uint64_t> counts;
  for (int depth = 1; depth <= max_depth; ++depth) {
    counts.push_back(perft(rules, starting_position(rules), depth));
  }
  return counts;
}

// Reviewed by hand for depths 1 and 2 (any piece count of 2 or more):
//  depth 1 = 5: roll 0 passes (1 branch); rolls 1..4 each have exactly one move, entering a
//    piece onto square r (all waiting pieces are one choice).
//  depth 2 = 28: after the pass, dark faces the opening: 5. After light enters on 1, 2 or 3,
//    dark is to move in its own opening: 5 each, 15. After light enters on the rosette 4 it
//    throws again: roll 0 passes (1); rolls 1..3 enter a second piece or move 4 -> 5..7
//    (2 each, 6); roll 4 cannot enter (own piece on 4) and moves 4 -> 8 (1): 8.
//    5 + 15 + 8 = 28. With one piece the rosette branch has 5, so depth 2 = 25.
// Depths 1..5 agree for 3, 5 and 7 pieces: the piece count only matters once a side has
// entered all its pieces and is still on move, which with 3 pieces first happens at depth 6.
// Bear-off "any" first differs at depth 5: light 0->4 and 4->8 (two extra throws), 8->12;
// dark then throws 0..3 (4 would enter on its rosette and throw again); light's throw of 4
// bears off from 12 only under "any": 4 more leaves (12473 against 12469).
TEST(Perft, SevenPiecesFromTheOpening) {
  EXPECT_EQ(perft_from_opening(finkel_rules(7), 6),
            (std::vector<std::uint64_t>{5, 28, 192, 1492, 12469, 112552}));
}

TEST(Perft, FivePiecesFromTheOpening) {
  EXPECT_EQ(perft_from_opening(finkel_rules(5), 6),
            (std::vector<std::uint64_t>{5, 28, 192, 1492, 12469, 112552}));
}

TEST(Perft, ThreePiecesFromTheOpening) {
  EXPECT_EQ(perft_from_opening(finkel_rules(3), 6),
            (std::vector<std::uint64_t>{5, 28, 192, 1492, 12469, 112060}));
}

TEST(Perft, SevenPiecesAnyBearOffFromTheOpening) {
  EXPECT_EQ(perft_from_opening(finkel_rules(7, BearOff::Any), 6),
            (std::vector<std::uint64_t>{5, 28, 192, 1492, 12473, 112654}));
}

TEST(Perft, OnePieceFromTheOpening) {
  EXPECT_EQ(perft_from_opening(finkel_rules(1), 5),
            (std::vector<std::uint64_t>{5, 25, 125, 625, 3125}));
}

TEST(Perft, DeeperSevenPieceSignature) {
  EXPECT_EQ(perft(finkel_rules(), starting_position(finkel_rules()), 8), 10591874u);
}

TEST(Perft, DepthZeroAndFinishedGamesAreLeaves) {
  const Rules rules = finkel_rules();
  EXPECT_EQ(perft(rules, starting_position(rules), 0), 1u);
  const Position finished = testing::parse_or_die("D:4/3/2:0/-/7", rules);
  EXPECT_EQ(perft(rules, finished, 5), 1u);
}

// --- An independent naive generator: arrays and loops over squares, no masks ---

struct Board {
  bool own[16] = {};
  bool theirs[16] = {};
};

Board squares_of(const Position& position) {
  Board board;
  const int us = index_of(position.turn);
  for (int square = 1; square <= 14; ++square) {
    board.own[square] = (position.board[us] >> square) & 1;
    board.theirs[square] = (position.board[1 - us] >> square) & 1;
  }
  return board;
}

std::vector<Move> naive_moves(const Rules& rules, const Position& position, Roll roll) {
  std::vector<Move> moves;
  if (roll == 0) return moves;
  const Board board = squares_of(position);
  for (int from = 0; from <= 14; ++from) {
    if (from == 0 ? position.start[index_of(position.turn)] == 0 : !board.own[from]) continue;
    int to = from + roll;
    if (to > 15) {
      if (rules.bear_off == BearOff::Exact) continue;
      to = 15;
    }
    if (to == 15) {
      moves.push_back(Move{static_cast<std::uint8_t>(from), 15, false, false});
      continue;
    }
    if (board.own[to]) continue;
    const bool shared = to >= 5 && to <= 12;
    const bool opponent_there = shared && board.theirs[to];
    if (opponent_there && to == 8) continue;
    moves.push_back(Move{static_cast<std::uint8_t>(from), static_cast<std::uint8_t>(to),
                         opponent_there, to == 4 || to == 8 || to == 14});
  }
  return moves;
}

Position naive_apply(const Position& position, const Move& move) {
  Position after = position;
  const int us = index_of(position.turn);
  Board board = squares_of(position);
  if (move.from == 0) {
    after.start[us] -= 1;
  } else {
    board.own[move.from] = false;
  }
  if (move.to == 15) {
    after.home[us] += 1;
  } else {
    board.own[move.to] = true;
    if (move.to >= 5 && move.to <= 12 && board.theirs[move.to]) {
      board.theirs[move.to] = false;
      after.start[1 - us] += 1;
    }
  }
  after.board = {0, 0};
  for (int square = 1; square <= 14; ++square) {
    if (board.own[square]) after.board[us] |= 1u << square;
    if (board.theirs[square]) after.board[1 - us] |= 1u << square;
  }
  const bool rosette = move.to == 4 || move.to == 8 || move.to == 14;
  if (!rosette) after.turn = opponent(position.turn);
  return after;
}

std::uint64_t naive_perft(const Rules& rules, const Position& position, int depth) {
  if (depth == 0 || position.home[0] == rules.pieces || position.home[1] == rules.pieces) return 1;
  std::uint64_t nodes = 0;
  for (Roll roll = 0; roll <= 4; ++roll) {
    const auto moves = naive_moves(rules, position, roll);
    if (moves.empty()) {
      Position passed = position;
      passed.turn = opponent(position.turn);
      nodes += naive_perft(rules, passed, depth - 1);
    }
    for (const Move& move : moves)
      nodes += naive_perft(rules, naive_apply(position, move), depth - 1);
  }
  return nodes;
}

TEST(NaiveCrossCheck, MovesAndAppliedPositionsAgreeOnRandomPositions) {
  std::mt19937_64 random(17);
  for (int i = 0; i < 20000; ++i) {
    const Rules rules = testing::random_rules(random);
    const Position position = testing::random_position(random, rules);
    if (is_game_over(rules, position)) continue;
    for (Roll roll = 0; roll <= 4; ++roll) {
      const MoveList moves = legal_moves(rules, position, roll);
      const auto expected = naive_moves(rules, position, roll);
      ASSERT_EQ(std::vector<Move>(moves.begin(), moves.end()), expected)
          << to_text(position) << " roll " << roll;
      for (const Move& move : moves) {
        ASSERT_EQ(apply_move(rules, position, move), naive_apply(position, move))
            << to_text(position) << " roll " << roll << " from " << int{move.from};
      }
    }
  }
}

TEST(NaiveCrossCheck, PerftAgreesOnRandomPositions) {
  std::mt19937_64 random(19);
  for (int i = 0; i < 300; ++i) {
    const Rules rules = testing::random_rules(random);
    const Position position = testing::random_position(random, rules);
    const int depth = 1 + static_cast<int>(random() % 3);
    ASSERT_EQ(perft(rules, position, depth), naive_perft(rules, position, depth))
        << to_text(position) << " depth " << depth << " pieces " << rules.pieces;
  }
}

TEST(NaiveCrossCheck, PerftFromTheOpeningAgreesToDepthFive) {
  for (const Rules& rules : {finkel_rules(7), finkel_rules(3), finkel_rules(7, BearOff::Any)}) {
    EXPECT_EQ(perft(rules, starting_position(rules), 5),
              naive_perft(rules, starting_position(rules), 5));
  }
}

}  // namespace
}  // namespace ur
