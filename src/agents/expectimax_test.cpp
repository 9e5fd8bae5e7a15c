// The search against a plain expectiminimax written straight from its definition.
#include "agents/expectimax.h"

#include <gtest/gtest.h>

#include "agents/test_positions.h"

namespace ur {
namespace {

// Plain expectiminimax: no windows, no table, no ordering. Values for `viewer`.
double brute_chance(const Rules& rules, const Position& position, int depth);

double brute_after(const Rules& rules, Side viewer, const Position& child, int depth) {
  if (is_game_over(rules, child)) return winner(rules, child) == viewer ? 1.0 : 0.0;
  const double value = depth == 0 ? evaluate(rules, child) : brute_chance(rules, child, depth);
  return child.turn == viewer ? value : 1.0 - value;
}

double brute_max(const Rules& rules, const Position& position, Roll roll, int depth) {
  const MoveList moves = legal_moves(rules, position, roll);
  if (moves.empty()) return brute_after(rules, position.turn, pass_turn(position), depth - 1);
  double best = 0.0;
  for (const Move& move : moves) {
    best = std::max(
        best, brute_after(rules, position.turn, apply_move(rules, position, move), depth - 1));
  }
  return best;
}

double brute_chance(const Rules& rules, const Position& position, int depth) {
  double sum = 0.0;
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    sum += roll_probability(rules, roll) * brute_max(rules, position, roll, depth);
  }
  return sum;
}

struct Variant {
  const char* name;
  bool order, table, star1, star2;
};

constexpr Variant kVariants[] = {
    {"plain", false, false, false, false}, {"ordered", true, false, false, false},
    {"table", false, true, false, false},  {"star1", false, false, true, false},
    {"star2", false, false, true, true},   {"all", true, true, true, true},
    {"default", true, true, true, false},
};

void expect_matches_brute_force(const Rules& rules, int depth, int count, std::uint64_t seed) {
  for (const Variant& variant : kVariants) {
    SearchOptions options;
    options.depth = depth;
    options.order_moves = variant.order;
    options.transposition_table = variant.table;
    options.star1 = variant.star1;
    options.star2 = variant.star2;
    ExpectimaxSearch search(options);
    for (const auto& [position, roll] : testing::random_positions(rules, count, seed)) {
      const double expected = brute_max(rules, position, roll, depth);
      const SearchResult result = search.search(rules, position, roll);
      ASSERT_NEAR(result.value, expected, 1e-9) << variant.name << " depth " << depth;
      // The move played is worth what the search says.
      const double move_value =
          brute_after(rules, position.turn, apply_move(rules, position, result.move), depth - 1);
      ASSERT_NEAR(move_value, expected, 1e-9) << variant.name << " depth " << depth;
    }
  }
}

TEST(Expectimax, MatchesBruteForceWithOnePiece) {
  for (int depth = 1; depth <= 5; ++depth)
    expect_matches_brute_force(finkel_rules(1), depth, 60, 11);
}

TEST(Expectimax, MatchesBruteForceWithTwoPieces) {
  for (int depth = 1; depth <= 4; ++depth)
    expect_matches_brute_force(finkel_rules(2), depth, 40, 12);
}

TEST(Expectimax, MatchesBruteForceWithAnyThrowBearOff) {
  expect_matches_brute_force(finkel_rules(2, BearOff::Any), 3, 40, 13);
}

TEST(Expectimax, MatchesBruteForceInTheFullGameAtShallowDepth) {
  expect_matches_brute_force(finkel_rules(7), 2, 40, 14);
  expect_matches_brute_force(finkel_rules(7), 3, 20, 15);
}

TEST(Expectimax, CountsNodes) {
  SearchOptions options;
  options.depth = 3;
  ExpectimaxSearch search(options);
  const Rules rules = finkel_rules();
  search.search(rules, starting_position(rules), 2);
  EXPECT_GT(search.stats().nodes, 10u);
  EXPECT_GT(search.stats().evaluations, 10u);
}

TEST(Evaluation, IsAProbability) {
  const Rules rules = finkel_rules();
  for (const auto& sample : testing::random_positions(rules, 2000, 21)) {
    const double value = evaluate(rules, sample.position);
    ASSERT_GT(value, 0.0);
    ASSERT_LT(value, 1.0);
  }
}

TEST(Evaluation, HitChanceCountsEachReachingRollOnce) {
  const Rules rules = finkel_rules();
  // Attackers 1 and 2 squares behind square 7: rolls 1 (4/16) and 2 (6/16).
  EXPECT_DOUBLE_EQ(hit_chance(rules, square_bit(6) | square_bit(5), 7), 10.0 / 16);
  EXPECT_DOUBLE_EQ(hit_chance(rules, square_bit(4), 8), 0.0);  // the central rosette is safe
  EXPECT_DOUBLE_EQ(hit_chance(rules, square_bit(1), 3), 0.0);  // private square
  EXPECT_DOUBLE_EQ(hit_chance(rules, square_bit(1), 5), 1.0 / 16);
}

TEST(Evaluation, MorePiecesHomeIsBetter) {
  const Rules rules = finkel_rules();
  Position behind = starting_position(rules);
  Position ahead = behind;
  ahead.start[0] = 5;
  ahead.home[0] = 2;
  EXPECT_GT(evaluate(rules, ahead), evaluate(rules, behind));
}

}  // namespace
}  // namespace ur
