#include "agents/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>

#include "agents/evaluation_weights.h"

namespace ur {
namespace {

constexpr int kFeatureSquares = 14;  // route squares with their own weight

// Adds, for each of `pieces` on a capturable shared square, the index of its exposure
// feature (offset by `near` or `far`) to `visit`. `enemy_board` and `enemy_start` are the
// other side's pieces; shared squares have the same number for both sides.
template <typename Visit>
void for_each_exposed(const Rules& rules, SquareMask pieces, SquareMask enemy_board,
                      int enemy_start, int near, int far, Visit visit) {
  SquareMask exposed =
      pieces & rules.shared & ~rules.safe &
      square_range(eval_feature::kFirstSharedSquare,
                   eval_feature::kFirstSharedSquare + eval_feature::kSharedSquares - 1);
  while (exposed) {
    const Square square = std::countr_zero(exposed);
    exposed &= exposed - 1;
    const int slot = square - eval_feature::kFirstSharedSquare;
    if (enemy_board & square_range(std::max(1, square - rules.max_roll()), square - 1)) {
      visit(near + slot);
    } else if (enemy_start > 0 || (enemy_board & (square_bit(square) - 1))) {
      visit(far + slot);
    }
  }
}

// Danger of one side's pieces: each piece the other side can hit with its next throw, by
// the chance of that throw, times how far the piece has come (what a capture costs).
// `attackers` are in their own numbering. Only Finkel's path reaches here (its fit measured
// progress in squares / 12); other paths use value_at_risk below.
double danger(const Rules& rules, SquareMask pieces, SquareMask attackers) {
  double total = 0.0;
  for (SquareMask exposed = pieces & rules.shared & ~rules.safe; exposed; exposed &= exposed - 1) {
    const Square square = std::countr_zero(exposed);
    total += hit_chance(rules, attackers, square) * square / 12.0;
  }
  return total;
}

// The evaluation of any other path, in the units of Finkel's fit: a piece is worth more the
// further it has come (Finkel's fitted values, with their exposure terms, rise about
// linearly to 0.5 past the shared lane, and 0.57 home), a piece on a safe rosette earns a
// small bonus, and each piece an opposing piece can hit with the coming throw risks its value
// (whatever the opponent's numbering of the tile). The constants were chosen by matches of
// hard against greedy, 2,000 games each in Masters, Blitz and Aseb (docs/strength.md).
class PathEvaluation {
 public:
  PathEvaluation(const Rules& rules, const EvalWeights& weights) {
    namespace f = eval_feature;
    const double home = weights[f::kOurHome];
    for (Square square = 1; square <= rules.route_length; ++square) {
      value_[square] =
          kFirstSquare + (home - kFirstSquare) * kSpan * square / (rules.route_length + 1);
      if (rules.safe & square_bit(square)) value_[square] += kSafeRosette;
    }
  }
  double value(Square square) const { return value_[square]; }

  static constexpr double kFirstSquare = 0.0;
  static constexpr double kSpan = 0.9;  // the last square is worth 90% of home
  static constexpr double kSafeRosette = 0.08;
  static constexpr double kOurRisk = 1.2;    // a hit costs the piece and a tempo
  static constexpr double kTheirRisk = 1.2;  // we throw first: our chance to hit them

 private:
  std::array<double, kMaxRoute + 2> value_{};
};

// Expected value at risk: each piece of `pieces` that `attackers` can hit next throw.
double value_at_risk(const Rules& rules, const PathEvaluation& values, SquareMask pieces,
                     SquareMask attackers) {
  double total = 0.0;
  for (SquareMask exposed = pieces & rules.shared & ~rules.safe; exposed; exposed &= exposed - 1) {
    const Square square = std::countr_zero(exposed);
    total += hit_chance(rules, attackers, square) * values.value(square);
  }
  return total;
}

double evaluate_path(const Rules& rules, const Position& position, const EvalWeights& weights) {
  namespace f = eval_feature;
  // Built once per thread for the last path and weights seen: the search calls this at
  // every leaf, always with one rule set.
  struct Cached {
    PathKind path;
    BoardShape board;
    SquareMask safe;
    const EvalWeights* weights;
    PathEvaluation values;
  };
  thread_local std::optional<Cached> cache;
  if (!cache || cache->path != rules.path || cache->board != rules.board ||
      cache->safe != rules.safe || cache->weights != &weights) {
    cache.emplace(
        Cached{rules.path, rules.board, rules.safe, &weights, PathEvaluation(rules, weights)});
  }
  const PathEvaluation& values = cache->values;
  const double scale = 7.0 / rules.pieces;
  const int us = index_of(position.turn);
  const int them = 1 - us;
  double pieces =
      weights[f::kOurHome] * position.home[us] + weights[f::kTheirHome] * position.home[them];
  for (SquareMask ours = position.board[us]; ours; ours &= ours - 1) {
    pieces += values.value(std::countr_zero(ours));
  }
  for (SquareMask theirs = position.board[them]; theirs; theirs &= theirs - 1) {
    pieces -= values.value(std::countr_zero(theirs));
  }
  pieces -= PathEvaluation::kOurRisk *
            value_at_risk(rules, values, position.board[us], position.board[them]);
  pieces += PathEvaluation::kTheirRisk *
            value_at_risk(rules, values, position.board[them], position.board[us]);
  const double logit = weights[f::kBias] + scale * pieces;
  return 1.0 / (1.0 + std::exp(-logit));
}

}  // namespace

const EvalWeights& tuned_eval_weights() {
  return kTunedEvalWeights;
}

double hit_chance(const Rules& rules, SquareMask attackers, Square square) {
  if (square < 1 || square > rules.route_length) return 0.0;
  if (!(rules.shared & ~rules.safe & square_bit(square))) return 0.0;
  int weight = 0;
  for (Roll roll = 1; roll <= rules.max_roll(); ++roll) {
    // The attacker's own numbers for this tile (two where its path crosses itself).
    bool hits = false;
    for (SquareMask targets = rules.opposite[square]; targets; targets &= targets - 1) {
      const Square target = std::countr_zero(targets);
      if (roll < target && (attackers & square_bit(target - roll))) hits = true;
    }
    if (hits) weight += roll_weight(rules, roll);
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
  const auto add = [&features, scale](int index) { features[index] += scale; };
  for_each_exposed(rules, position.board[us], position.board[them], position.start[them],
                   f::kOurNear, f::kOurFar, add);
  for_each_exposed(rules, position.board[them], position.board[us], position.start[us],
                   f::kTheirNear, f::kTheirFar, add);
  features[f::kOurDanger] = danger(rules, position.board[us], position.board[them]) * scale;
  features[f::kTheirDanger] = danger(rules, position.board[them], position.board[us]) * scale;
}

double evaluate(const Rules& rules, const Position& position, const EvalWeights& weights) {
  namespace f = eval_feature;
  if (rules.path != PathKind::Finkel) return evaluate_path(rules, position, weights);
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
  const auto add = [&pieces, &weights](int index) { pieces += weights[index]; };
  for_each_exposed(rules, position.board[us], position.board[them], position.start[them],
                   f::kOurNear, f::kOurFar, add);
  for_each_exposed(rules, position.board[them], position.board[us], position.start[us],
                   f::kTheirNear, f::kTheirFar, add);
  pieces += weights[f::kOurDanger] * danger(rules, position.board[us], position.board[them]) +
            weights[f::kTheirDanger] * danger(rules, position.board[them], position.board[us]);
  const double logit = weights[f::kBias] + scale * pieces;
  return 1.0 / (1.0 + std::exp(-logit));
}

}  // namespace ur
