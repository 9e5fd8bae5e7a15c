// One named test per rule of shared/rules.md not already pinned in movegen_test.cpp, plus the
// published facts: the two small exact cases (4/7, 116/161) and the position counts.
#include <gtest/gtest.h>

#include <cmath>
#include <map>

#include "core/explain.h"
#include "core/movegen.h"
#include "core/test_support.h"

namespace ur {
namespace {

const Rules kFinkel = finkel_rules();

Position parse(std::string_view text, const Rules& rules = kFinkel) {
  return testing::parse_or_die(text, rules);
}

// --- Board and route ---

TEST(RulesBoard, TwentySquaresSixPrivatePerSideAndEightShared) {
  const int shared = count_squares(kFinkel.shared);
  const int private_per_side = count_squares(kFinkel.board_squares() & ~kFinkel.shared);
  EXPECT_EQ(shared, 8);
  EXPECT_EQ(private_per_side, 6);
  EXPECT_EQ(2 * private_per_side + shared, 20);
}

TEST(RulesRoute, SharedSquaresAreFiveToTwelve) {
  EXPECT_EQ(kFinkel.shared, square_range(5, 12));
  EXPECT_EQ(kFinkel.route_length, 14);
  EXPECT_EQ(kFinkel.home_square(), 15);
}

TEST(RulesBoard, RosettesAreRouteSquaresFourEightAndFourteen) {
  EXPECT_EQ(kFinkel.rosettes, square_bit(4) | square_bit(8) | square_bit(14));
  // Five physical rosettes: 4 and 14 on each side's own row, 8 shared.
  EXPECT_EQ(2 * count_squares(kFinkel.rosettes & ~kFinkel.shared) +
                count_squares(kFinkel.rosettes & kFinkel.shared),
            5);
}

// --- Sides ---

TEST(RulesSides, EachSideStartsWithItsPiecesWaiting) {
  for (int pieces = 1; pieces <= 7; ++pieces) {
    const Rules rules = finkel_rules(pieces);
    const Position position = starting_position(rules);
    EXPECT_EQ(position.start_of(Side::Light), pieces);
    EXPECT_EQ(position.start_of(Side::Dark), pieces);
    EXPECT_EQ(position.board, (std::array<SquareMask, 2>{0, 0}));
    EXPECT_FALSE(validate(rules, position).has_value());
  }
}

// Each position below has the right piece count for its rules, so only the 1-7 range check
// can refuse it.
TEST(RulesSides, EngineAcceptsOnlyOneToSevenPieces) {
  for (int pieces = 0; pieces <= 8; ++pieces) {
    Rules rules = finkel_rules();
    rules.pieces = pieces;
    const auto error = validate(rules, starting_position(rules));
    if (pieces >= 1 && pieces <= 7) {
      EXPECT_FALSE(error.has_value()) << pieces << ": " << *error;
    } else {
      ASSERT_TRUE(error.has_value()) << pieces;
      EXPECT_NE(error->find("between 1 and 7"), std::string::npos) << *error;
    }
  }
}

// --- Dice ---

TEST(RulesDice, RollProbabilitiesSumToOne) {
  double total = 0;
  for (Roll roll = 0; roll <= kFinkel.max_roll(); ++roll) total += roll_probability(kFinkel, roll);
  EXPECT_DOUBLE_EQ(total, 1.0);
  EXPECT_DOUBLE_EQ(roll_probability(kFinkel, 2), 6.0 / 16);
}

// --- A turn ---

TEST(RulesTurn, MoveGoesExactlyRollSquaresForward) {
  const Position position = parse("L:4/1,5,9/0:7/-/0");
  for (Roll roll = 1; roll <= 4; ++roll) {
    for (const Move& move : legal_moves(kFinkel, position, roll)) {
      EXPECT_EQ(move.to, move.from + roll);
    }
  }
}

TEST(RulesTurn, ExactBearOffFromEachOfTheLastSquares) {
  for (Square from = 11; from <= 14; ++from) {
    Position position = starting_position(kFinkel);
    position.start[0] = 6;
    position.board[0] = square_bit(from);
    for (Roll roll = 1; roll <= 4; ++roll) {
      const auto move = testing::move_from(kFinkel, position, roll, from);
      if (from + roll == 15) {
        ASSERT_TRUE(move) << from << "+" << roll;
        EXPECT_EQ(move->to, 15);
      } else if (from + roll > 15) {
        EXPECT_FALSE(move) << from << "+" << roll;
        EXPECT_EQ(why_illegal(kFinkel, position, roll, from), IllegalReason::NeedsExactBearOff);
      }
    }
  }
}

TEST(RulesTurn, AnyThrowBearOffAlsoAcceptsTheExactThrow) {
  const Rules any = finkel_rules(7, BearOff::Any);
  const Position position = parse("L:6/12/0:7/-/0", any);
  for (Roll roll = 3; roll <= 4; ++roll) {
    const auto move = testing::move_from(any, position, roll, 12);
    ASSERT_TRUE(move);
    EXPECT_EQ(move->to, 15);
    EXPECT_EQ(apply_move(any, position, *move).home_of(Side::Light), 1);
  }
}

TEST(RulesTurn, CaptureOnEverySharedSquareExceptTheCentralRosette) {
  for (Square target = 5; target <= 12; ++target) {
    Position position = starting_position(kFinkel);
    position.start = {6, 6};
    position.board[0] = square_bit(target - 1);
    position.board[1] = square_bit(target);
    const auto move = testing::move_from(kFinkel, position, 1, target - 1);
    if (target == 8) {
      EXPECT_FALSE(move);
      EXPECT_EQ(why_illegal(kFinkel, position, 1, target - 1), IllegalReason::OpponentOnSafe);
      continue;
    }
    ASSERT_TRUE(move) << target;
    EXPECT_TRUE(move->capture) << target;
    const Position after = apply_move(kFinkel, position, *move);
    EXPECT_EQ(after.start_of(Side::Dark), 7);
    EXPECT_EQ(after.board_of(Side::Dark), 0u);
    EXPECT_EQ(after.board_of(Side::Light), square_bit(target));
  }
}

TEST(RulesTurn, CentralRosetteIsOpenWhenEmptyAndGivesAnotherThrow) {
  const Position position = parse("L:6/5/0:6/9/0");
  const auto move = testing::move_from(kFinkel, position, 3, 5);
  ASSERT_TRUE(move);
  EXPECT_FALSE(move->capture);
  EXPECT_TRUE(move->extra_throw);
}

TEST(RulesTurn, CaptureAndBearOffGiveNoExtraThrow) {
  const Position capture = parse("L:6/3/0:6/5/0");
  const auto taking = testing::move_from(kFinkel, capture, 2, 3);
  ASSERT_TRUE(taking);
  EXPECT_TRUE(taking->capture);
  EXPECT_FALSE(taking->extra_throw);
  EXPECT_EQ(apply_move(kFinkel, capture, *taking).turn, Side::Dark);
  const Position bearing = parse("L:5/11,14/0:7/-/0");
  const auto leaving = testing::move_from(kFinkel, bearing, 4, 11);
  ASSERT_TRUE(leaving);
  EXPECT_FALSE(leaving->extra_throw);
  EXPECT_EQ(apply_move(kFinkel, bearing, *leaving).turn, Side::Dark);
}

TEST(RulesTurn, OpponentOnOwnRouteSquareOfSameNumberDoesNotBlockPrivateSquares) {
  // Dark on its own 4 and 14 is on a different physical square from light's 4 and 14.
  const Position position = parse("L:5/2,12/0:5/4,14/0");
  EXPECT_TRUE(testing::move_from(kFinkel, position, 2, 2));
  EXPECT_TRUE(testing::move_from(kFinkel, position, 2, 12));
}

TEST(RulesTurn, PassExplainsWhy) {
  const Position position = parse("L:0/14/6:7/-/0");
  EXPECT_FALSE(why_pass(kFinkel, position, 0).empty());
  EXPECT_FALSE(why_pass(kFinkel, position, 3).empty());
  EXPECT_TRUE(why_pass(kFinkel, position, 1).empty());
}

// The pass reason names each waiting piece's blocker, in route order, start first.
TEST(RulesTurn, PassReasonNamesOwnPiecesAndTheSafeOpponent) {
  EXPECT_EQ(why_pass(kFinkel, parse("L:4/2,4,6/0:6/8/0"), 2),
            "No piece can move 2 squares: start → 2, 2 → 4 and 4 → 6 would land on your own "
            "pieces; 6 → 8 would land on the opponent's piece, safe on its rosette.");
  EXPECT_EQ(why_pass(kFinkel, parse("L:6/4/0:6/8/0"), 4),
            "No piece can move 4 squares: start → 4 would land on your own piece; 4 → 8 would "
            "land on the opponent's piece, safe on its rosette.");
}

TEST(RulesTurn, PassReasonNamesEachOvershootUnderExactBearOff) {
  EXPECT_EQ(why_pass(kFinkel, parse("L:0/14/6:7/-/0"), 3),
            "No piece can move 3 squares: bearing off needs exactly 1 from 14.");
  EXPECT_EQ(why_pass(kFinkel, parse("L:0/13,14/5:7/-/0"), 3),
            "No piece can move 3 squares: bearing off needs exactly 2 from 13 and exactly 1 "
            "from 14.");
  EXPECT_EQ(why_pass(kFinkel, parse("L:0/13,14/5:7/-/0"), 1), "") << "14 bears off with a 1";
}

TEST(RulesTurn, PassReasonSpeaksToWhicheverSideMoves) {
  // Dark to move: its own pieces block two moves, light sits safe on 8, and 14 overshoots.
  EXPECT_EQ(why_pass(kFinkel, parse("D:6/8/0:4/4,10,14/0"), 4),
            "No piece can move 4 squares: start → 4 and 10 → 14 would land on your own pieces; "
            "4 → 8 would land on the opponent's piece, safe on its rosette; bearing off needs "
            "exactly 1 from 14.");
  EXPECT_EQ(why_pass(kFinkel, parse("D:6/8/0:4/4,10,14/0"), 1), "");
}

TEST(RulesTurn, PassReasonListsEveryBlockedPiece) {
  EXPECT_EQ(why_pass(kFinkel, parse("L:0/1,2,3,4,5,6,7/0:6/8/0"), 1),
            "No piece can move 1 square: 1 → 2, 2 → 3, 3 → 4, 4 → 5, 5 → 6 and 6 → 7 would land "
            "on your own pieces; 7 → 8 would land on the opponent's piece, safe on its rosette.");
}

TEST(RulesTurn, PassHandsTheThrowToTheOpponentAndChangesNothingElse) {
  const Position position = parse("L:4/1,3/1:7/-/0");
  const Position passed = pass_turn(position);
  EXPECT_EQ(passed.turn, Side::Dark);
  EXPECT_EQ(pass_turn(passed), position);
}

// --- Winning ---

TEST(RulesWinning, NoMovesAfterTheGameIsOver) {
  const Position position = parse("D:4/3/2:0/-/7");
  EXPECT_TRUE(is_game_over(kFinkel, position));
  EXPECT_EQ(winner(kFinkel, position), Side::Dark);
  EXPECT_FALSE(is_game_over(kFinkel, parse("D:6/3/0:0/14/6")));
}

// --- Who starts ---

TEST(RulesWhoStarts, EitherSideMayOpen) {
  EXPECT_EQ(starting_position(kFinkel, Side::Light).turn, Side::Light);
  EXPECT_EQ(starting_position(kFinkel, Side::Dark).turn, Side::Dark);
}

// --- Facts to check against ---

// The chance that the side to move wins with best play, over the positions reachable from
// `root`, by value iteration to 1e-15 (each value is a probability for that position's mover).
double exact_win_chance(const Rules& rules, const Position& root) {
  std::map<std::string, Position> reachable{{to_text(root), root}};
  std::vector<Position> frontier{root};
  while (!frontier.empty()) {
    const Position position = frontier.back();
    frontier.pop_back();
    if (is_game_over(rules, position)) continue;
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      const MoveList moves = legal_moves(rules, position, roll);
      std::vector<Position> children;
      if (moves.empty()) children.push_back(pass_turn(position));
      for (const Move& move : moves) children.push_back(apply_move(rules, position, move));
      for (const Position& child : children) {
        if (reachable.emplace(to_text(child), child).second) frontier.push_back(child);
      }
    }
  }
  std::map<std::string, double> value;
  for (const auto& [key, position] : reachable) {
    const auto won = winner(rules, position);
    value[key] = won ? (*won == position.turn ? 1.0 : 0.0) : 0.5;
  }
  auto for_mover = [&](const Position& mover_view, const Position& child) {
    const double child_value = value[to_text(child)];
    return child.turn == mover_view.turn ? child_value : 1.0 - child_value;
  };
  for (int sweep = 0; sweep < 100000; ++sweep) {
    double change = 0;
    for (const auto& [key, position] : reachable) {
      if (is_game_over(rules, position)) continue;
      double expected = 0;
      for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
        const MoveList moves = legal_moves(rules, position, roll);
        double best = moves.empty() ? for_mover(position, pass_turn(position)) : 0.0;
        for (const Move& move : moves) {
          best = std::max(best, for_mover(position, apply_move(rules, position, move)));
        }
        expected += roll_probability(rules, roll) * best;
      }
      change = std::max(change, std::abs(expected - value[key]));
      value[key] = expected;
    }
    if (change < 1e-15) break;
  }
  return value[to_text(root)];
}

TEST(RulesFacts, OnePieceEachBothNeedingOneWinsFourSevenths) {
  const Rules one = finkel_rules(1);
  EXPECT_NEAR(exact_win_chance(one, parse("L:0/14/0:0/14/0", one)), 4.0 / 7.0, 1e-12);
}

TEST(RulesFacts, OnePieceEachMoverNeedingTwoWins116Of161) {
  const Rules one = finkel_rules(1);
  EXPECT_NEAR(exact_win_chance(one, parse("L:0/13/0:0/14/0", one)), 116.0 / 161.0, 1e-12);
}

TEST(RulesFacts, OnePieceEachFromTheOpeningFavoursTheMover) {
  // A whole (tiny) game solved exactly: the mover's edge is real but small.
  const Rules one = finkel_rules(1);
  const double chance = exact_win_chance(one, starting_position(one));
  EXPECT_GT(chance, 0.5);
  EXPECT_LT(chance, 0.6);
}

// Positions from the mover's view: pairs of per-side placements with no shared square held
// twice, counted from the rule set's masks (no turn; all-home placements included).
std::uint64_t count_positions(const Rules& rules) {
  const int private_squares = count_squares(rules.board_squares() & ~rules.shared);
  const int shared_squares = count_squares(rules.shared);
  auto choose = [](int n, int k) -> std::uint64_t {
    if (k < 0 || k > n) return 0;
    std::uint64_t result = 1;
    for (int i = 1; i <= k; ++i) result = result * (n - k + i) / i;
    return result;
  };
  std::uint64_t total = 0;
  // Light holds a shared squares and dark b of the remaining ones; each side then places the
  // rest of its board pieces on its private squares and splits the others between start/home.
  for (int a = 0; a <= std::min(shared_squares, rules.pieces); ++a) {
    for (int b = 0; b <= std::min(shared_squares - a, rules.pieces); ++b) {
      const std::uint64_t shared_ways = choose(shared_squares, a) * choose(shared_squares - a, b);
      std::uint64_t light = 0;
      std::uint64_t dark = 0;
      for (int p = 0; a + p <= rules.pieces; ++p) {
        light += choose(private_squares, p) * (rules.pieces - a - p + 1);
      }
      for (int p = 0; b + p <= rules.pieces; ++p) {
        dark += choose(private_squares, p) * (rules.pieces - b - p + 1);
      }
      total += shared_ways * light * dark;
    }
  }
  return total;
}

TEST(RulesFacts, PositionCountsMatchThePublishedFigures) {
  EXPECT_EQ(count_positions(finkel_rules(7)), 137913936u);
  EXPECT_EQ(count_positions(finkel_rules(5)), 14680840u);
}

}  // namespace
}  // namespace ur
