// RapidCheck properties over random games under every rule set (Finkel with 1-7 pieces, every
// named set, Murray's and Skiriuk's paths; both bear-off modes). RapidCheck draws the rule set,
// every throw and every move choice, so a failing game shrinks to a short one and the report shows
// the choices that replay it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <bit>

#include "core/test_support.h"

namespace ur {
namespace {

// A rule set and the positions of one game under it (the last one finished, unless the game
// ran past the ply limit).
struct RandomGame {
  Rules rules;
  std::vector<Position> positions;
};

// A value in [min, max) drawn from the whole range whatever RapidCheck's current size (at
// small sizes inRange stays near min: every throw would be 0 and no game would end).
template <typename T>
T draw(T min, T max) {
  return *rc::gen::resize(100, rc::gen::inRange(min, max));
}

RandomGame draw_game() {
  auto sets = testing::all_finkel_rule_sets();
  for (const Rules& rules : testing::all_rule_sets()) sets.push_back(rules);
  const Rules rules = sets[draw<std::size_t>(0, sets.size())];
  std::vector<Position> positions{starting_position(rules)};
  constexpr std::size_t kMaxPlies = 100000;
  while (!is_game_over(rules, positions.back()) && positions.size() <= kMaxPlies) {
    const Position& position = positions.back();
    // One fair coin per die: the marked ones are the throw.
    const auto coins = draw(0u, 1u << rules.dice);
    const MoveList moves =
        legal_moves(rules, position, roll_from_marks(rules, std::popcount(coins)));
    positions.push_back(moves.empty() ? pass_turn(position)
                                      : apply_move(rules, position, moves[draw(0, moves.size())]));
  }
  return {rules, std::move(positions)};
}

RC_GTEST_PROP(GameProperties, EveryRandomGameEnds, ()) {
  const auto [rules, positions] = draw_game();
  RC_ASSERT(is_game_over(rules, positions.back()));
  RC_ASSERT(winner(rules, positions.back()).has_value());
}

RC_GTEST_PROP(GameProperties, PiecesAreConservedAndNeverShareASquare, ()) {
  const auto [rules, positions] = draw_game();
  for (const Position& position : positions) {
    // validate checks start + home + board == pieces for both sides and no shared square
    // held by both; a mask holds each square at most once by construction.
    const auto error = validate(rules, position);
    RC_ASSERT(!error.has_value());
  }
}

RC_GTEST_PROP(GameProperties, SafeRosettesAreNeverCapturedWhereTheSetHasThem, ()) {
  const auto [rules, positions] = draw_game();
  for (const Position& position : positions) {
    const int them = 1 - index_of(position.turn);
    for (Roll roll = 1; roll <= rules.max_roll(); ++roll) {
      for (const Move& move : legal_moves(rules, position, roll)) {
        const bool rosette =
            move.to < rules.home_square() && (rules.rosettes & square_bit(move.to));
        if (rules.safe_rosettes) RC_ASSERT(!(rosette && move.capture));
        const Position after = apply_move(rules, position, move);
        // A capture removes exactly one opposing piece, which goes back to the start pile.
        RC_ASSERT(count_squares(after.board[them]) ==
                  count_squares(position.board[them]) - (move.capture ? 1 : 0));
        RC_ASSERT(after.start[them] == position.start[them] + (move.capture ? 1 : 0));
      }
    }
  }
}

RC_GTEST_PROP(GameProperties, MovesOfTheMirrorAreTheMirroredMoves, ()) {
  const auto [rules, positions] = draw_game();
  for (const Position& position : positions) {
    const Position mirrored = mirror(position);
    RC_ASSERT(mirror(mirrored) == position);
    RC_ASSERT(!validate(rules, mirrored).has_value());
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      // Moves are in the mover's own numbering, so mirroring leaves them unchanged.
      const MoveList moves = legal_moves(rules, position, roll);
      const MoveList mirrored_moves = legal_moves(rules, mirrored, roll);
      RC_ASSERT(moves.size() == mirrored_moves.size());
      for (int i = 0; i < moves.size(); ++i) {
        RC_ASSERT(moves[i] == mirrored_moves[i]);
        RC_ASSERT(apply_move(rules, mirrored, moves[i]) ==
                  mirror(apply_move(rules, position, moves[i])));
      }
    }
  }
}

RC_GTEST_PROP(GameProperties, MoveCountsAgreeWithTheMoveLists, ()) {
  const auto [rules, positions] = draw_game();
  for (const Position& position : positions) {
    for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
      const MoveList moves = legal_moves(rules, position, roll);
      RC_ASSERT(count_legal_moves(rules, position, roll) == moves.size());
      for (int i = 1; i < moves.size(); ++i) RC_ASSERT(moves[i - 1].from < moves[i].from);
    }
  }
}

}  // namespace
}  // namespace ur
