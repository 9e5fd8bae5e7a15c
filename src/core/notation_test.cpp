// The text notation: documented examples, round trips, each error, and fuzzing parse_text.
#include "core/notation.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"
#include "core/test_support.h"

namespace ur {
namespace {

const Rules kFinkel = finkel_rules();

std::string parse_error(std::string_view text, const Rules& rules = kFinkel) {
  auto parsed = parse_text(text, rules);
  if (auto* error = std::get_if<ParseError>(&parsed)) return error->message;
  return "";
}

TEST(TextNotation, DocumentedExample) {
  const Position position = testing::parse_or_die("L:3/2,5,9/1:5/7,14/0", kFinkel);
  EXPECT_EQ(position.turn, Side::Light);
  EXPECT_EQ(position.start_of(Side::Light), 3);
  EXPECT_EQ(position.home_of(Side::Light), 1);
  EXPECT_EQ(position.board_of(Side::Light), square_bit(2) | square_bit(5) | square_bit(9));
  EXPECT_EQ(position.start_of(Side::Dark), 5);
  EXPECT_EQ(position.board_of(Side::Dark), square_bit(7) | square_bit(14));
  EXPECT_EQ(to_text(position), "L:3/2,5,9/1:5/7,14/0");
  EXPECT_EQ(to_text(starting_position(kFinkel)), "L:7/-/0:7/-/0");
}

TEST(TextNotation, RoundTripsRandomPositionsUnderEveryRuleSet) {
  std::mt19937_64 random(3);
  for (const Rules& rules : testing::all_finkel_rule_sets()) {
    for (int i = 0; i < 500; ++i) {
      const Position position = testing::random_position(random, rules);
      const std::string text = to_text(position);
      auto parsed = parse_text(text, rules);
      ASSERT_TRUE(std::holds_alternative<Position>(parsed)) << text;
      EXPECT_EQ(std::get<Position>(parsed), position) << text;
    }
  }
}

TEST(TextNotation, AcceptsLowerCaseTurnAndSurroundingSpace) {
  EXPECT_EQ(testing::parse_or_die("  d:7/-/0:7/-/0\n", kFinkel),
            starting_position(kFinkel, Side::Dark));
}

TEST(TextNotation, SaysWhatIsWrong) {
  const std::pair<const char*, const char*> cases[] = {
      {"", "position text must be TURN:LIGHT:DARK"},
      {"L:7/-/0", "position text must be TURN:LIGHT:DARK"},
      {"W:7/-/0:7/-/0", "turn 'W' must be L or D"},
      {"L:7/-:7/-/0", "light field '7/-' must be START/SQUARES/HOME"},
      {"L:x/-/0:7/-/0", "light start count 'x' must be a number 0..7"},
      {"L:-1/-/0:7/-/0", "light start count '-1' must be a number 0..7"},
      {"L:7/-/0:7/-/+0", "dark home count '+0' must be a number 0..7"},
      {"L:6/15/0:7/-/0", "light square '15' must be a route square 1..14"},
      {"L:6/0/0:7/-/0", "light square '0' must be a route square 1..14"},
      {"L:5/5,2/0:7/-/0", "light squares must be listed in increasing order without repeats"},
      {"L:5/5,5/0:7/-/0", "increasing order without repeats"},
      {"L:6/,/0:7/-/0", "light square '' must be a route square"},
      {"L:7/1/0:7/-/0", "light has 8 pieces (start 7 + home 0 + board 1), expected 7"},
      {"L:6/6/0:6/6/0", "light and dark both stand on shared square 6"},
      {"L:0/-/7:0/-/7", "both sides have all pieces home"},
  };
  for (const auto& [text, expected] : cases) {
    const std::string message = parse_error(text);
    EXPECT_NE(message.find(expected), std::string::npos)
        << "text: '" << text << "'\nmessage: " << message;
  }
  EXPECT_EQ(parse_error("L:6/3/0:6/3/0"), "");  // private squares of both sides are distinct
}

// Positions the set's paths make impossible are refused with the core's own reason.
TEST(TextNotation, RefusesPositionsImpossibleUnderTheSet) {
  const Rules masters(find_rule_set("masters")->spec);
  auto error = [](std::string_view text, const Rules& rules) {
    const auto parsed = parse_text(text, rules);
    return std::holds_alternative<ParseError>(parsed) ? std::get<ParseError>(parsed).message
                                                      : std::string("(no error)");
  };
  EXPECT_EQ(error("L:6/17/0:7/-/0", masters), "light square '17' must be a route square 1..16");
  EXPECT_EQ(error("L:6/12/0:6/16/0", masters),
            "light and dark both stand on one shared tile (light's square 12 is dark's square 16)");
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  EXPECT_EQ(error("L:5/11,17/0:7/-/0", Rules(murray)),
            "light has two pieces on one tile (route squares 11 and 17)");
  const Rules aseb(find_rule_set("aseb")->spec);
  EXPECT_EQ(error("L:7/-/0:7/-/0", aseb),
            "light has 7 pieces (start 7 + home 0 + board 0), expected 5");
}

TEST(TextNotation, FuzzedTextNeverCrashesAndValidatesWhatItAccepts) {
  std::mt19937_64 random(5);
  constexpr std::string_view kAlphabet = "LDld:/,-0123456789 x\xff";
  int accepted = 0;
  for (int i = 0; i < 50000; ++i) {
    const Rules rules = testing::random_rules(random);
    const std::string text =
        i % 2 ? testing::damage_text(to_text(testing::random_position(random, rules)), random,
                                     kAlphabet, 4)
              : testing::random_text(random, kAlphabet, 40);
    auto parsed = parse_text(text, rules);
    if (auto* position = std::get_if<Position>(&parsed)) {
      ++accepted;
      EXPECT_FALSE(validate(rules, *position).has_value()) << text;
      EXPECT_EQ(std::get<Position>(parse_text(to_text(*position), rules)), *position);
    } else {
      EXPECT_FALSE(std::get<ParseError>(parsed).message.empty());
    }
  }
  EXPECT_GT(accepted, 100);
}

}  // namespace
}  // namespace ur
