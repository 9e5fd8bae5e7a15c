#include "solver/position_index.h"

#include <gtest/gtest.h>

#include <random>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rule_sets.h"

namespace ur::solver {
namespace {

TEST(PositionIndex, CountsMatchPublishedFigures) {
  EXPECT_EQ(count_positions(finkel_rules(7), true), 137'913'936u);
  EXPECT_EQ(count_positions(finkel_rules(7), false), 137'892'016u);
  EXPECT_EQ(count_positions(finkel_rules(5), true), 14'680'840u);
  EXPECT_EQ(PositionIndex(finkel_rules(7)).size(), 137'892'016u);
  EXPECT_EQ(PositionIndex(finkel_rules(5)).size(), count_positions(finkel_rules(5), false));
}

TEST(PositionIndex, EveryIndexRoundTripsForSmallPieceCounts) {
  for (int pieces = 1; pieces <= 3; ++pieces) {
    const Rules rules = finkel_rules(pieces);
    const PositionIndex index(rules);
    for (std::uint64_t i = 0; i < index.size(); ++i) {
      const Position position = index.unrank(i);
      ASSERT_EQ(validate(rules, position), std::nullopt) << to_text(position);
      ASSERT_LT(position.home[0], pieces);
      ASSERT_EQ(index.rank(position), i) << to_text(position);
    }
  }
}

TEST(PositionIndex, SampledIndicesRoundTripForSevenPieces) {
  const Rules rules = finkel_rules(7);
  const PositionIndex index(rules);
  std::mt19937_64 random(7);
  for (int sample = 0; sample < 200000; ++sample) {
    const std::uint64_t i = random() % index.size();
    const Position position = index.unrank(i);
    ASSERT_EQ(validate(rules, position), std::nullopt) << to_text(position);
    ASSERT_EQ(index.rank(position), i) << to_text(position);
  }
}

TEST(PositionIndex, PlayedPositionsRankFromTheMoversView) {
  const Rules rules = finkel_rules(7);
  const PositionIndex index(rules);
  std::mt19937_64 random(11);
  Position position = starting_position(rules);
  for (int ply = 0; ply < 100000; ++ply) {
    if (is_game_over(rules, position)) position = starting_position(rules, Side::Dark);
    const std::uint64_t i = index.rank(position);
    ASSERT_LT(i, index.size());
    ASSERT_EQ(index.rank(mirror(position)), i);  // same situation, colours swapped
    const Position view = index.unrank(i);
    ASSERT_EQ(view, position.turn == Side::Light ? position : mirror(position));
    const Roll roll = static_cast<Roll>(std::popcount(random() & 0xF));
    const MoveList moves = legal_moves(rules, position, roll);
    position = moves.empty() ? pass_turn(position)
                             : apply_move(rules, position, moves[random() % moves.size()]);
  }
}

TEST(PositionIndex, RefusesOtherBoards) {
  Rules rules = finkel_rules(7);
  EXPECT_EQ(unsupported_rules(rules), std::nullopt);
  for (const NamedRuleSet& set : named_rule_sets()) {
    if (set.name == "finkel") continue;
    const auto why = unsupported_rules(Rules(set.spec));
    ASSERT_TRUE(why.has_value()) << set.name;
    EXPECT_NE(why->find("perfect play for " + std::string(set.title) + " is not available yet"),
              std::string::npos)
        << *why;
  }
}

}  // namespace
}  // namespace ur::solver
