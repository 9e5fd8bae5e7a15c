// Why a move is illegal, under every rule set: the sentences name tiles as the board does
// and speak of safe rosettes only where the set has them.
#include "core/explain.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"
#include "core/test_support.h"

namespace ur {
namespace {

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

Rules with_path(PathKind path, bool safe) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = path;
  spec.safe_rosettes = safe;
  return Rules(spec);
}

TEST(Explain, AsebRosetteB8IsSafe) {
  const Rules aseb = named("aseb");
  const Position position = testing::parse_or_die("L:4/10/0:4/12/0", aseb);
  EXPECT_EQ(why_illegal(aseb, position, 2, 10), IllegalReason::OpponentOnSafe);
  EXPECT_EQ(describe(IllegalReason::OpponentOnSafe, aseb, 2, 10),
            "Square 12 is a rosette: the opponent's piece there is safe.");
}

TEST(Explain, MastersHasNoSafeRosettes) {
  const Rules masters = named("masters");
  const Position position = testing::parse_or_die("L:6/4/0:6/8/0", masters);
  EXPECT_EQ(why_illegal(masters, position, 4, 4), IllegalReason::None);
}

// On the Masters path light's C7 (12) is dark's 16: the opponent counts in the mover's
// numbering, and the sentence names the square in the mover's numbering, as the board does.
TEST(Explain, RenumberedSafeRosetteNamesTheMoversSquare) {
  const Rules rules = with_path(PathKind::Masters, true);
  const Position light = testing::parse_or_die("L:6/11/0:6/16/0", rules);
  EXPECT_EQ(why_illegal(rules, light, 1, 11), IllegalReason::OpponentOnSafe);
  EXPECT_EQ(describe(IllegalReason::OpponentOnSafe, rules, 1, 11),
            "Square 12 is a rosette: the opponent's piece there is safe.");
  const Position dark = testing::parse_or_die("D:6/16/0:6/11/0", rules);
  EXPECT_EQ(why_illegal(rules, dark, 1, 11), IllegalReason::OpponentOnSafe);
  EXPECT_EQ(describe(IllegalReason::OpponentOnSafe, rules, 1, 11),
            "Square 12 is a rosette: the opponent's piece there is safe.");
}

// Murray's path crosses B7 twice (squares 11 and 17): a piece on one closes the other.
TEST(Explain, APathThatCrossesItselfClosesBothSquaresOfATile) {
  const Rules murray = with_path(PathKind::Murray, false);
  const Position position = testing::parse_or_die("L:5/11,13/0:7/-/0", murray);
  EXPECT_EQ(why_illegal(murray, position, 4, 13), IllegalReason::OwnPieceOnTarget);
  EXPECT_EQ(describe(IllegalReason::OwnPieceOnTarget, murray, 4, 13),
            "Square 17 shares its tile with your square 11, where one of your pieces stands.");
}

// With six dice a piece on B7 (square 11) that throws 6 would end on B7 again (square 17). It
// was told "one of your pieces stands there", which is itself.
TEST(Explain, AMoveBackOntoItsOwnTileSaysSo) {
  for (const PathKind path : {PathKind::Murray, PathKind::Skiriuk}) {
    RuleSpec spec = find_rule_set("masters")->spec;
    spec.path = path;
    spec.dice = 6;
    const Rules rules(spec);
    const Position position = testing::parse_or_die("L:0/11/6:7/-/0", rules);
    EXPECT_EQ(why_illegal(rules, position, 6, 11), IllegalReason::OwnPieceOnTarget);
    EXPECT_EQ(describe(IllegalReason::OwnPieceOnTarget, rules, 6, 11),
              "Square 17 shares its tile with square 11, where this piece stands: a piece "
              "cannot end its move on the tile it left.");
    EXPECT_EQ(why_pass(rules, position, 6),
              "No piece can move 6 squares: 11 → 17 would end on the tile it starts from.");
  }
}

TEST(Explain, ImpossibleRollsSaySo) {
  const Rules masters = named("masters");
  const Position position = starting_position(masters);
  EXPECT_EQ(why_illegal(masters, position, 0, 0), IllegalReason::NoRoll);
  EXPECT_EQ(describe(IllegalReason::NoRoll, masters, 5, 0),
            "A throw of 5 is impossible: these dice move 1 to 4.");
}

}  // namespace
}  // namespace ur
