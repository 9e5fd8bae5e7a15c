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

TEST(PositionIndex, IndexesEveryNamedSetAndRefusesSelfCrossingPaths) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    EXPECT_EQ(unsupported_rules(Rules(set.spec)), std::nullopt) << set.name;
  }
  for (const PathKind path : {PathKind::Murray, PathKind::Skiriuk}) {
    RuleSpec spec;
    spec.path = path;
    const auto why = unsupported_rules(Rules(spec));
    ASSERT_TRUE(why.has_value());
    EXPECT_NE(why->find("its path crosses itself (the " + std::string(path_name(path)) + " path)"),
              std::string::npos)
        << *why;
  }
}

// The route split each named set's index uses: Finkel 4 + 2 private squares around 8 shared,
// Masters, Blitz and Aseb 4 private squares before 12 shared.
TEST(PositionIndex, SplitsEachRouteIntoPrivateAndSharedSquares) {
  const PositionIndex finkel(finkel_rules(1));
  EXPECT_EQ(finkel.low_squares(), 4);
  EXPECT_EQ(finkel.shared_squares(), 8);
  EXPECT_EQ(finkel.end_squares(), 2);
  for (std::string_view name : {"masters", "blitz", "aseb"}) {
    const PositionIndex index(named_rules(name, 1));
    EXPECT_EQ(index.low_squares(), 4) << name;
    EXPECT_EQ(index.shared_first(), 5) << name;
    EXPECT_EQ(index.shared_squares(), 12) << name;
    EXPECT_EQ(index.end_squares(), 0) << name;
  }
}

// The closed formula counts what the index enumerates, for every set and piece count built
// quickly, and gives the published sizes of the full sets.
TEST(PositionIndex, SizeOfEverySetMatchesTheClosedFormula) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    const int most = set.name == "finkel" ? 6 : 4;
    for (int pieces = 1; pieces <= most; ++pieces) {
      const Rules rules = named_rules(set.name, pieces);
      const PositionIndex index(rules);
      EXPECT_EQ(index.size(), count_positions(rules, false)) << set.name << " " << pieces;
      // Layer by layer too (the solve's memory estimate sizes its largest layer pair so).
      for (int home_mine = 0; home_mine < pieces; ++home_mine) {
        for (int home_theirs = 0; home_theirs <= pieces; ++home_theirs) {
          const auto [first, last] = index.layer_blocks(home_mine, home_theirs);
          std::uint64_t states = 0;
          for (std::size_t b = first; b < last; ++b) states += index.blocks()[b].size();
          EXPECT_EQ(states, count_layer_positions(rules, home_mine, home_theirs))
              << set.name << " " << pieces << " " << home_mine << " " << home_theirs;
        }
      }
    }
  }
  EXPECT_EQ(count_positions(named_rules("blitz", 5), true),
            count_positions(named_rules("aseb", 5), true));
  EXPECT_EQ(count_positions(named_rules("blitz", 5), true), 41'264'288u);
  EXPECT_EQ(count_positions(named_rules("masters", 7), true), 501'032'952u);
}

// Masters renumbers four shared squares (dark's 12 is light's 16): every position ranks the
// same from either side's view.
TEST(PositionIndex, EveryIndexRoundTripsInEveryNamedSet) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    for (int pieces = 1; pieces <= 2; ++pieces) {
      const Rules rules = named_rules(set.name, pieces);
      const PositionIndex index(rules);
      for (std::uint64_t i = 0; i < index.size(); ++i) {
        const Position position = index.unrank(i);
        ASSERT_EQ(validate(rules, position), std::nullopt) << set.name << " " << to_text(position);
        ASSERT_EQ(index.rank(position), i) << set.name << " " << to_text(position);
        ASSERT_EQ(index.rank(mirror(position)), i) << set.name << " " << to_text(position);
      }
    }
  }
}

TEST(PositionIndex, PlayedPositionsRankFromTheMoversViewInEveryNamedSet) {
  for (const NamedRuleSet& set : named_rule_sets()) {
    const Rules rules = named_rules(set.name, 3);
    const PositionIndex index(rules);
    std::mt19937_64 random(13);
    Position position = starting_position(rules);
    for (int ply = 0; ply < 20000; ++ply) {
      if (is_game_over(rules, position)) position = starting_position(rules, Side::Dark);
      const std::uint64_t i = index.rank(position);
      ASSERT_LT(i, index.size());
      ASSERT_EQ(index.rank(mirror(position)), i);
      ASSERT_EQ(index.unrank(i), position.turn == Side::Light ? position : mirror(position))
          << set.name << " " << to_text(position);
      Roll roll = 0;
      for (int die = 0; die < rules.dice; ++die) roll += static_cast<int>(random() & 1);
      roll = roll_from_marks(rules, roll);
      const MoveList moves = legal_moves(rules, position, roll);
      position = moves.empty() ? pass_turn(position)
                               : apply_move(rules, position, moves[random() % moves.size()]);
    }
  }
}

}  // namespace
}  // namespace ur::solver
