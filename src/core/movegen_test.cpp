// Move generation against the rules in shared/rules.md, one named test per rule.
#include "core/movegen.h"

#include <gtest/gtest.h>

#include "core/notation.h"
#include "core/test_support.h"

namespace ur {
namespace {

const Rules kFinkel = finkel_rules();

Position parse(std::string_view text, const Rules& rules = kFinkel) {
  auto parsed = parse_text(text, rules);
  EXPECT_TRUE(std::holds_alternative<Position>(parsed)) << text;
  return std::get<Position>(parsed);
}

TEST(Rules, DiceOddsAreOneFourSixFourOneInSixteen) {
  EXPECT_EQ(roll_weight(kFinkel, 0), 1);
  EXPECT_EQ(roll_weight(kFinkel, 1), 4);
  EXPECT_EQ(roll_weight(kFinkel, 2), 6);
  EXPECT_EQ(roll_weight(kFinkel, 3), 4);
  EXPECT_EQ(roll_weight(kFinkel, 4), 1);
  EXPECT_EQ(roll_weight_total(kFinkel), 16);
}

TEST(Rules, RollOfZeroPasses) {
  EXPECT_TRUE(legal_moves(kFinkel, starting_position(kFinkel), 0).empty());
}

TEST(Rules, EnteringPieceGoesToSquareEqualToRoll) {
  for (Roll roll = 1; roll <= 4; ++roll) {
    const MoveList moves = legal_moves(kFinkel, starting_position(kFinkel), roll);
    ASSERT_EQ(moves.size(), 1);  // all waiting pieces are a single choice
    EXPECT_EQ(moves[0].from, 0);
    EXPECT_EQ(moves[0].to, roll);
  }
}

TEST(Rules, CannotLandOnOwnPiece) {
  const Position position = parse("L:5/1,3/0:7/-/0");
  const MoveList moves = legal_moves(kFinkel, position, 2);
  ASSERT_EQ(moves.size(), 2);  // 0->2 and 3->5; 1->3 is blocked
  EXPECT_EQ(moves[0].from, 0);
  EXPECT_EQ(moves[1].from, 3);
}

TEST(Rules, CaptureOnSharedSquareSendsPieceHome) {
  const Position position = parse("L:6/4/0:6/6/0");
  const MoveList moves = legal_moves(kFinkel, position, 2);
  const Move* capture = find_move(moves, 4);
  ASSERT_NE(capture, nullptr);
  EXPECT_TRUE(capture->capture);
  EXPECT_FALSE(capture->extra_throw);
  const Position after = apply_move(kFinkel, position, *capture);
  EXPECT_EQ(after.board_of(Side::Dark), 0u);
  EXPECT_EQ(after.start_of(Side::Dark), 7);
  EXPECT_EQ(after.turn, Side::Dark);
}

TEST(Rules, CentralRosetteIsSafe) {
  const Position position = parse("L:6/6/0:6/8/0");
  EXPECT_FALSE(testing::move_from(kFinkel, position, 2, 6));
}

TEST(Rules, PrivateSquaresNeverCapture) {
  // Both sides on their own square 2: different physical squares.
  const Position position = parse("L:6/1/0:6/2/0");
  const auto move = testing::move_from(kFinkel, position, 1, 1);
  ASSERT_TRUE(move);
  EXPECT_FALSE(move->capture);
}

TEST(Rules, PiecesJumpOverAnyPiece) {
  const Position position = parse("L:5/5,6/0:6/7/0");
  EXPECT_TRUE(testing::move_from(kFinkel, position, 3, 5));  // 5 -> 8 over 6, 7
}

TEST(Rules, RosetteGivesAnotherThrow) {
  for (Square rosette : {4, 8, 14}) {
    Position position = starting_position(kFinkel);
    position.start[0] = 6;
    position.board[0] = square_bit(rosette - 2);
    const auto move = testing::move_from(kFinkel, position, 2, rosette - 2);
    ASSERT_TRUE(move);
    EXPECT_TRUE(move->extra_throw) << rosette;
    EXPECT_EQ(apply_move(kFinkel, position, *move).turn, Side::Light);
  }
}

TEST(Rules, BearOffNeedsExactThrow) {
  const Position position = parse("L:6/13/0:7/-/0");
  EXPECT_FALSE(testing::move_from(kFinkel, position, 3, 13));
  const auto exact = testing::move_from(kFinkel, position, 2, 13);
  ASSERT_TRUE(exact);
  EXPECT_EQ(exact->to, 15);
  EXPECT_FALSE(exact->extra_throw);
}

TEST(Rules, AnyThrowBearOffSetting) {
  const Rules any = finkel_rules(7, BearOff::Any);
  const Position position = parse("L:6/13/0:7/-/0", any);
  const auto move = testing::move_from(any, position, 4, 13);
  ASSERT_TRUE(move);
  EXPECT_EQ(move->to, 15);
}

TEST(Rules, MustPassWhenNoLegalMove) {
  const Position position = parse("L:0/14/6:7/-/0");
  EXPECT_TRUE(legal_moves(kFinkel, position, 2).empty());
  EXPECT_EQ(legal_moves(kFinkel, position, 1).size(), 1);
}

TEST(Rules, AllPiecesHomeWins) {
  const Position position = parse("L:0/14/6:7/-/0");
  const Position after = apply_move(kFinkel, position, legal_moves(kFinkel, position, 1)[0]);
  EXPECT_TRUE(is_game_over(kFinkel, after));
  EXPECT_EQ(winner(kFinkel, after), Side::Light);
}

TEST(MoveGen, MovesAreSortedByFrom) {
  const Position position = parse("L:3/1,2,6,9/0:7/-/0");
  const MoveList moves = legal_moves(kFinkel, position, 1);
  for (int i = 1; i < moves.size(); ++i) EXPECT_LT(moves[i - 1].from, moves[i].from);
  EXPECT_EQ(count_legal_moves(kFinkel, position, 1), moves.size());
}

}  // namespace
}  // namespace ur
