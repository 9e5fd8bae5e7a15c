#include "agents/evaluation.h"

#include <algorithm>
#include <bit>
#include <cmath>

#include "agents/evaluation_weights.h"
#include "core/movegen.h"
#include "core/rule_sets.h"

namespace ur {
namespace {

constexpr std::array kFitted = {
    EvalWeightSet{"finkel", &kFinkelEvalWeights},
    EvalWeightSet{"masters", &kMastersEvalWeights},
    EvalWeightSet{"blitz", &kBlitzEvalWeights},
    EvalWeightSet{"aseb", &kAsebEvalWeights},
};

// Progress weights, for paths no named set has: a piece is worth more the further it has
// come (rising linearly to 90% of a piece home, Finkel's fitted 0.57, on the last square), a
// piece on a safe rosette earns a small bonus, and each piece the opponent can hit with the
// coming throw risks 1.2 times its value (a hit costs the piece and a tempo; the same for
// their pieces, since we throw first). These were the hand-set evaluation of every non-Finkel
// set before the sets had tables (docs/strength.md).
EvalWeights progress_weights(const Rules& rules) {
  namespace f = eval_feature;
  constexpr double kHome = 0.5697, kSpan = 0.9, kSafeRosette = 0.08, kRisk = 1.2;
  EvalWeights weights{};
  weights[f::kBias] = kFinkelEvalWeights[f::kBias];
  weights[f::kOurHome] = kHome;
  weights[f::kTheirHome] = -kHome;
  const double per_square = kHome * kSpan / (rules.route_length + 1);
  for (Square square = 1; square <= rules.route_length; ++square) {
    double value = per_square * square;
    if (rules.safe & square_bit(square)) value += kSafeRosette;
    weights[f::kOurSquare + square - 1] = value;
    weights[f::kTheirSquare + square - 1] = -value;
  }
  // The danger feature weighs P(hit) by square / 12; a piece's value is per_square * square.
  weights[f::kOurDanger] = -kRisk * per_square * 12.0;
  weights[f::kTheirDanger] = kRisk * per_square * 12.0;
  return weights;
}

// Columns other than the board, path, pieces and bear-off in which two sets differ.
int differing_columns(const RuleSpec& spec, const Rules& rules) {
  return (spec.dice != rules.dice) + (spec.zero_counts_as_max != rules.zero_counts_as_max) +
         (spec.safe_rosettes != rules.safe_rosettes) +
         (spec.rosette_gives_extra_throw != rules.rosette_gives_extra_throw) +
         (spec.capture_gives_extra_throw != rules.capture_gives_extra_throw);
}

// The index in kFitted of the weights for `rules`, or -1 for progress weights.
int fitted_index(const Rules& rules) {
  int best = -1, fewest = 0;
  const auto sets = named_rule_sets();
  for (std::size_t i = 0; i < sets.size(); ++i) {
    const RuleSpec& spec = sets[i].spec;
    if (spec.board != rules.board || spec.path != rules.path) continue;
    const int differing = differing_columns(spec, rules);
    if (best < 0 || differing < fewest) {
      best = static_cast<int>(i);
      fewest = differing;
    }
  }
  if (best < 0) return -1;
  const std::string_view name = sets[best].name;
  for (std::size_t i = 0; i < kFitted.size(); ++i) {
    if (kFitted[i].rule_set == name) return static_cast<int>(i);
  }
  return -1;
}

// Squares of the mover's numbering from which an enemy piece reaches my shared `square` (in
// its numbering, through rules.opposite), and from which it has yet to pass it.
struct Attack {
  SquareMask reach = 0;   // 1..max_roll behind: every roll 1..max_roll can be thrown
  SquareMask behind = 0;  // anywhere behind
};

Attack attack_on(const Rules& rules, Square square) {
  Attack attack;
  for (SquareMask targets = rules.opposite[square]; targets; targets &= targets - 1) {
    const Square target = std::countr_zero(targets);
    if (target > 1)
      attack.reach |= square_range(std::max(1, target - rules.max_roll()), target - 1);
    attack.behind |= square_bit(target) - 1;
  }
  return attack;
}

// Adds, for each of `pieces` on a capturable shared square, the index of its exposure
// feature (offset by `near` or `far`) to `visit`. `enemy_board` and `enemy_start` are the
// other side's pieces.
template <typename Visit>
void for_each_exposed(const Rules& rules, SquareMask pieces, SquareMask enemy_board,
                      int enemy_start, int near, int far, Visit visit) {
  for (SquareMask exposed = pieces & rules.shared & ~rules.safe; exposed; exposed &= exposed - 1) {
    const Square square = std::countr_zero(exposed);
    const Attack attack = attack_on(rules, square);
    if (enemy_board & attack.reach) {
      visit(near + square - 1);
    } else if (enemy_start > 0 || (enemy_board & attack.behind)) {
      visit(far + square - 1);
    }
  }
}

// Danger of one side's pieces: each piece the other side can hit with its next throw, by
// the chance of that throw, times how far the piece has come (squares / 12: the unit
// Finkel's fit measured progress in; a set's weights absorb its path's length).
double danger(const Rules& rules, SquareMask pieces, SquareMask attackers) {
  double total = 0.0;
  for (SquareMask exposed = pieces & rules.shared & ~rules.safe; exposed; exposed &= exposed - 1) {
    const Square square = std::countr_zero(exposed);
    total += hit_chance(rules, attackers, square) * square / 12.0;
  }
  return total;
}

// How one side's pieces meet the other's: over `pieces` on safe shared squares (`blocking`)
// and on capturable ones (`chased`), the share of the enemy's pieces yet to pass them.
struct Contact {
  double blocking = 0.0;
  double chased = 0.0;
};

Contact contact(const Rules& rules, SquareMask pieces, SquareMask enemy_board, int enemy_start) {
  Contact result;
  for (SquareMask on = pieces & rules.shared; on; on &= on - 1) {
    const Square square = std::countr_zero(on);
    const int behind = enemy_start + std::popcount(enemy_board & attack_on(rules, square).behind);
    (rules.safe & square_bit(square) ? result.blocking : result.chased) +=
        static_cast<double>(behind) / rules.pieces;
  }
  return result;
}

// The chance that `side`'s next throw, were it to move, allows no move.
double stuck_chance(const Rules& rules, Position position, Side side) {
  position.turn = side;
  int weight = 0;
  for (Roll roll = 1; roll <= rules.max_roll(); ++roll) {
    if (roll_weight(rules, roll) > 0 && count_legal_moves(rules, position, roll) == 0)
      weight += roll_weight(rules, roll);
  }
  return static_cast<double>(weight) / roll_weight_total(rules);
}

// The contact features: eval_feature::kOurBlocking to the end of the layout.
constexpr int kContactFeatures = eval_feature::kCount - eval_feature::kOurBlocking;

// The contact features of `position`, in layout order, unscaled. A stuck chance costs a move
// generation per throw, so it is computed only where `needed` (its weight, say) is nonzero.
std::array<double, kContactFeatures> contact_features(const Rules& rules, const Position& position,
                                                      std::span<const double> needed) {
  namespace f = eval_feature;
  const int us = index_of(position.turn);
  const int them = 1 - us;
  const Contact ours =
      contact(rules, position.board[us], position.board[them], position.start[them]);
  const Contact theirs =
      contact(rules, position.board[them], position.board[us], position.start[us]);
  const auto stuck = [&](int feature, Side side) {
    return needed[feature - f::kOurBlocking] != 0 ? stuck_chance(rules, position, side) : 0.0;
  };
  return {ours.blocking,
          theirs.blocking,
          stuck(f::kOurStuck, position.turn),
          stuck(f::kTheirStuck, opponent(position.turn)),
          ours.chased,
          theirs.chased};
}

}  // namespace

std::span<const EvalWeightSet> fitted_eval_weights() {
  return kFitted;
}

const EvalWeights& eval_weights(const Rules& rules) {
  const int index = fitted_index(rules);
  if (index >= 0) return *kFitted[index].weights;
  // Built once for every path, board and rosette rule (the only columns they read).
  struct Progress {
    std::array<std::array<std::array<EvalWeights, 2>, 2>, 5> weights;
    Progress() {
      for (int path = 0; path < 5; ++path) {
        for (int board = 0; board < 2; ++board) {
          for (int safe = 0; safe < 2; ++safe) {
            RuleSpec spec;
            spec.path = static_cast<PathKind>(path);
            spec.board = static_cast<BoardShape>(board);
            spec.safe_rosettes = safe == 1;
            // Unplayable combinations (a path off the board) are never asked for.
            if (!why_unplayable(spec)) weights[path][board][safe] = progress_weights(Rules(spec));
          }
        }
      }
    }
  };
  static const Progress progress;
  return progress.weights[static_cast<int>(rules.path)][static_cast<int>(rules.board)]
                         [rules.safe_rosettes ? 1 : 0];
}

EvalWeights progress_eval_weights(const Rules& rules) {
  return progress_weights(rules);
}

std::string_view eval_weights_name(const Rules& rules) {
  const int index = fitted_index(rules);
  return index >= 0 ? kFitted[index].rule_set : "progress";
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
  for (Square square = 1; square <= rules.route_length; ++square) {
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
  constexpr std::array<double, kContactFeatures> kAll{1, 1, 1, 1, 1, 1};
  const auto meeting = contact_features(rules, position, kAll);
  for (std::size_t i = 0; i < meeting.size(); ++i)
    features[f::kOurBlocking + i] = meeting[i] * scale;
}

double evaluate(const Rules& rules, const Position& position, const EvalWeights& weights) {
  namespace f = eval_feature;
  const double scale = 7.0 / rules.pieces;
  const int us = index_of(position.turn);
  const int them = 1 - us;
  double pieces =
      weights[f::kOurHome] * position.home[us] + weights[f::kTheirHome] * position.home[them];
  for (SquareMask ours = position.board[us]; ours; ours &= ours - 1) {
    pieces += weights[f::kOurSquare + std::countr_zero(ours) - 1];
  }
  for (SquareMask theirs = position.board[them]; theirs; theirs &= theirs - 1) {
    pieces += weights[f::kTheirSquare + std::countr_zero(theirs) - 1];
  }
  const auto add = [&pieces, &weights](int index) { pieces += weights[index]; };
  for_each_exposed(rules, position.board[us], position.board[them], position.start[them],
                   f::kOurNear, f::kOurFar, add);
  for_each_exposed(rules, position.board[them], position.board[us], position.start[us],
                   f::kTheirNear, f::kTheirFar, add);
  pieces += weights[f::kOurDanger] * danger(rules, position.board[us], position.board[them]) +
            weights[f::kTheirDanger] * danger(rules, position.board[them], position.board[us]);
  // The contact features are only computed where they count (zero weights in most sets).
  const auto contact_weights = std::span(weights).subspan(f::kOurBlocking, kContactFeatures);
  if (std::any_of(contact_weights.begin(), contact_weights.end(),
                  [](double w) { return w != 0; })) {
    const auto meeting = contact_features(rules, position, contact_weights);
    for (std::size_t i = 0; i < meeting.size(); ++i) pieces += contact_weights[i] * meeting[i];
  }
  const double logit = weights[f::kBias] + scale * pieces;
  return 1.0 / (1.0 + std::exp(-logit));
}

double evaluate(const Rules& rules, const Position& position) {
  return evaluate(rules, position, eval_weights(rules));
}

}  // namespace ur
