#include "analysis/review.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "analysis/hand_values.h"
#include "analysis/review_text.h"
#include "analysis/search_values.h"
#include "core/notation.h"

namespace ur::analysis {
namespace {

// Chances chosen by hand for the positions of a short two-piece game (mover's view).
using analysis::testing::HandValues;

records::GameRecord short_game() {
  records::GameRecord record;
  record.rules = finkel_rules(2);
  record.plies = {{Side::Light, 2, Move{0, 2, false, false}},
                  {Side::Dark, 1, Move{0, 1, false, false}},
                  {Side::Light, 3, Move{0, 3, false, false}},
                  {Side::Dark, 0, std::nullopt}};
  return record;
}

TEST(Review, AShortGameByHand) {
  const records::GameRecord record = short_game();
  HandValues values;
  const Review result = review(record, std::get<records::Replay>(records::replay(record)), values);
  EXPECT_TRUE(values.unknown.empty()) << "asked for a position without a hand value";
  ASSERT_EQ(result.throws.size(), 4u);
  const ThrowReview& first = result.throws[0];
  EXPECT_TRUE(first.forced);
  EXPECT_EQ(first.move_class, MoveClass::Forced);
  EXPECT_NEAR(first.win_before, 0.52, 1e-12);
  EXPECT_NEAR(first.win_best, 0.53, 1e-12);
  EXPECT_NEAR(first.luck, 0.01, 1e-12);
  EXPECT_NEAR(result.throws[1].luck, -0.02, 1e-12);

  const ThrowReview& choice = result.throws[2];
  EXPECT_FALSE(choice.forced);
  ASSERT_EQ(choice.moves.size(), 2u);
  EXPECT_EQ(choice.moves[0].move.from, 2);  // 2 to 5 is best
  EXPECT_NEAR(choice.moves[0].win, 0.58, 1e-12);
  EXPECT_NEAR(choice.moves[1].win, 0.51, 1e-12);
  EXPECT_NEAR(choice.win_played, 0.51, 1e-12);
  EXPECT_NEAR(choice.loss, 0.07, 1e-12);
  EXPECT_EQ(choice.move_class, MoveClass::Mistake);
  EXPECT_FALSE(choice.only_move);  // the other move loses 7 pp, not more than 10
  EXPECT_NEAR(choice.luck, 0.03, 1e-12);

  const ThrowReview& pass = result.throws[3];
  EXPECT_TRUE(pass.forced);
  EXPECT_FALSE(pass.move);
  EXPECT_NEAR(pass.win_best, 0.49, 1e-12);
  EXPECT_NEAR(pass.luck, 0.0, 1e-12);

  const PlayerSummary& light = result.summary[index_of(Side::Light)];
  EXPECT_EQ(light.decisions, 1);
  EXPECT_EQ(light.classes[static_cast<int>(MoveClass::Mistake)], 1);
  EXPECT_NEAR(light.total_loss, 0.07, 1e-12);
  EXPECT_NEAR(light.mean_loss, 0.07, 1e-12);
  EXPECT_NEAR(light.accuracy, 103.1668 * std::exp(-0.04354 * 70) - 3.1669, 1e-9);
  EXPECT_EQ(light.skill, "awful");
  EXPECT_NEAR(light.total_luck, 0.04, 1e-12);
  EXPECT_NEAR(light.luck_adjusted, 0.45, 1e-12);  // 0.52 start - 0.07 lost
  const PlayerSummary& dark = result.summary[index_of(Side::Dark)];
  EXPECT_EQ(dark.decisions, 0);
  EXPECT_DOUBLE_EQ(dark.accuracy, 100.0);
  EXPECT_EQ(dark.skill, "no decisions");
  EXPECT_NEAR(dark.total_luck, -0.02, 1e-12);
  EXPECT_NEAR(dark.luck_adjusted, 0.55, 1e-12);

  EXPECT_EQ(result.key_losses, (std::vector<std::size_t>{2}));
  EXPECT_EQ(result.key_luck, (std::vector<std::size_t>{2, 1, 0}));
  EXPECT_TRUE(result.exact);
  EXPECT_FALSE(result.winner);
}

// From a review: a 10 pp blunder read "blunder (only move)", since the mark went to the throw
// (one good move) and not to the move played.
TEST(Review, OnlyMoveMarksTheMovePlayedWhenItIsTheOneGoodMove) {
  HandValues values;
  values.set("D:1/5/0:1/1/0", 0.30);  // 2 to 5 now wins 70%, entering on 3 only 51%
  records::GameRecord blunder = short_game();
  const Review missed =
      review(blunder, std::get<records::Replay>(records::replay(blunder)), values);
  EXPECT_EQ(missed.throws[2].move_class, MoveClass::Blunder);
  EXPECT_FALSE(missed.throws[2].only_move);
  EXPECT_EQ(missed.summary[index_of(Side::Light)].only_moves, 0);

  records::GameRecord found = short_game();
  found.plies[2].move = Move{2, 5, false, false};
  values.set("L:1/5/0:1/1/0", 0.65);  // after dark passes
  const Review best = review(found, std::get<records::Replay>(records::replay(found)), values);
  EXPECT_TRUE(values.unknown.empty()) << values.unknown.front();
  EXPECT_EQ(best.throws[2].move_class, MoveClass::Best);
  EXPECT_TRUE(best.throws[2].only_move);
  EXPECT_EQ(best.summary[index_of(Side::Light)].only_moves, 1);
}

TEST(Review, ClassThresholdsInPercentagePoints) {
  EXPECT_EQ(classify(0.0), MoveClass::Best);
  EXPECT_EQ(classify(0.005), MoveClass::Excellent);
  EXPECT_EQ(classify(0.0051), MoveClass::Good);
  EXPECT_EQ(classify(0.02), MoveClass::Good);
  EXPECT_EQ(classify(0.0201), MoveClass::Inaccuracy);
  EXPECT_EQ(classify(0.05), MoveClass::Inaccuracy);
  EXPECT_EQ(classify(0.0501), MoveClass::Mistake);
  EXPECT_EQ(classify(0.10), MoveClass::Mistake);
  EXPECT_EQ(classify(0.1001), MoveClass::Blunder);
}

TEST(Review, LuckMarksAndBands) {
  EXPECT_EQ(luck_mark(0.039), Luck::Neutral);
  EXPECT_EQ(luck_mark(0.04), Luck::Lucky);
  EXPECT_EQ(luck_mark(0.07), Luck::VeryLucky);
  EXPECT_EQ(luck_mark(-0.04), Luck::Unlucky);
  EXPECT_EQ(luck_mark(-0.071), Luck::VeryUnlucky);
  EXPECT_DOUBLE_EQ(accuracy_of(0.0), 100.0);
  EXPECT_GT(accuracy_of(0.001), accuracy_of(0.005));
  EXPECT_EQ(skill_band(0.0004), "supernatural");
  EXPECT_EQ(skill_band(0.0015), "expert");
  EXPECT_EQ(skill_band(0.02), "awful");
}

// A loss has no sign, not even for nothing: ur review and ur replay print it alike.
TEST(Review, LossTextIsUnsignedWithTwoDecimals) {
  EXPECT_EQ(loss_text(0.0292), "2.92");
  EXPECT_EQ(loss_text(0.0), "0.00");
  EXPECT_EQ(loss_text(0.00001), "0.00");
  EXPECT_EQ(loss_text(0.1234), "12.34");
}

// The graph's last line names the first and the last throw; in a short game the two numbers
// must not run together ("throw 12" for two throws read as throw twelve).
TEST(Review, TheGraphNamesTheFirstAndLastThrowApartInAShortGame) {
  const auto axis = [](int throws, std::size_t width) {
    Review review;
    review.throws.resize(static_cast<std::size_t>(throws));
    return chance_graph_lines(review, width).back();
  };
  EXPECT_EQ(axis(1, 68), "       throw 1");
  EXPECT_EQ(axis(2, 68), "       throws 1 to 2");
  EXPECT_EQ(axis(9, 68), "       throws 1 to 9");
  // Wide enough for both: the last number ends under the graph's last column.
  EXPECT_EQ(axis(12, 68), "       throw 1   12");
  const std::string long_game = axis(200, 68);
  EXPECT_TRUE(long_game.starts_with("       throw 1 ")) << long_game;
  EXPECT_TRUE(long_game.ends_with(" 200")) << long_game;
  EXPECT_EQ(long_game.size(), 7u + 68u) << long_game;
}

TEST(Review, WithoutATableTheSearchEstimatesAndSaysSo) {
  const records::GameRecord record = short_game();
  SearchValues values;
  const Review result = review(record, std::get<records::Replay>(records::replay(record)), values);
  EXPECT_FALSE(result.exact);
  EXPECT_NE(result.source.find("estimated: no solved table"), std::string::npos);
  for (const ThrowReview& entry : result.throws) {
    EXPECT_GT(entry.win_before, 0.0);
    EXPECT_LT(entry.win_before, 1.0);
    EXPECT_GE(entry.loss, 0.0);
  }
}

}  // namespace
}  // namespace ur::analysis
