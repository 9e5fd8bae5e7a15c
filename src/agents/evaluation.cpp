#include "agents/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "agents/evaluation_weights.h"

namespace ur {
namespace {

constexpr int kFeatureSquares = 14;  // route squares with their own weight

struct SideView {
  SquareMask board;
  int home;
};

// Danger of one side's pieces: each piece the other side can hit with its next throw, by
// the chance of that throw, times how far the piece has come (what a capture costs).
double danger(const Rules& rules, SquareMask pieces, SquareMask attackers) {
  double total = 0.0;
  SquareMask exposed = pieces & rules.shared & ~rules.safe;
  while (exposed) {
    const Square square = std::countr_zero(exposed);
    exposed &= exposed - 1;
    total += hit_chance(rules, attackers, square) * square / 12.0;
  }
  return total;
}

}  // namespace

const EvalWeights& tuned_eval_weights() {
  return kTunedEvalWeights;
}

double hit_chance(const Rules& rules, SquareMask attackers, Square square) {
  if (!(rules.shared & ~rules.safe & square_bit(square))) return 0.0;
  int weight = 0;
  for (Roll roll = 1; roll <= rules.max_roll() && roll < square; ++roll) {
    if (attackers & square_bit(square - roll)) weight += roll_weight(rules, roll);
  }
  return static_cast<double>(weight) / roll_weight_total(rules);
}

void eval_features(const Rules& rules, const Position& position, std::span<double> features) {
  namespace f = eval_feature;
  std::fill(features.begin(), features.end(), 0.0);
  const double scale = 7.0 / rules.pieces;
  const int us = index_of(position.turn);
  const int them = 1 - us;
  features[f::kBias] = 1.0;
  for (Square square = 1; square <= std::min(rules.route_length, kFeatureSquares); ++square) {
    if (position.board[us] & square_bit(square)) features[f::kOurSquare + square - 1] = scale;
    if (position.board[them] & square_bit(square)) features[f::kTheirSquare + square - 1] = scale;
  }
  features[f::kOurHome] = position.home[us] * scale;
  features[f::kTheirHome] = position.home[them] * scale;
  features[f::kOurDanger] = danger(rules, position.board[us], position.board[them]) * scale;
  features[f::kTheirDanger] = danger(rules, position.board[them], position.board[us]) * scale;
}

double evaluate(const Rules& rules, const Position& position, const EvalWeights& weights) {
  namespace f = eval_feature;
  const double scale = 7.0 / rules.pieces;
  const int us = index_of(position.turn);
  const int them = 1 - us;
  const SquareMask weighted = square_range(1, std::min(rules.route_length, kFeatureSquares));
  double pieces =
      weights[f::kOurHome] * position.home[us] + weights[f::kTheirHome] * position.home[them];
  for (SquareMask ours = position.board[us] & weighted; ours; ours &= ours - 1) {
    pieces += weights[f::kOurSquare + std::countr_zero(ours) - 1];
  }
  for (SquareMask theirs = position.board[them] & weighted; theirs; theirs &= theirs - 1) {
    pieces += weights[f::kTheirSquare + std::countr_zero(theirs) - 1];
  }
  pieces += weights[f::kOurDanger] * danger(rules, position.board[us], position.board[them]) +
            weights[f::kTheirDanger] * danger(rules, position.board[them], position.board[us]);
  const double logit = weights[f::kBias] + scale * pieces;
  return 1.0 / (1.0 + std::exp(-logit));
}

}  // namespace ur
