// Seeded random positions and games shared by the tests of several areas (test code only).
#pragma once

#include <bit>
#include <cstdint>
#include <optional>
#include <random>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/movegen.h"
#include "core/notation.h"
#include "core/rule_sets.h"

namespace ur::testing {

// A roll drawn with the real dice odds (fair binary dice; a 0 may count as the maximum).
inline Roll random_roll(std::mt19937_64& random, const Rules& rules) {
  return roll_from_marks(rules, std::popcount(random() & ((1u << rules.dice) - 1)));
}

// Any valid position, reachable or not: each piece goes to the start pile, home or a free
// route square, uniformly over the 16 places, never onto a shared square the other side holds.
inline Position random_position(std::mt19937_64& random, const Rules& rules) {
  while (true) {
    Position position;
    position.turn = random() % 2 ? Side::Dark : Side::Light;
    for (int side = 0; side < 2; ++side) {
      for (int piece = 0; piece < rules.pieces; ++piece) {
        while (true) {
          const Square place = static_cast<Square>(random() % (rules.route_length + 2));
          if (place == 0) {
            ++position.start[side];
          } else if (place == rules.home_square()) {
            ++position.home[side];
          } else {
            const SquareMask bit = square_bit(place);
            if ((own_closed(rules, position.board[side]) & bit) ||
                (opponent_in_my_numbering(rules, position.board[1 - side]) & bit)) {
              continue;
            }
            position.board[side] |= bit;
          }
          break;
        }
      }
    }
    if (!validate(rules, position)) return position;
  }
}

// The rule sets the tests sweep: every piece count with both bear-off modes.
inline std::vector<Rules> all_finkel_rule_sets() {
  std::vector<Rules> sets;
  for (int pieces = Rules::kMinPieces; pieces <= Rules::kMaxPieces; ++pieces) {
    sets.push_back(finkel_rules(pieces, BearOff::Exact));
    sets.push_back(finkel_rules(pieces, BearOff::Any));
  }
  return sets;
}

// Every named set at its own piece count and at 2 pieces, and the two custom paths that
// cross themselves (Murray's, Skiriuk's), with both bear-off modes.
inline std::vector<Rules> all_rule_sets() {
  std::vector<RuleSpec> specs;
  for (const NamedRuleSet& set : named_rule_sets()) {
    specs.push_back(set.spec);
    specs.back().pieces = 2;
    specs.push_back(set.spec);
  }
  for (PathKind path : {PathKind::Murray, PathKind::Skiriuk}) {
    RuleSpec spec = named_rule_sets()[1].spec;  // Masters' dice and flags
    spec.path = path;
    spec.pieces = 3;
    specs.push_back(spec);
  }
  std::vector<Rules> sets;
  for (RuleSpec spec : specs) {
    for (BearOff mode : {BearOff::Exact, BearOff::Any}) {
      spec.bear_off = mode;
      sets.emplace_back(spec);
    }
  }
  return sets;
}

inline Rules random_rules(std::mt19937_64& random) {
  const auto sets = all_finkel_rule_sets();
  return sets[random() % sets.size()];
}

// One seeded random game from the opening: the positions before each ply (the last one is
// the finished position), with uniformly chosen legal moves. Stops after `max_plies`.
inline std::vector<Position> random_game(std::mt19937_64& random, const Rules& rules,
                                         int max_plies = 100000) {
  std::vector<Position> positions{starting_position(rules)};
  while (!is_game_over(rules, positions.back()) &&
         static_cast<int>(positions.size()) <= max_plies) {
    const Position& position = positions.back();
    const MoveList moves = legal_moves(rules, position, random_roll(random, rules));
    positions.push_back(moves.empty()
                            ? pass_turn(position)
                            : apply_move(rules, position, moves[random() % moves.size()]));
  }
  return positions;
}

// Byte-level damage for fuzzing parsers: 1..max_edits random replacements, deletions,
// insertions (characters drawn from `alphabet`) or truncations.
inline std::string damage_text(std::string text, std::mt19937_64& random, std::string_view alphabet,
                               int max_edits = 5) {
  const int edits = 1 + static_cast<int>(random() % max_edits);
  for (int edit = 0; edit < edits && !text.empty(); ++edit) {
    const std::size_t at = random() % text.size();
    switch (random() % 4) {
      case 0:
        text[at] = alphabet[random() % alphabet.size()];
        break;
      case 1:
        text.erase(at, 1);
        break;
      case 2:
        text.insert(at, 1, alphabet[random() % alphabet.size()]);
        break;
      default:
        text.resize(at);
    }
  }
  return text;
}

// A string of up to max_length characters drawn from `alphabet`.
inline std::string random_text(std::mt19937_64& random, std::string_view alphabet, int max_length) {
  std::string text;
  for (int length = static_cast<int>(random() % (max_length + 1)); length > 0; --length) {
    text += alphabet[random() % alphabet.size()];
  }
  return text;
}

// A copy of the legal move for `roll` from `from`, or nothing when that move is illegal.
inline std::optional<Move> move_from(const Rules& rules, const Position& position, Roll roll,
                                     Square from) {
  const MoveList moves = legal_moves(rules, position, roll);
  if (const Move* move = find_move(moves, from)) return *move;
  return std::nullopt;
}

inline Position parse_or_die(std::string_view text, const Rules& rules) {
  auto parsed = parse_text(text, rules);
  if (auto* error = std::get_if<ParseError>(&parsed)) throw std::invalid_argument(error->message);
  return std::get<Position>(parsed);
}

}  // namespace ur::testing
