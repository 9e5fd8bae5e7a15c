// Each named rule set is evaluated with its own fitted weights, and the search uses them.
#include "agents/evaluation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "agents/expectimax.h"
#include "agents/test_positions.h"
#include "core/rule_sets.h"

namespace ur {
namespace {

double largest_difference(const EvalWeights& a, const EvalWeights& b) {
  double largest = 0.0;
  for (int i = 0; i < eval_feature::kCount; ++i) largest = std::max(largest, std::abs(a[i] - b[i]));
  return largest;
}

const EvalWeights* fitted_for(std::string_view name) {
  for (const EvalWeightSet& set : fitted_eval_weights()) {
    if (set.rule_set == name) return set.weights;
  }
  return nullptr;
}

TEST(EvalWeights, EveryNamedSetHasItsOwnFittedWeights) {
  for (const NamedRuleSet& named : named_rule_sets()) {
    const EvalWeights* fitted = fitted_for(named.name);
    ASSERT_NE(fitted, nullptr) << named.name;
    Rules rules(named.spec);
    EXPECT_EQ(&eval_weights(rules), fitted) << named.name;
    EXPECT_EQ(eval_weights_name(rules), named.name);
    // Fitted to a table: not the progress weights every fit started from.
    EXPECT_GT(largest_difference(*fitted, progress_eval_weights(rules)), 0.02) << named.name;
    // Pieces and bear-off do not change the set's weights.
    rules.pieces = 3;
    rules.bear_off = BearOff::Any;
    EXPECT_EQ(&eval_weights(rules), fitted) << named.name;
  }
}

TEST(EvalWeights, NoTwoSetsShareWeights) {
  const auto sets = fitted_eval_weights();
  for (std::size_t i = 0; i < sets.size(); ++i) {
    for (std::size_t j = i + 1; j < sets.size(); ++j) {
      EXPECT_GT(largest_difference(*sets[i].weights, *sets[j].weights), 0.02)
          << sets[i].rule_set << " and " << sets[j].rule_set;
    }
  }
}

TEST(EvalWeights, ACustomSetTakesTheNearestNamedSetOnItsPath) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.dice = 4;
  spec.zero_counts_as_max = false;
  spec.capture_gives_extra_throw = false;  // one column from blitz, two from masters
  EXPECT_EQ(eval_weights_name(Rules(spec)), "blitz");
  spec.path = PathKind::Murray;  // no named set walks it
  EXPECT_EQ(eval_weights_name(Rules(spec)), "progress");
  const Rules murray(spec);
  EXPECT_EQ(largest_difference(eval_weights(murray), progress_eval_weights(murray)), 0.0);
}

// The search, with default options, evaluates with the weights of the rules it searches.
TEST(EvalWeights, TheSearchUsesTheSetsWeights) {
  const EvalWeights& finkel = *fitted_for("finkel");
  for (const NamedRuleSet& named : named_rule_sets()) {
    const Rules rules(named.spec);
    SearchOptions plain;
    plain.depth = 2;
    SearchOptions own = plain;
    own.weights = &eval_weights(rules);
    SearchOptions other = plain;
    other.weights = named.name == "finkel" ? fitted_for("masters") : &finkel;
    ExpectimaxSearch by_default(plain), by_own(own), by_other(other);
    int differing = 0;
    for (const auto& sample : testing::random_positions(rules, 40, 5)) {
      const double value = by_default.search(rules, sample.position, sample.roll).value;
      EXPECT_EQ(value, by_own.search(rules, sample.position, sample.roll).value) << named.name;
      if (value != by_other.search(rules, sample.position, sample.roll).value) ++differing;
    }
    EXPECT_GT(differing, 20) << named.name;
  }
}

// Masters' path is 16 squares: its last squares have features, and weights, of their own.
TEST(EvalWeights, SquaresPastFourteenCount) {
  const Rules masters(find_rule_set("masters")->spec);
  Position position = starting_position(masters);
  position.start[0] -= 1;
  position.board[0] = square_bit(16);
  std::array<double, eval_feature::kCount> features{};
  eval_features(masters, position, features);
  EXPECT_EQ(features[eval_feature::kOurSquare + 15], 1.0);
  EXPECT_NE(eval_weights(masters)[eval_feature::kOurSquare + 15], 0.0);
}

// The features of `position` under Aseb's rules.
std::array<double, eval_feature::kCount> aseb_features(const Position& position) {
  const Rules aseb(find_rule_set("aseb")->spec);
  EXPECT_EQ(aseb.pieces, 5);  // kAsebScale
  EXPECT_FALSE(validate(aseb, position));
  std::array<double, eval_feature::kCount> features{};
  eval_features(aseb, position, features);
  return features;
}

// Counts are scaled by 7 / pieces; Aseb has 5.
constexpr double kAsebScale = 7.0 / 5;

// Aseb: light (to move) holds the safe rosette B4 (square 8) and stands on B5 (9); dark has
// two pieces waiting, one on B2 (6) and one on B6 (10), and one home.
TEST(EvalFeatures, ContactCountsTheEnemyPiecesStillToPass) {
  namespace f = eval_feature;
  Position position;
  position.turn = Side::Light;
  position.board = {square_bit(8) | square_bit(9), square_bit(6) | square_bit(10)};
  position.start = {3, 2};
  position.home = {0, 1};
  const auto features = aseb_features(position);
  const double scale = kAsebScale;
  // Light's rosette piece blocks dark's 2 waiting pieces and the one on 6; so is the one on 9
  // chased by the same 3.
  EXPECT_DOUBLE_EQ(features[f::kOurBlocking], 3.0 / 5 * scale);
  EXPECT_DOUBLE_EQ(features[f::kOurChased], 3.0 / 5 * scale);
  // Dark's piece on 6 has light's 3 waiting pieces behind it; the one on 10 those and both of
  // light's board pieces.
  EXPECT_DOUBLE_EQ(features[f::kTheirBlocking], 0.0);
  EXPECT_DOUBLE_EQ(features[f::kTheirChased], (3.0 + 5.0) / 5 * scale);
}

// A last piece on B12 (square 16) leaves only on an exact 1: it is stuck on a 2, 3 or 4.
TEST(EvalFeatures, StuckIsTheChanceOfAThrowWithNoMove) {
  namespace f = eval_feature;
  Position position;
  position.turn = Side::Dark;
  position.board = {square_bit(16), square_bit(1)};
  position.start = {0, 4};
  position.home = {4, 0};
  const auto features = aseb_features(position);
  const double scale = kAsebScale;
  EXPECT_DOUBLE_EQ(features[f::kOurStuck], 0.0);  // dark always has a move
  EXPECT_DOUBLE_EQ(features[f::kTheirStuck], (6.0 + 4.0 + 1.0) / 16 * scale);
}

// evaluate() skips features whose weights are zero and sums the rest itself: it must agree
// with the logistic of the weights and eval_features, in every set.
TEST(EvalFeatures, EvaluateIsTheLogisticOfTheFeatures) {
  for (const NamedRuleSet& named : named_rule_sets()) {
    const Rules rules(named.spec);
    const EvalWeights& weights = eval_weights(rules);
    std::array<double, eval_feature::kCount> features{};
    for (const auto& sample : testing::random_positions(rules, 200, 7)) {
      eval_features(rules, sample.position, features);
      double logit = 0.0;
      for (int i = 0; i < eval_feature::kCount; ++i) logit += weights[i] * features[i];
      EXPECT_NEAR(evaluate(rules, sample.position), 1.0 / (1.0 + std::exp(-logit)), 1e-12)
          << named.name;
    }
  }
}

}  // namespace
}  // namespace ur
