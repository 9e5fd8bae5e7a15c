// The named rule sets rule by rule, the registry, the playability check, and a reference move
// generator that works on board cells (not masks) to check move generation in every set.
#include "core/rule_sets.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

#include "core/movegen.h"
#include "core/perft.h"
#include "core/test_support.h"

namespace ur {
namespace {

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

std::vector<std::string> tiles(const Rules& rules, Side side) {
  std::vector<std::string> out;
  for (Square square = 1; square <= rules.route_length; ++square) {
    out.push_back(tile_name(square_cell(rules, side, square)));
  }
  return out;
}

// --- The registry and the columns of each named set -------------------------------------

TEST(RuleSetRegistry, NamesTheFourSetsRoyalUrPlays) {
  EXPECT_EQ(known_rule_set_names(), "finkel, masters, blitz, aseb");
  EXPECT_EQ(find_rule_set("MASTERS")->name, "masters");
  EXPECT_EQ(find_rule_set("chess"), nullptr);
  EXPECT_EQ(Rules{}, named("finkel"));
  EXPECT_EQ(rule_set_name(Rules{}), "finkel");
  EXPECT_EQ(rule_set_name(finkel_rules(3, BearOff::Any)), "finkel");
  RuleSpec four_dice_masters = find_rule_set("masters")->spec;
  four_dice_masters.dice = 4;
  four_dice_masters.zero_counts_as_max = false;
  EXPECT_EQ(rule_set_name(Rules(four_dice_masters)), "custom");
  EXPECT_EQ(rule_set_title(named("blitz")), "Blitz");
  EXPECT_EQ(rule_set_title(finkel_rules(5)), "Finkel, 5 pieces");
}

// From a review: "Custom (masters path, 4 dice)" named both Finkel on the Masters path and
// Masters with four dice and no 0-is-max, whose perft counts differ, and a capture's extra
// throw showed nowhere. A custom title now names every column that differs from the path's
// set, so different rules never share a title.
TEST(RuleSetRegistry, DifferentRulesHaveDifferentTitles) {
  RuleSpec finkel_on_masters_path = find_rule_set("finkel")->spec;
  finkel_on_masters_path.path = PathKind::Masters;
  RuleSpec four_dice_masters = find_rule_set("masters")->spec;
  four_dice_masters.dice = 4;
  four_dice_masters.zero_counts_as_max = false;
  EXPECT_EQ(rule_set_title(Rules(finkel_on_masters_path)),
            "Custom (masters path, 4 dice, 0 passes, safe rosettes), 7 pieces");
  EXPECT_EQ(rule_set_title(Rules(four_dice_masters)),
            "Custom (masters path, 4 dice, 0 passes), 7 pieces");
  RuleSpec capture_again = find_rule_set("finkel")->spec;
  capture_again.capture_gives_extra_throw = true;
  capture_again.pieces = 1;
  EXPECT_EQ(rule_set_title(Rules(capture_again)),
            "Custom (finkel path, 4 dice, captures throw again), 1 piece");
  // Every layout of a sample of columns gets a title of its own.
  std::map<std::string, RuleSpec> seen;
  for (const PathKind path : {PathKind::Finkel, PathKind::Masters, PathKind::Murray}) {
    for (int dice = 1; dice <= RuleSpec::kMaxDice; ++dice) {
      for (int flags = 0; flags < 16; ++flags) {
        RuleSpec spec;
        spec.path = path;
        spec.dice = dice;
        spec.zero_counts_as_max = flags & 1;
        spec.safe_rosettes = flags & 2;
        spec.rosette_gives_extra_throw = flags & 4;
        spec.capture_gives_extra_throw = flags & 8;
        if (why_unplayable(spec)) continue;
        const auto [where, fresh] = seen.emplace(rule_set_title(Rules(spec)), spec);
        EXPECT_TRUE(fresh || where->second == spec) << where->first;
      }
    }
  }
  EXPECT_GT(seen.size(), 200u);
}

TEST(RuleSetRegistry, EachSetHasTheColumnsOfItsTable) {
  const Rules finkel = named("finkel"), masters = named("masters"), blitz = named("blitz"),
              aseb = named("aseb");
  EXPECT_EQ(finkel.pieces, 7);
  EXPECT_EQ(masters.pieces, 7);
  EXPECT_EQ(blitz.pieces, 5);
  EXPECT_EQ(aseb.pieces, 5);
  EXPECT_EQ(finkel.route_length, 14);
  EXPECT_EQ(masters.route_length, 16);
  EXPECT_EQ(blitz.route_length, 16);
  EXPECT_EQ(aseb.route_length, 16);
  EXPECT_TRUE(finkel.safe_rosettes && aseb.safe_rosettes);
  EXPECT_FALSE(masters.safe_rosettes || blitz.safe_rosettes);
  EXPECT_TRUE(blitz.capture_gives_extra_throw);
  EXPECT_FALSE(finkel.capture_gives_extra_throw || masters.capture_gives_extra_throw ||
               aseb.capture_gives_extra_throw);
  for (const Rules& rules : {finkel, masters, blitz, aseb}) {
    EXPECT_EQ(rules.extra_throw, rules.rosettes);
    EXPECT_EQ(rules.bear_off, BearOff::Exact);
  }
}

TEST(FinkelRules, PathRosettesAndSharingAreTheClassicOnes) {
  const Rules rules;
  EXPECT_EQ(tiles(rules, Side::Light),
            (std::vector<std::string>{"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5", "B6",
                                      "B7", "B8", "A8", "A7"}));
  EXPECT_EQ(tiles(rules, Side::Dark)[0], "C4");
  EXPECT_EQ(tiles(rules, Side::Dark)[13], "C7");
  EXPECT_EQ(rules.rosettes, square_bit(4) | square_bit(8) | square_bit(14));
  EXPECT_EQ(rules.shared, square_range(5, 12));
  EXPECT_EQ(rules.safe, square_bit(8));
  EXPECT_TRUE(rules.simple_sharing());
}

// --- Masters -----------------------------------------------------------------------------

TEST(MastersRules, PathRunsThroughTheFarEndOfTheOpponentsRow) {
  const Rules rules = named("masters");
  EXPECT_EQ(tiles(rules, Side::Light),
            (std::vector<std::string>{"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5", "B6",
                                      "B7", "C7", "C8", "B8", "A8", "A7"}));
  EXPECT_EQ(count_squares(rules.shared), 12);
  EXPECT_FALSE(rules.simple_sharing());
}

TEST(MastersRules, SharedTilesCarryDifferentNumbersForTheTwoSides) {
  const Rules rules = named("masters");
  // C7 is light's 12 and dark's 16; C8 light's 13, dark's 15; B8 is 14 for both.
  EXPECT_EQ(rules.opposite[12], square_bit(16));
  EXPECT_EQ(rules.opposite[16], square_bit(12));
  EXPECT_EQ(rules.opposite[13], square_bit(15));
  EXPECT_EQ(rules.opposite[14], square_bit(14));
  for (Square square = 5; square <= 11; ++square) {
    EXPECT_EQ(rules.opposite[square], square_bit(square));
  }
  EXPECT_EQ(rules.opposite[4], 0u);  // A1 is light's alone
}

TEST(MastersRules, AZeroCountsAsFour) {
  const Rules rules = named("masters");
  EXPECT_EQ(rules.dice, 3);
  EXPECT_EQ(min_roll(rules), 1);
  EXPECT_EQ(rules.max_roll(), 4);
  EXPECT_EQ(roll_from_marks(rules, 0), 4);
  EXPECT_EQ(roll_from_marks(rules, 2), 2);
  EXPECT_FALSE(possible_roll(rules, 0));
  EXPECT_DOUBLE_EQ(roll_probability(rules, 1), 3.0 / 8);
  EXPECT_DOUBLE_EQ(roll_probability(rules, 2), 3.0 / 8);
  EXPECT_DOUBLE_EQ(roll_probability(rules, 3), 1.0 / 8);
  EXPECT_DOUBLE_EQ(roll_probability(rules, 4), 1.0 / 8);
  // A 4 enters a piece straight onto the A1 rosette.
  const auto moves = legal_moves(rules, starting_position(rules), 4);
  ASSERT_EQ(moves.size(), 1);
  EXPECT_EQ(moves[0].to, 4);
  EXPECT_TRUE(moves[0].extra_throw);
}

TEST(MastersRules, CaptureOnARosette) {
  const Rules rules = named("masters");
  // Dark stands on B4 (square 8, a rosette); light from square 6 throws 2.
  const Position position = testing::parse_or_die("L:6/6/0:6/8/0", rules);
  const auto move = testing::move_from(rules, position, 2, 6);
  ASSERT_TRUE(move.has_value());
  EXPECT_TRUE(move->capture);
  EXPECT_TRUE(move->extra_throw);
  const Position after = apply_move(rules, position, *move);
  EXPECT_EQ(after.board_of(Side::Dark), 0u);
  EXPECT_EQ(after.start_of(Side::Dark), 7);
  EXPECT_EQ(after.turn, Side::Light);
}

TEST(MastersRules, CaptureOnATileNumberedDifferently) {
  const Rules rules = named("masters");
  // Light's 12 is C7; dark reaches C7 as its 16, from its 14 (B8) with a 2.
  const Position position = testing::parse_or_die("D:6/12/0:6/14/0", rules);
  const auto move = testing::move_from(rules, position, 2, 14);
  ASSERT_TRUE(move.has_value());
  EXPECT_EQ(move->to, 16);
  EXPECT_TRUE(move->capture);
  const Position after = apply_move(rules, position, *move);
  EXPECT_EQ(after.board_of(Side::Light), 0u);
  EXPECT_EQ(after.start_of(Side::Light), 7);
  EXPECT_EQ(after.board_of(Side::Dark), square_bit(16));
}

TEST(MastersRules, TwoPiecesOnOneRenumberedTileAreImpossible) {
  const Rules rules = named("masters");
  // Light's 13 and dark's 15 are both C8.
  const auto parsed = parse_text("L:6/13/0:6/15/0", rules);
  ASSERT_TRUE(std::holds_alternative<ParseError>(parsed));
  EXPECT_NE(std::get<ParseError>(parsed).message.find("light's square 13 is dark's square 15"),
            std::string::npos)
      << std::get<ParseError>(parsed).message;
}

// --- Blitz ---------------------------------------------------------------------------------

TEST(BlitzRules, ACaptureThrowsAgain) {
  const Rules rules = named("blitz");
  const Position position = testing::parse_or_die("L:4/5/0:4/7/0", rules);
  const auto move = testing::move_from(rules, position, 2, 5);
  ASSERT_TRUE(move.has_value());
  EXPECT_TRUE(move->capture);
  EXPECT_TRUE(move->extra_throw);
  EXPECT_EQ(apply_move(rules, position, *move).turn, Side::Light);
  // Without the flag (Masters) the same capture passes the turn.
  const Rules masters = named("masters");
  const Position seven = testing::parse_or_die("L:6/5/0:6/7/0", masters);
  EXPECT_FALSE(testing::move_from(masters, seven, 2, 5)->extra_throw);
}

TEST(BlitzRules, FourDiceAndZeroPasses) {
  const Rules rules = named("blitz");
  EXPECT_EQ(min_roll(rules), 0);
  EXPECT_DOUBLE_EQ(roll_probability(rules, 0), 1.0 / 16);
  EXPECT_TRUE(legal_moves(rules, starting_position(rules), 0).empty());
}

// --- Aseb ----------------------------------------------------------------------------------

TEST(AsebRules, BoardIsFourTwelveFour) {
  const Rules rules = named("aseb");
  EXPECT_EQ(board_columns(BoardShape::Aseb), 12);
  EXPECT_EQ(board_cells(BoardShape::Aseb).size(), 20u);
  EXPECT_EQ(board_cells(BoardShape::Standard).size(), 20u);
  EXPECT_EQ(tiles(rules, Side::Light).back(), "B12");
  // Rosettes A1 (4), B4 (8), B8 (12), B12 (16).
  EXPECT_EQ(rules.rosettes, square_bit(4) | square_bit(8) | square_bit(12) | square_bit(16));
}

TEST(AsebRules, TheLongSharedLane) {
  const Rules rules = named("aseb");
  EXPECT_EQ(rules.shared, square_range(5, 16));
  EXPECT_TRUE(rules.simple_sharing());
  EXPECT_EQ(rules.safe, square_bit(8) | square_bit(12) | square_bit(16));
  // A capture deep in the lane (B11, square 15).
  const Position position = testing::parse_or_die("L:4/13/0:4/15/0", rules);
  EXPECT_TRUE(testing::move_from(rules, position, 2, 13)->capture);
  // The last square B12 is a safe rosette: a dark piece there cannot be hit.
  const Position on_rosette = testing::parse_or_die("L:4/13/0:4/16/0", rules);
  EXPECT_FALSE(testing::move_from(rules, on_rosette, 3, 13).has_value());
  // From B12 a 1 bears off.
  const Position last = testing::parse_or_die("L:4/16/0:5/-/0", rules);
  EXPECT_EQ(testing::move_from(rules, last, 1, 16)->to, 17);
}

// --- Custom rules -------------------------------------------------------------------------

TEST(CustomRules, MurrayAndSkiriukPathsCrossThemselves) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = PathKind::Murray;
  const Rules murray(spec);
  EXPECT_EQ(murray.route_length, 27);
  EXPECT_EQ(tiles(murray, Side::Light)[16], "B7");  // square 17 revisits B7 (square 11)
  EXPECT_EQ(murray.same_cell[11], square_bit(17));
  EXPECT_EQ(tiles(murray, Side::Light)[26], "C4");
  spec.path = PathKind::Skiriuk;
  const Rules skiriuk(spec);
  EXPECT_EQ(skiriuk.route_length, 23);
  EXPECT_EQ(tiles(skiriuk, Side::Light).back(), "B1");
  // An own piece on B7 (square 11) closes square 17, the same tile.
  const Position position = testing::parse_or_die("L:5/11,13/0:7/-/0", skiriuk);
  EXPECT_FALSE(testing::move_from(skiriuk, position, 4, 13).has_value());
  EXPECT_TRUE(std::holds_alternative<ParseError>(parse_text("L:5/11,17/0:7/-/0", skiriuk)));
}

// Murray's path is 27 squares long on a board of 20 tiles: the prose counts shared tiles,
// not squares, where a path crosses itself.
TEST(CustomRules, TheProseCountsTheTilesACrossingPathShares) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = PathKind::Murray;
  const std::vector<std::string> murray = rules_prose(Rules(spec));
  EXPECT_EQ(murray[2],
            "Each path is 27 squares long: light enters at A4 and leaves after C4; dark mirrors "
            "it on the other side. All 20 tiles are shared, where pieces can capture each "
            "other; each path crosses 7 of them twice.");
  spec.path = PathKind::Skiriuk;
  EXPECT_NE(rules_prose(Rules(spec))[2].find("side. 12 of the 20 tiles are shared"),
            std::string::npos);
  // The web page names the sides Shell and Bitumen, as everywhere on it.
  EXPECT_NE(rules_prose(finkel_rules(), "Shell", "Bitumen")[2].find(
                "long: Shell enters at A4 and leaves after A7; Bitumen mirrors it"),
            std::string::npos);
  EXPECT_NE(rules_prose(finkel_rules())[2].find(" 8 squares are shared"), std::string::npos);
}

TEST(CustomRules, UnplayableSetsSayWhy) {
  RuleSpec spec;
  spec.path = PathKind::Aseb;
  EXPECT_EQ(why_unplayable(spec), "the aseb path leaves the standard board at B9");
  spec = RuleSpec{};
  spec.board = BoardShape::Aseb;
  EXPECT_EQ(why_unplayable(spec), "the finkel path leaves the aseb board at A8");
  spec = RuleSpec{};
  spec.pieces = 8;
  EXPECT_EQ(why_unplayable(spec), "pieces must be 1 to 7, got 8");
  spec = RuleSpec{};
  spec.dice = 0;
  EXPECT_NE(why_unplayable(spec)->find("dice must be 1 to 6"), std::string::npos);
  for (const NamedRuleSet& set : named_rule_sets()) EXPECT_FALSE(why_unplayable(set.spec));
}

TEST(CustomRules, ColumnNamesReadBack) {
  for (PathKind path :
       {PathKind::Finkel, PathKind::Masters, PathKind::Aseb, PathKind::Murray, PathKind::Skiriuk}) {
    EXPECT_EQ(path_from_name(path_name(path)), path);
  }
  EXPECT_EQ(path_from_name("Bell"), PathKind::Finkel);
  EXPECT_EQ(board_from_name("ASEB"), BoardShape::Aseb);
  EXPECT_FALSE(board_from_name("hex").has_value());
}

// --- A reference move generator over cells ---------------------------------------------------

// Moves worked out tile by tile, from the rule book's sentences rather than masks.
std::vector<Move> reference_moves(const Rules& rules, const Position& position, Roll roll) {
  std::vector<Move> moves;
  if (roll <= 0) return moves;
  const Side us = position.turn, them = opponent(us);
  auto pieces_on = [&](Side side) {
    std::vector<Cell> cells;
    for (Square s = 1; s <= rules.route_length; ++s) {
      if (position.board_of(side) & square_bit(s)) cells.push_back(square_cell(rules, side, s));
    }
    return cells;
  };
  const auto ours = pieces_on(us), theirs = pieces_on(them);
  for (Square from = 0; from <= rules.route_length; ++from) {
    if (from == 0 ? position.start_of(us) == 0 : !(position.board_of(us) & square_bit(from))) {
      continue;
    }
    const Square to = from + roll;
    Move move;
    move.from = static_cast<std::uint8_t>(from);
    if (to > rules.home_square() && rules.bear_off == BearOff::Exact) continue;
    if (to >= rules.home_square()) {
      move.to = static_cast<std::uint8_t>(rules.home_square());
      moves.push_back(move);
      continue;
    }
    const Cell cell = square_cell(rules, us, to);
    if (std::count(ours.begin(), ours.end(), cell)) continue;
    const bool hit = std::count(theirs.begin(), theirs.end(), cell) > 0;
    const bool rosette = is_rosette(rules.board, cell);
    if (hit && rosette && rules.safe_rosettes) continue;
    move.to = static_cast<std::uint8_t>(to);
    move.capture = hit;
    move.extra_throw =
        (rosette && rules.rosette_gives_extra_throw) || (hit && rules.capture_gives_extra_throw);
    moves.push_back(move);
  }
  return moves;
}

std::uint64_t reference_perft(const Rules& rules, const Position& position, int depth) {
  if (depth == 0 || is_game_over(rules, position)) return 1;
  std::uint64_t nodes = 0;
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    if (!possible_roll(rules, roll)) continue;
    const auto moves = reference_moves(rules, position, roll);
    if (moves.empty()) nodes += reference_perft(rules, pass_turn(position), depth - 1);
    for (const Move& move : moves) {
      nodes += reference_perft(rules, apply_move(rules, position, move), depth - 1);
    }
  }
  return nodes;
}

TEST(ReferenceMoves, AgreeWithMoveGenerationInEverySetOverSeededGames) {
  std::mt19937_64 random(15);
  for (const Rules& rules : testing::all_rule_sets()) {
    for (int game = 0; game < 40; ++game) {
      for (const Position& position : testing::random_game(random, rules)) {
        for (Roll roll = min_roll(rules); roll <= rules.max_roll(); ++roll) {
          const MoveList moves = legal_moves(rules, position, roll);
          const std::vector<Move> got(moves.begin(), moves.end());
          ASSERT_EQ(got, reference_moves(rules, position, roll))
              << rule_set_title(rules) << " " << to_text(position) << " roll " << roll;
        }
      }
    }
  }
}

TEST(ReferenceMoves, AgreeOnRandomPositionsInEverySet) {
  std::mt19937_64 random(16);
  for (const Rules& rules : testing::all_rule_sets()) {
    for (int i = 0; i < 3000; ++i) {
      const Position position = testing::random_position(random, rules);
      if (is_game_over(rules, position)) continue;
      const Roll roll = testing::random_roll(random, rules);
      const MoveList moves = legal_moves(rules, position, roll);
      ASSERT_EQ(std::vector<Move>(moves.begin(), moves.end()),
                reference_moves(rules, position, roll))
          << rule_set_title(rules) << " " << to_text(position) << " roll " << roll;
      for (const Move& move : moves) {
        ASSERT_FALSE(validate(rules, apply_move(rules, position, move)).has_value());
      }
    }
  }
}

// --- Perft signatures ----------------------------------------------------------------------

struct PerftCase {
  std::string_view set;
  int depth;
  std::uint64_t nodes;
};

class NamedSetPerft : public ::testing::TestWithParam<PerftCase> {};

TEST_P(NamedSetPerft, MatchesThePinnedCountAndTheReference) {
  const PerftCase& c = GetParam();
  const Rules rules = named(c.set);
  EXPECT_EQ(perft(rules, starting_position(rules), c.depth), c.nodes);
  if (c.depth <= 6) {
    EXPECT_EQ(reference_perft(rules, starting_position(rules), c.depth), c.nodes);
  }
}

INSTANTIATE_TEST_SUITE_P(
    EverySet, NamedSetPerft,
    ::testing::Values(PerftCase{"finkel", 6, 112552}, PerftCase{"finkel", 8, 10591874},
                      PerftCase{"masters", 6, 54979}, PerftCase{"masters", 8, 4533575},
                      PerftCase{"blitz", 6, 114900}, PerftCase{"blitz", 8, 11074457},
                      PerftCase{"aseb", 6, 113020}, PerftCase{"aseb", 8, 10680005}),
    [](const auto& test) {
      return std::string(test.param.set) + "Depth" + std::to_string(test.param.depth);
    });

}  // namespace
}  // namespace ur
