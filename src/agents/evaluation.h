// Static evaluation: an estimate, without search, of the chance that the side to move wins.
// It is one logistic model over a few features of the position; each named rule set has its
// own weights for it, fitted to that set's solved table (docs/strength.md says how, and how
// well they play).
#pragma once

#include <array>
#include <span>
#include <string_view>

#include "core/position.h"

namespace ur {

// Feature layout, all counted from the side to move ("us") against the other ("them"), each
// side's squares in its own route numbering (1..route_length, at most kSquares). Piece counts
// are scaled by 7 / rules.pieces so that one set of weights serves every piece count. A piece
// on a capturable shared square also counts in one of two exposure groups: "near" when an
// enemy piece can hit it with the next throw, "far" when the only enemies behind it (in their
// numbering of its tile) are further back or still waiting to enter. The last six weigh how
// the sides meet: "blocking" and "chased" sum, over a side's pieces on safe and on capturable
// shared squares, the share of enemy pieces still to pass them (waiting or behind); "stuck" is
// the chance that a side's next throw (were it that side's turn) has no legal move.
namespace eval_feature {
inline constexpr int kSquares = kMaxRoute;                  // route squares with a weight
inline constexpr int kBias = 0;                             // constant 1: having the throw
inline constexpr int kOurSquare = 1;                        // +k-1: our pieces on square k
inline constexpr int kOurHome = kOurSquare + kSquares;      // our pieces home
inline constexpr int kTheirSquare = kOurHome + 1;           // +k-1: their pieces on square k
inline constexpr int kTheirHome = kTheirSquare + kSquares;  // their pieces home
inline constexpr int kOurNear = kTheirHome + 1;             // +k-1: our piece on k, near enemy
inline constexpr int kOurFar = kOurNear + kSquares;         // +k-1: enemy only far behind
inline constexpr int kTheirNear = kOurFar + kSquares;       // +k-1: the same for their pieces
inline constexpr int kTheirFar = kTheirNear + kSquares;     // +k-1
inline constexpr int kOurDanger = kTheirFar + kSquares;     // sum over our hittable pieces of
                                                            // P(hit) * k / 12
inline constexpr int kTheirDanger = kOurDanger + 1;         // the same for theirs (we throw first)
inline constexpr int kOurBlocking = kTheirDanger + 1;       // our pieces on safe shared squares
inline constexpr int kTheirBlocking = kOurBlocking + 1;
inline constexpr int kOurStuck = kTheirBlocking + 1;  // P(our next throw cannot move)
inline constexpr int kTheirStuck = kOurStuck + 1;
inline constexpr int kOurChased = kTheirStuck + 1;  // our capturable shared pieces
inline constexpr int kTheirChased = kOurChased + 1;
inline constexpr int kCount = kTheirChased + 1;
}  // namespace eval_feature

using EvalWeights = std::array<double, eval_feature::kCount>;

// Where a set's weights come from.
struct EvalWeightSet {
  std::string_view rule_set;  // "finkel", ...: the named set they serve
  const EvalWeights* weights;
};

// The weights fitted for each named rule set (finkel, masters, blitz, aseb).
std::span<const EvalWeightSet> fitted_eval_weights();

// The weights `rules` is evaluated with: its named set's (pieces and bear-off may differ);
// for a custom set, those of the named set with the same board and path that differs in the
// fewest other columns; for a path no named set has (Murray, Skiriuk), progress weights
// (a piece's value rises with its progress, see evaluation.cpp). The reference is stable.
const EvalWeights& eval_weights(const Rules& rules);
// The named set whose weights eval_weights(rules) gives, or "progress".
std::string_view eval_weights_name(const Rules& rules);
// The progress weights for the path, board and rosette rule of `rules` (the starting point
// each named set's fit began from).
EvalWeights progress_eval_weights(const Rules& rules);

// Writes the features of `position` into `features`, which has eval_feature::kCount entries.
void eval_features(const Rules& rules, const Position& position, std::span<double> features);

// Chance in (0, 1) that the side to move wins, by the logistic model with `weights`.
// Precondition: the game is not over.
double evaluate(const Rules& rules, const Position& position, const EvalWeights& weights);
// The same with eval_weights(rules).
double evaluate(const Rules& rules, const Position& position);

// The probability that an opponent piece behind my `square` can land on its tile with the
// coming throw; `attackers` are the opponent's board squares in its own numbering (mapped
// through rules.opposite, so Masters' renumbered tiles count). Zero for safe or private
// squares. Pieces still in the start pile are not counted.
double hit_chance(const Rules& rules, SquareMask attackers, Square square);

}  // namespace ur
