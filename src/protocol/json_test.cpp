// JSON forms: the exact documented shape, round trips, every validation error, and fuzzing.
#include "protocol/json.h"

#include <gtest/gtest.h>

#include "core/rule_sets.h"

#include <random>

#include "core/test_support.h"

namespace ur::protocol {
namespace {

using nlohmann::json;

const Rules kFinkel = finkel_rules();
constexpr const char* kExample =
    R"({"turn":"light","light":{"start":4,"home":1,"board":[2,5,9]},"dark":{"start":5,"home":0,"board":[7,14]}})";

// The RequestError message for parsing `text` as a position, or "" when it parses.
std::string position_error(const std::string& text, const Rules& rules = kFinkel) {
  try {
    position_from_json(json::parse(text), rules);
    return "";
  } catch (const RequestError& error) {
    return error.what();
  }
}

TEST(JsonNesting, CountsBracketsOutsideStringsOnly) {
  const auto nested = [](int depth) { return std::string(depth, '[') + std::string(depth, ']'); };
  EXPECT_FALSE(nests_too_deeply(nested(kMaxJsonNesting)));
  EXPECT_TRUE(nests_too_deeply(nested(kMaxJsonNesting + 1)));
  EXPECT_TRUE(nests_too_deeply(std::string(100000, '{')));  // unbalanced garbage too
  // Brackets inside strings, escaped quotes included, are text.
  EXPECT_FALSE(nests_too_deeply("{\"a\":\"" + std::string(1000, '[') + "\"}"));
  EXPECT_FALSE(nests_too_deeply("[\"\\\"" + std::string(1000, '{') + "\"]"));
  EXPECT_FALSE(nests_too_deeply("{\"a\":[1,2,{\"b\":[]}],\"c\":{}}"));
  // Depth is the current nesting, not the number of brackets seen.
  EXPECT_FALSE(nests_too_deeply(nested(kMaxJsonNesting) + nested(kMaxJsonNesting)));
}

// The issue's example has the right shape but 8 light pieces (4 + 1 + 3), so it is written
// from a raw Position and refused on input; docs/notation.md uses a valid variant.
TEST(JsonPosition, ExampleHasTheDocumentedShape) {
  Position position;
  position.turn = Side::Light;
  position.start = {4, 5};
  position.home = {1, 0};
  position.board = {square_bit(2) | square_bit(5) | square_bit(9), square_bit(7) | square_bit(14)};
  EXPECT_EQ(to_json(position), json::parse(kExample));
  EXPECT_EQ(position_error(kExample),
            "impossible position: light has 8 pieces (start 4 + home 1 + board 3), expected 7");
  const Position valid = testing::parse_or_die("L:3/2,5,9/1:5/7,14/0", kFinkel);
  const char* valid_json =
      R"({"turn":"light","light":{"start":3,"home":1,"board":[2,5,9]},"dark":{"start":5,"home":0,"board":[7,14]}})";
  EXPECT_EQ(to_json(valid), json::parse(valid_json));
  EXPECT_EQ(position_from_json(json::parse(valid_json), kFinkel), valid);
}

TEST(JsonPosition, RoundTripsRandomPositionsUnderEveryRuleSet) {
  std::mt19937_64 random(1);
  for (const Rules& rules : testing::all_finkel_rule_sets()) {
    for (int i = 0; i < 500; ++i) {
      const Position position = testing::random_position(random, rules);
      const json value = to_json(position);
      EXPECT_EQ(position_from_json(value, rules), position) << value;
      EXPECT_EQ(position_from_json(json::parse(value.dump()), rules), position);
    }
  }
}

TEST(JsonPosition, MovesAndRulesHaveTheDocumentedShape) {
  EXPECT_EQ(to_json(Move{3, 7, true, false}),
            json::parse(R"({"from":3,"to":7,"capture":true,"extra_throw":false})"));
  EXPECT_EQ(to_json(finkel_rules(5, BearOff::Any)),
            json::parse(R"({"name":"finkel","pieces":5,"bear_off":"any"})"));
}

struct BadPosition {
  const char* json_text;
  const char* expected_message_part;
};

class JsonPositionErrors : public ::testing::TestWithParam<BadPosition> {};

TEST_P(JsonPositionErrors, SaysWhatIsWrong) {
  const std::string message = position_error(GetParam().json_text);
  EXPECT_NE(message.find(GetParam().expected_message_part), std::string::npos)
      << "message: " << message;
}

INSTANTIATE_TEST_SUITE_P(
    EveryDefect, JsonPositionErrors,
    ::testing::Values(
        BadPosition{R"([1,2])", "position must be an object"},
        BadPosition{R"("L:7/-/0:7/-/0")", "position must be an object"},
        BadPosition{
            R"({"light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position is missing "turn")"},
        BadPosition{
            R"({"turn":"white","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position.turn must be "light" or "dark", got "white")"},
        BadPosition{
            R"({"turn":0,"light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position.turn must be "light" or "dark", got 0)"},
        BadPosition{R"({"turn":"light","dark":{"start":7,"home":0,"board":[]}})",
                    R"(position is missing "light")"},
        BadPosition{R"({"turn":"light","light":[],"dark":{"start":7,"home":0,"board":[]}})",
                    "position.light must be an object"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]},"note":1})",
            R"(position has unknown member "note")"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":0,"board":[],"x":1},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position.light has unknown member "x")"},
        BadPosition{
            R"({"turn":"light","light":{"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position.light is missing "start")"},
        BadPosition{
            R"({"turn":"light","light":{"start":"7","home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            R"(position.light.start must be an integer 0..7, got "7")"},
        BadPosition{
            R"({"turn":"light","light":{"start":7.5,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.start must be an integer 0..7, got 7.5"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":-1,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.home must be an integer 0..7, got -1"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":99999999999999999999,"home":0,"board":[]}})",
            "position.dark.start must be an integer 0..7"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":0,"board":"2,5"},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.board must be an ascending array"},
        BadPosition{
            R"({"turn":"light","light":{"start":6,"home":0,"board":[15]},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.board[0] must be an integer 1..14"},
        BadPosition{
            R"({"turn":"light","light":{"start":6,"home":0,"board":[0]},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.board[0] must be an integer 1..14"},
        BadPosition{
            R"({"turn":"light","light":{"start":5,"home":0,"board":[5,2]},"dark":{"start":7,"home":0,"board":[]}})",
            "position.light.board must list squares in increasing order without repeats"},
        BadPosition{
            R"({"turn":"light","light":{"start":5,"home":0,"board":[5,5]},"dark":{"start":7,"home":0,"board":[]}})",
            "increasing order without repeats"},
        BadPosition{
            R"({"turn":"light","light":{"start":7,"home":0,"board":[1]},"dark":{"start":7,"home":0,"board":[]}})",
            "impossible position: light has 8 pieces (start 7 + home 0 + board 1), expected 7"},
        BadPosition{
            R"({"turn":"light","light":{"start":6,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})",
            "impossible position: light has 6 pieces"},
        BadPosition{
            R"({"turn":"light","light":{"start":6,"home":0,"board":[7]},"dark":{"start":6,"home":0,"board":[7]}})",
            "impossible position: light and dark both stand on shared square 7"},
        BadPosition{
            R"({"turn":"light","light":{"start":0,"home":7,"board":[]},"dark":{"start":0,"home":7,"board":[]}})",
            "impossible position: both sides have all pieces home"}));

TEST(JsonPosition, PrivateSquaresOfBothSidesMayBeHeldTogether) {
  EXPECT_EQ(
      position_error(
          R"({"turn":"light","light":{"start":5,"home":0,"board":[3,13]},"dark":{"start":5,"home":0,"board":[3,13]}})"),
      "");
}

TEST(JsonPosition, PieceCountFollowsTheRules) {
  const Rules three = finkel_rules(3);
  const char* text =
      R"({"turn":"dark","light":{"start":3,"home":0,"board":[]},"dark":{"start":2,"home":0,"board":[4]}})";
  EXPECT_EQ(position_error(text, three), "");
  EXPECT_NE(position_error(text).find("expected 7"), std::string::npos);
}

TEST(JsonRules, OmittedMembersTakeTheDefaults) {
  EXPECT_EQ(rules_from_request(json::parse(R"({"cmd":"moves"})")), finkel_rules());
  EXPECT_EQ(rules_from_request(json::parse(R"({"rules":{}})")), finkel_rules());
  EXPECT_EQ(rules_from_request(json::parse(R"({"rules":{"pieces":3}})")), finkel_rules(3));
  EXPECT_EQ(rules_from_request(json::parse(R"({"rules":{"bear_off":"any"}})")),
            finkel_rules(7, BearOff::Any));
  EXPECT_EQ(rules_from_request(json::parse(R"({"rules":{"pieces":1,"bear_off":"exact"}})")),
            finkel_rules(1));
}

std::string rules_error(const std::string& request) {
  try {
    rules_from_request(json::parse(request));
    return "";
  } catch (const RequestError& error) {
    return error.what();
  }
}

TEST(JsonRules, RejectsBadRules) {
  EXPECT_EQ(rules_error(R"({"rules":{"pieces":0}})"),
            "rules.pieces must be an integer 1..7, got 0");
  EXPECT_EQ(rules_error(R"({"rules":{"pieces":8}})"),
            "rules.pieces must be an integer 1..7, got 8");
  EXPECT_EQ(rules_error(R"({"rules":{"pieces":7.0}})"),
            "rules.pieces must be an integer 1..7, got 7.0");
  EXPECT_EQ(rules_error(R"({"rules":{"bear_off":"over"}})"),
            R"(rules.bear_off must be "exact" or "any", got "over")");
  EXPECT_EQ(
      rules_error(R"({"rules":{"piece":5}})"),
      R"(rules has unknown member "piece"; allowed: name, pieces, bear_off, board, path, dice, zero_roll, safe_rosettes, rosette_extra_throw, capture_extra_throw)");
  EXPECT_EQ(
      rules_error(R"({"rules":"finkel"})"),
      R"(rules must be an object like {"name":"masters"} or {"pieces":7,"bear_off":"exact"}, got "finkel")");
}

TEST(JsonRoll, AcceptsZeroToFourOnly) {
  for (int roll = 0; roll <= 4; ++roll) EXPECT_EQ(roll_from_json(json(roll), kFinkel), roll);
  for (const char* bad : {"-1", "5", "2.5", "\"2\"", "null", "true", "[2]"}) {
    try {
      roll_from_json(json::parse(bad), kFinkel);
      ADD_FAILURE() << bad << " was accepted";
    } catch (const RequestError& error) {
      EXPECT_EQ(std::string(error.what()),
                std::string("roll must be an integer 0..4 (the distance moved), got ") + bad);
    }
  }
}

// Under Masters a throw moves 1..4 (no marks count as 4), but the range said 0..4.
TEST(JsonRoll, TheRangeIsTheRulesThrows) {
  const Rules masters(find_rule_set("masters")->spec);
  try {
    roll_from_json(json(0), masters);
    ADD_FAILURE() << "0 was accepted";
  } catch (const RequestError& error) {
    EXPECT_EQ(std::string(error.what()),
              "roll must be an integer 1..4 (the distance moved), got 0");
  }
  try {
    roll_from_request(json::object(), masters);
    ADD_FAILURE() << "a missing roll was accepted";
  } catch (const RequestError& error) {
    EXPECT_NE(std::string(error.what()).find("an integer 1..4"), std::string::npos) << error.what();
  }
}

TEST(JsonMove, ResolvesFromAgainstTheLegalMoves) {
  const Position position = testing::parse_or_die("L:5/1,3/0:7/-/0", kFinkel);
  auto move = [&](const char* request, Roll roll) {
    return move_from_request(json::parse(request), kFinkel, position, roll);
  };
  EXPECT_EQ(move(R"({"move":{"from":3}})", 2), (Move{3, 5, false, false}));
  EXPECT_EQ(move(R"({"move":{"from":3,"to":5,"capture":false,"extra_throw":false}})", 2),
            (Move{3, 5, false, false}));
  EXPECT_EQ(move(R"({"move":null})", 0), std::nullopt);
  auto error = [&](const char* request, Roll roll) -> std::string {
    try {
      move(request, roll);
      return "";
    } catch (const RequestError& failure) {
      return failure.what();
    }
  };
  EXPECT_EQ(error(R"({"move":{"from":1}})", 2),
            "move from 1 is not legal with roll 2: Square 3 already holds one of your pieces. "
            "Legal moves start from 0, 3 (0 is the start pile).");
  EXPECT_EQ(error(R"({"move":null})", 2),
            "\"move\":null passes, but roll 2 has legal moves from 0, 3 (0 is the start pile); "
            "send {\"from\":f} for one of them");
  EXPECT_NE(error(R"({"move":{"from":0}})", 0).find("send \"move\":null"), std::string::npos);
  EXPECT_NE(error(R"({"move":{"from":3,"to":6}})", 2).find("move.to is 6"), std::string::npos);
  EXPECT_NE(error(R"({"move":{"from":-1}})", 2).find("move.from must be an integer 0..15"),
            std::string::npos);
  EXPECT_NE(error(R"({"move":{"square":3}})", 2).find("unknown member \"square\""),
            std::string::npos);
  EXPECT_NE(error(R"({"move":3})", 2).find("move must be {\"from\":f} or null"), std::string::npos);
  EXPECT_NE(error(R"({})", 2).find("request is missing \"move\""), std::string::npos);
}

// A move exactly as "hints" or "best" print it may be sent back: "win" and "value" are read
// and ignored, while the members that describe the move are still checked.
TEST(JsonMove, AcceptsAMoveAsHintsAndBestPrintIt) {
  const Position position = testing::parse_or_die("L:5/1,3/0:7/-/0", kFinkel);
  auto move = [&](const char* request) {
    return move_from_request(json::parse(request), kFinkel, position, 2);
  };
  EXPECT_EQ(move(R"({"move":{"from":3,"to":5,"capture":false,"extra_throw":false,"win":0.41}})"),
            (Move{3, 5, false, false}));
  EXPECT_EQ(move(R"({"move":{"from":3,"value":0.5}})"), (Move{3, 5, false, false}));
  const auto error = [&](const char* request) -> std::string {
    try {
      move(request);
      return "";
    } catch (const RequestError& failure) {
      return failure.what();
    }
  };
  EXPECT_NE(error(R"({"move":{"from":3,"to":6,"win":0.4}})").find("move.to is 6"),
            std::string::npos);
  EXPECT_NE(error(R"({"move":{"from":3,"win":"high"}})").find("move.win must be a number"),
            std::string::npos);
  EXPECT_NE(error(R"({"move":{"from":3,"square":3}})").find("unknown member \"square\""),
            std::string::npos);
}

// Error messages suggest positions; each suggestion must itself be accepted.
TEST(JsonPosition, ExamplesInErrorsAreValidPositions) {
  const auto suggestion = [](const std::string& text) {
    const std::string message = position_error(text);
    const auto begin = message.find("like ");
    const auto end = message.find(", got ");
    EXPECT_NE(begin, std::string::npos) << message;
    EXPECT_NE(end, std::string::npos) << message;
    return message.substr(begin + 5, end - begin - 5);
  };
  const std::string whole = suggestion("[1]");
  EXPECT_EQ(position_error(whole), "") << whole;
  const std::string side = suggestion(R"({"turn":"light","light":3,"dark":{}})");
  const std::string with_side =
      R"({"turn":"light","light":)" + side + R"(,"dark":{"start":5,"home":0,"board":[7,14]}})";
  EXPECT_EQ(position_error(with_side), "") << with_side;
}

// Random edits of a valid position: change, drop or add members at any depth.
json garble(json value, std::mt19937_64& random, int edits) {
  const json junk[] = {nullptr,
                       true,
                       -1,
                       0,
                       3,
                       8,
                       15,
                       1e300,
                       "light",
                       "x",
                       json::array(),
                       json::object(),
                       json::array({1, 2, 3}),
                       json::array({14, 2}),
                       json::parse(R"({"start":7})"),
                       18446744073709551615ull,
                       -9223372036854775807ll};
  for (int edit = 0; edit < edits; ++edit) {
    json* target = &value;
    while (target->is_structured() && !target->empty() && random() % 3 != 0) {
      auto it = target->begin();
      std::advance(it, random() % target->size());
      target = &*it;
    }
    switch (random() % 3) {
      case 0:
        *target = junk[random() % std::size(junk)];
        break;
      case 1:
        if (target->is_object() && !target->empty()) target->erase(target->begin());
        if (target->is_array() && !target->empty()) target->erase(target->begin());
        break;
      default:
        if (target->is_object()) (*target)["extra"] = junk[random() % std::size(junk)];
        if (target->is_array()) target->push_back(junk[random() % std::size(junk)]);
    }
  }
  return value;
}

// The library keeps the last of a repeated key silently: {"cmd":"moves","cmd":"apply"} ran
// "apply", which a reader of the line could take either way.
TEST(JsonText, ARepeatedKeyIsRefusedAtAnyDepth) {
  for (const char* text :
       {R"({"cmd":"moves","cmd":"apply"})", R"({"position":{"light":{"start":7,"start":6}}})",
        R"([{"a":1},{"b":2,"b":3}])"}) {
    try {
      parse_json_text(text);
      ADD_FAILURE() << text << " was accepted";
    } catch (const JsonTextError& error) {
      EXPECT_NE(std::string(error.what()).find("appears twice in one object"), std::string::npos)
          << error.what();
    }
  }
  // The same key in two objects, or nested under itself, is fine.
  EXPECT_EQ(parse_json_text(R"([{"a":1},{"a":2}])")[1]["a"], 2);
  EXPECT_EQ(parse_json_text(R"({"a":{"a":{"a":3}}})")["a"]["a"]["a"], 3);
  EXPECT_EQ(parse_json_text(R"({"a":1,"b":{"a":2}})")["b"]["a"], 2);
}

TEST(JsonText, MalformedTextSaysWhereAndTheLibraryPrefixIsGone) {
  try {
    parse_json_text(R"({"cmd":)");
    ADD_FAILURE();
  } catch (const JsonTextError& error) {
    EXPECT_EQ(error.byte(), 8u);
    EXPECT_EQ(std::string(error.what()).find("[json.exception"), std::string::npos) << error.what();
  }
  EXPECT_THROW(parse_json_text("1e400"), JsonTextError);
  EXPECT_THROW(parse_json_text(""), JsonTextError);
  EXPECT_THROW(parse_json_text("{} {}"), JsonTextError);
}

// From a review: a member holding a number of a million digits got an error line of a million
// bytes, the library quoting the whole number.
TEST(JsonText, ALongQuoteInTheLibrarysMessageIsCut) {
  const std::string huge = "{\"x\":1" + std::string(1'000'000, '0') + "}";
  try {
    parse_json_text(huge);
    ADD_FAILURE();
  } catch (const JsonTextError& error) {
    const std::string said = error.what();
    EXPECT_LT(said.size(), 300u) << said.substr(0, 400);
    EXPECT_NE(said.find("number overflow"), std::string::npos) << said;
    EXPECT_NE(said.find("(cut; "), std::string::npos) << said;
  }
}

TEST(JsonText, AMemberIsReadUpToTheFirstFault) {
  const auto id = [](std::string_view text) { return member_before_fault(text, "id"); };
  EXPECT_EQ(id(R"({"cmd":"x","id":{"a":[1,{"b":null}],"c":"d"}})"),
            json::parse(R"({"a":[1,{"b":null}],"c":"d"})"));
  EXPECT_EQ(id(R"({"id":[[]],"x":)" + std::string(100000, '{')), json::parse("[[]]"));
  EXPECT_EQ(id(std::string(R"({"id":"n")") + '\0' + R"(,"id":2})"), json("n"));
  EXPECT_EQ(id(R"({"id":7,"cmd":"a","cmd":"b"})"), json(7));
  EXPECT_EQ(id(R"({"id":1e400})"), std::nullopt);
  EXPECT_EQ(id(R"({"id":"abc)"), std::nullopt);
  EXPECT_EQ(id(R"({"id":{"a":1)"), std::nullopt);
  EXPECT_EQ(id(R"({"x":1})"), std::nullopt);
  EXPECT_EQ(id(R"("id")"), std::nullopt);
  EXPECT_EQ(id(R"({"id":1,"id":1})"), std::nullopt);
  EXPECT_EQ(id(R"({"id":)" + std::string(100, '[') + std::string(100, ']') + "}"), std::nullopt);
  EXPECT_EQ(id(R"({"id":)" + std::string(64, '[') + std::string(64, ']') + "}")->dump().size(),
            128u);
}

TEST(JsonFuzz, AMemberIsSoughtSafelyInAnyBytes) {
  std::mt19937_64 random(11);
  constexpr std::string_view kPieces[] = {"{",    "}", "[",  "]",    "\"id\"",
                                          ":",    ",", "1",  "\"",   "\\",
                                          "null", "-", "e9", "\xff", std::string_view("\0", 1)};
  for (int trial = 0; trial < 20000; ++trial) {
    std::string text;
    const int length = static_cast<int>(random() % 40);
    for (int k = 0; k < length; ++k) text += kPieces[random() % std::size(kPieces)];
    const auto found = member_before_fault(text, "id");
    if (found) {
      EXPECT_NE(text.find("\"id\":"), std::string::npos) << text;
      EXPECT_NO_THROW((void)wire_text(*found)) << text;
    }
  }
}

TEST(JsonFuzz, GarbledPositionsAndRulesOnlyEverThrowRequestError) {
  std::mt19937_64 random(7);
  int accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    const Rules rules = testing::random_rules(random);
    json request = {{"position", to_json(testing::random_position(random, rules))},
                    {"rules", to_json(rules)},
                    {"roll", 2}};
    request = garble(request, random, 1 + static_cast<int>(random() % 4));
    try {
      const bool is_request = request.is_object() && request.contains("position");
      const Rules parsed_rules = rules_from_request(is_request ? request : json::object());
      const Position position =
          position_from_json(is_request ? request["position"] : request, parsed_rules);
      EXPECT_FALSE(validate(parsed_rules, position).has_value());
      ++accepted;
    } catch (const RequestError&) {
      // Expected for almost every garbled input.
    }
  }
  EXPECT_GT(accepted, 0);
}

}  // namespace
}  // namespace ur::protocol
