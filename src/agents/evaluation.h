// Static evaluation: an estimate, without search, of the chance that the side to move wins.
// It is a logistic model over a few features of the position; the weights were fitted to
// self-play outcomes (docs/strength.md says how, and how well they predict).
#pragma once

#include <array>
#include <span>

#include "core/position.h"

namespace ur {

// Feature layout, all counted from the side to move ("us") against the other ("them").
// Piece counts are scaled by 7 / rules.pieces so that one set of weights serves every
// piece count. A piece on a capturable shared square (5..12 but the safe 8) also counts
// in one of two exposure groups: "near" when an enemy piece stands 1..4 squares behind it
// (it can be hit by the next throw), "far" when the only enemies behind it are further back
// or still waiting to enter.
namespace eval_feature {
inline constexpr int kBias = 0;          // constant 1: the value of having the throw
inline constexpr int kOurSquare = 1;     // +k-1: our pieces on route square k (1..14)
inline constexpr int kOurHome = 15;      // our pieces home
inline constexpr int kTheirSquare = 16;  // +k-1: their pieces on route square k (1..14)
inline constexpr int kTheirHome = 30;    // their pieces home
inline constexpr int kOurNear = 31;      // +k-5: our piece on shared square k, near enemy
inline constexpr int kOurFar = 39;       // +k-5: our piece on k, enemy only far behind
inline constexpr int kTheirNear = 47;    // +k-5: the same for their pieces
inline constexpr int kTheirFar = 55;     // +k-5
inline constexpr int kOurDanger = 63;    // sum over our hittable pieces of P(hit) * k / 12
inline constexpr int kTheirDanger = 64;  // the same for their pieces (we throw first)
inline constexpr int kCount = 65;
inline constexpr int kFirstSharedSquare = 5;
inline constexpr int kSharedSquares = 8;
}  // namespace eval_feature

using EvalWeights = std::array<double, eval_feature::kCount>;

// The fitted weights used by every search agent.
const EvalWeights& tuned_eval_weights();

// Writes the features of `position` (Finkel's path: route squares 1..14) into `features`,
// which has eval_feature::kCount entries. The tuner fits Finkel's path only.
void eval_features(const Rules& rules, const Position& position, std::span<double> features);

// Chance in (0, 1) that the side to move wins, by the logistic model with `weights`. On
// Finkel's path the features above; on any other path the same weights read by progress
// along the path (see evaluation.cpp). Precondition: the game is not over.
double evaluate(const Rules& rules, const Position& position,
                const EvalWeights& weights = tuned_eval_weights());

// The probability that an opponent piece behind my `square` can land on its tile with the
// coming throw; `attackers` are the opponent's board squares in its own numbering (mapped
// through rules.opposite, so Masters' renumbered tiles count). Zero for safe or private
// squares. Pieces still in the start pile are not counted.
double hit_chance(const Rules& rules, SquareMask attackers, Square square);

}  // namespace ur
