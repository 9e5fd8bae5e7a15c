#include "records/rgn.h"

#include "core/rule_sets.h"

#include <gtest/gtest.h>

#include <random>

namespace ur::records {
namespace {

const Rules kFinkel = finkel_rules();

GameRecord read_one(std::string_view text) {
  auto games = read_rgn(text);
  if (auto* error = std::get_if<ParseError>(&games)) {
    ADD_FAILURE() << error->text();
    return {};
  }
  EXPECT_EQ(std::get<0>(games).size(), 1u);
  return std::get<0>(games).front();
}

std::string error_of(std::string_view text) {
  auto games = read_rgn(text);
  if (auto* error = std::get_if<ParseError>(&games)) return error->text();
  return "(no error)";
}

TEST(RgnTiles, LightRunsLaneAThenTheSharedLaneB) {
  std::vector<std::string> names;
  for (Square s = 1; s <= 14; ++s) names.push_back(tile_name(kFinkel, Side::Light, s));
  EXPECT_EQ(names, (std::vector<std::string>{"A4", "A3", "A2", "A1", "B1", "B2", "B3", "B4", "B5",
                                             "B6", "B7", "B8", "A8", "A7"}));
  EXPECT_EQ(tile_name(kFinkel, Side::Dark, 1), "C4");
  EXPECT_EQ(tile_name(kFinkel, Side::Dark, 8), "B4");
  EXPECT_EQ(tile_name(kFinkel, Side::Dark, 14), "C7");
}

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

// Tiles come from the core's geometry: light's Masters path runs through C7 and C8, dark's
// through A7 and A8; Aseb's shared lane is B1-B12.
TEST(RgnTiles, EveryPathNamesItsTilesFromTheCore) {
  const Rules masters = named("masters");
  EXPECT_EQ(tile_name(masters, Side::Light, 11), "B7");
  EXPECT_EQ(tile_name(masters, Side::Light, 12), "C7");
  EXPECT_EQ(tile_name(masters, Side::Light, 13), "C8");
  EXPECT_EQ(tile_name(masters, Side::Light, 14), "B8");
  EXPECT_EQ(tile_name(masters, Side::Light, 16), "A7");
  EXPECT_EQ(tile_name(masters, Side::Dark, 12), "A7");
  EXPECT_EQ(tile_name(masters, Side::Light, 17), "A");
  const Rules aseb = named("aseb");
  std::vector<std::string> names;
  for (Square s = 1; s <= aseb.route_length; ++s) names.push_back(tile_name(aseb, Side::Dark, s));
  EXPECT_EQ(names, (std::vector<std::string>{"C4", "C3", "C2", "C1", "B1", "B2", "B3", "B4", "B5",
                                             "B6", "B7", "B8", "B9", "B10", "B11", "B12"}));
}

// The Rules tag is the set's title as RoyalUr writes it; Pieces and BearOff only where they
// differ from the set's; a custom set writes every column, and each reads back.
TEST(RgnRulesTags, NamedSetsByTitleCustomSetsByColumn) {
  EXPECT_EQ(rules_tags(named("masters")), (std::vector<Tag>{{"Rules", "Masters"}}));
  EXPECT_EQ(rules_tags(named("aseb")), (std::vector<Tag>{{"Rules", "Aseb"}}));
  Rules blitz = named("blitz");
  blitz.pieces = 7;
  blitz.bear_off = BearOff::Any;
  EXPECT_EQ(rules_tags(blitz),
            (std::vector<Tag>{{"Rules", "Blitz"}, {"Pieces", "7"}, {"BearOff", "any"}}));
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = PathKind::Murray;
  spec.pieces = 4;
  const Rules murray(spec);
  EXPECT_EQ(rules_tags(murray), (std::vector<Tag>{{"Rules", "Custom"},
                                                  {"Board", "standard"},
                                                  {"Path", "murray"},
                                                  {"Dice", "3"},
                                                  {"ZeroRoll", "max"},
                                                  {"SafeRosettes", "no"},
                                                  {"RosetteExtraThrow", "yes"},
                                                  {"CaptureExtraThrow", "no"},
                                                  {"Pieces", "4"}}));
  for (const Rules& rules : {named("finkel"), named("masters"), blitz, named("aseb"), murray}) {
    const auto back = rules_from_tags(rules_tags(rules));
    ASSERT_TRUE(std::holds_alternative<Rules>(back)) << std::get<TagError>(back).message;
    EXPECT_EQ(std::get<Rules>(back), rules);
  }
}

TEST(RgnRulesTags, RoyalUrsVariantNamesRead) {
  EXPECT_EQ(std::get<Rules>(rules_from_name("Finkel with Two Pieces")), finkel_rules(2));
  EXPECT_EQ(std::get<Rules>(rules_from_name("MASTERS")), named("masters"));
  const Rules four = std::get<Rules>(rules_from_name("Masters with Four Dice"));
  EXPECT_EQ(four.dice, 4);
  EXPECT_EQ(four.max_roll(), 4) << "a throw of no marks passes, as docs/cli.md says";
  EXPECT_FALSE(four.zero_counts_as_max);
  EXPECT_EQ(four.path, PathKind::Masters);
  EXPECT_EQ(rule_set_name(four), "custom");
}

// Games as RoyalUr-Java's RGN writer lays them out: a roll is written only when no move
// follows ("4 --", Masters' throw of no marks), a rosette landing as " *", a capture as
// "x", bearing off as the lane and "+". Each loads, replays, and writes back the same.
void expect_loads_as_written(std::string_view text, std::string_view set,
                             const std::vector<Roll>& rolls) {
  const GameRecord record = read_one(text);
  EXPECT_EQ(rule_set_name(record.rules), set);
  std::vector<Roll> read;
  for (const Ply& ply : record.plies) read.push_back(ply.roll);
  EXPECT_EQ(read, rolls);
  EXPECT_TRUE(std::holds_alternative<Replay>(replay(record)));
  EXPECT_EQ(write_rgn(record), text);
}

TEST(RgnRoyalUr, MastersGameLoads) {
  expect_loads_as_written(
      "[Rules Masters]\n[Light Ninsun]\n[Dark Lugalbanda]\n\n"
      "1. A@A1 * A1B2 / C@C2\n"
      "2. B2B5 / C@C1 * C1B3\n"
      "3. B5B7 / B3B7x\n"
      "4. A@A1 * A1B4 * B4B5 / B7A7 * A7B8\n"
      "5. B5C7 * C7C8 / C2B1\n",
      "masters", {4, 2, 3, 3, 4, 3, 2, 4, 4, 4, 1, 1, 2, 3, 1, 2});
}

TEST(RgnRoyalUr, BlitzGameLoads) {
  expect_loads_as_written(
      "[Rules Blitz]\n\n"
      "1. 0 -- / C@C3\n"
      "2. A@A2 / C3B1\n"
      "3. A2B2 / B1B2x C@C4\n"
      "4. 0 -- / 0 --\n",
      "blitz", {0, 2, 3, 3, 3, 1, 1, 0, 0});
}

TEST(RgnRoyalUr, AsebGameLoadsWithTilesToB12) {
  expect_loads_as_written(
      "[Rules Aseb]\n\n"
      "1. A@A1 * A@A3 / C@C1 * C1B2\n"
      "2. A1B4 * B4B8 * B8B12 * B12A+ / B2B3\n"
      "3. A3A1 * A1B1 / C@C4\n",
      "aseb", {4, 2, 4, 2, 4, 4, 4, 1, 1, 2, 1, 1});
}

// Light's C7 is dark's square 16: the capture is written with the tile both see.
TEST(RgnRoyalUr, MastersCaptureOnARenumberedTile) {
  const std::string text = "[Rules Masters]\n[Position \"L:6/11/0:6/16/0\"]\n\n1. B7C7x * A@A4\n";
  const GameRecord record = read_one(text);
  ASSERT_EQ(record.plies.size(), 2u);
  EXPECT_EQ(record.plies[0].move, (Move{11, 12, true, true}));
  const auto played = std::get<Replay>(replay(record));
  EXPECT_EQ(played.plies[0].after.board[1], 0u);
  EXPECT_EQ(played.plies[0].after.start[1], 7);
  EXPECT_EQ(write_rgn(record), text);
}

TEST(RgnTags, ValuesAreBareOnlyWhenTheyAreSimpleWords) {
  EXPECT_EQ(escape_tag_value("Finkel"), "Finkel");
  EXPECT_EQ(escape_tag_value("expectimax-3.1_b"), "expectimax-3.1_b");
  EXPECT_EQ(escape_tag_value("Finkel with Two Pieces"), "\"Finkel with Two Pieces\"");
  EXPECT_EQ(escape_tag_value("1-0"), "\"1-0\"");
  EXPECT_EQ(escape_tag_value(""), "\"\"");
  EXPECT_EQ(escape_tag_value("say \"hi\"\\\n"), "\"say \\\"hi\\\"\\\\\\n\"");
}

// Written the way RoyalUr-Java's encoder writes: a line per turn pair, a rosette marked
// " *" before the extra throw's action, a throw with no move as "R --", # at the end.
constexpr std::string_view kShortGame =
    "[Rules Finkel]\n"
    "[Light \"Ann Example\"]\n"
    "\n"
    "1. A@A1 * A1B2 / C@C3\n"
    "2. 0 -- / C3C1 * C@C2\n"
    "3. A@A2 / C1B1\n"
    "4. A2A1 * B2B4 * B4B7 / B1B2\n";

TEST(RgnRead, ReadsTagsTurnsRosettesAndPasses) {
  const GameRecord record = read_one(kShortGame);
  ASSERT_EQ(record.tags.size(), 2u);
  EXPECT_EQ(*record.tag("Light"), "Ann Example");
  EXPECT_EQ(record.rules, kFinkel);
  EXPECT_EQ(record.first, Side::Light);
  ASSERT_EQ(record.plies.size(), 12u);
  EXPECT_EQ(record.plies[0], (Ply{Side::Light, 4, Move{0, 4, false, true}}));
  EXPECT_EQ(record.plies[1], (Ply{Side::Light, 2, Move{4, 6, false, false}}));
  EXPECT_EQ(record.plies[3], (Ply{Side::Light, 0, std::nullopt}));
  EXPECT_EQ(record.plies[4], (Ply{Side::Dark, 2, Move{2, 4, false, true}}));
  const auto played = std::get<Replay>(replay(record));
  EXPECT_EQ(played.plies.back().turn, 4);
  EXPECT_FALSE(played.winner);
}

TEST(RgnWrite, WritingWhatWasReadGivesTheSameBytes) {
  EXPECT_EQ(write_rgn(read_one(kShortGame)), kShortGame);
}

TEST(RgnWrite, ACaptureIsMarkedAfterTheTargetTile) {
  // Light reaches B3 (route 7); dark enters and runs to B3 in three throws and captures.
  const GameRecord record = read_one(
      "1. A@A1 * A1B3 / C@C1 * C1B2\n"
      "2. 0 -- / B2B3x\n");
  EXPECT_TRUE(record.plies.back().move->capture);
  EXPECT_NE(write_rgn(record).find("B2B3x"), std::string::npos);
}

TEST(RgnRead, SeveralGamesWithAndWithoutTags) {
  const std::string game = "[Rules \"Finkel with Two Pieces\"]\n\n1. A@A1 * A1B2 / C@C3\n";
  auto games = read_rgn(game + "\n" + game);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(games))
      << std::get<ParseError>(games).text();
  ASSERT_EQ(std::get<0>(games).size(), 2u);
  EXPECT_EQ(std::get<0>(games)[1].rules.pieces, 2);
  auto untagged = read_rgn("1. A@A3 / C@C3\n\n1. A@A2 / C@C2\n");
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(untagged))
      << std::get<ParseError>(untagged).text();
  EXPECT_EQ(std::get<0>(untagged).size(), 2u);
}

TEST(RgnRead, AResignationIsReadFromTheResultTag) {
  const GameRecord early = read_one("[Rules Finkel]\n[Result \"0-1\"]\n");
  EXPECT_TRUE(early.plies.empty());
  EXPECT_EQ(early.resigned, Side::Light);
  const GameRecord later = read_one("[Result \"1-0\"]\n\n1. A@A1 * A1B2 / C@C3#\n");
  EXPECT_EQ(later.resigned, Side::Dark);
  // Written again, both come back the same.
  EXPECT_EQ(read_one(write_rgn(early)), early);
  EXPECT_EQ(read_one(write_rgn(later)), later);
}

// The Result tag was never checked: "0-1" on light's win, "2-0", a truncated game that said
// "1-0", and # with "*" were all read without a word.
TEST(RgnErrors, AResultTagThatDisagreesWithTheGameIsRefused) {
  const std::string won =
      "1. A@A3 / C@C3\n2. A3A2 / C3C1 * C1B1\n3. A2B1x / C@C3\n4. B1B5 / C3C1 * C1B1\n"
      "5. B5B7 / B1B3\n6. B7A8 / B3B7\n7. A8A+#\n";
  const auto with_result = [&](const std::string& result, const std::string& body) {
    return "[Pieces \"1\"]\n[Result \"" + result + "\"]\n\n" + body;
  };
  EXPECT_EQ(read_one(with_result("1-0", won)).plies.size(), 15u);
  EXPECT_EQ(error_of(with_result("0-1", won)),
            "line 2, column 1: the Result tag says dark won (0-1), but light won: expected "
            "\"1-0\"");
  EXPECT_EQ(error_of(with_result("*", won)),
            "line 2, column 1: the Result tag says the game is unfinished (*), but light won: "
            "expected \"1-0\"");
  EXPECT_EQ(error_of(with_result("2-0", won)),
            "line 2, column 1: the Result tag is \"2-0\": expected \"1-0\" (light won), "
            "\"0-1\" (dark won) or \"*\" (unfinished)");
  EXPECT_NE(error_of(with_result("1/2-1/2", won)).find("expected \"1-0\""), std::string::npos);
  const std::string truncated = "1. A@A3 / C@C3\n2. A3A2 / C3C1 * C1B1\n";
  EXPECT_EQ(read_one(with_result("*", truncated)).plies.size(), 5u);
  EXPECT_NE(error_of(with_result("1-0", truncated))
                .find("the Result tag says light won (1-0), but nobody has brought every piece "
                      "home and the last action carries no # (a resignation): expected \"*\""),
            std::string::npos);
  EXPECT_NE(error_of(with_result("*", "1. A@A3 / C@C3#\n"))
                .find("the game ends with # but the Result tag says the game is unfinished"),
            std::string::npos);
}

// A file saved with a UTF-8 byte order mark was refused as "found \"\xef\xbb\xbf[Event\"".
TEST(RgnRead, AByteOrderMarkIsSkipped) {
  const GameRecord plain = read_one("[Rules Finkel]\n\n1. A@A3 / C@C3\n");
  EXPECT_EQ(read_one("\xEF\xBB\xBF[Rules Finkel]\n\n1. A@A3 / C@C3\n"), plain);
}

// A tab between a tag's name and value was read into the name, and the error then pointed at
// the closing ] ("expected a space after the tag name, found \"]\"", column 14).
TEST(RgnRead, ATabPartsATagsNameFromItsValue) {
  EXPECT_EQ(read_one("[Rules\tFinkel]\n[Event \t\"Club night\"]\n\n1. A@A3 / C@C3\n"),
            read_one("[Rules Finkel]\n[Event \"Club night\"]\n\n1. A@A3 / C@C3\n"));
  EXPECT_EQ(error_of("[Rules]\n"),
            "line 1, column 7: expected a space after the tag name, found \"]\"");
}

TEST(RgnErrors, MalformedTextNamesLineColumnFoundAndExpected) {
  EXPECT_EQ(error_of("[Rules Finkel\n"),
            "line 1, column 14: expected ] to close the tag, found \"\\x0a\"");
  EXPECT_EQ(error_of("1. A@A1 *\n3. A1B1"), "line 2, column 1: expected turn 2, found \"3.\"");
  EXPECT_EQ(error_of("A@A4"),
            "line 1, column 1: expected a turn number such as \"1.\" or \"/\" before the first "
            "action, found \"A@A4\"");
  EXPECT_NE(error_of("1. A@A1\n").find("lands on a rosette: expected \" *\""), std::string::npos);
  EXPECT_NE(error_of("1. Q9Z\n").find("expected a move such as"), std::string::npos);
  EXPECT_NE(error_of("1. A@A3 / C@A3\n").find("A3 is not on dark's path"), std::string::npos);
  EXPECT_NE(error_of("1. 2\n").find("expected -- after the throw 2"), std::string::npos);
  EXPECT_NE(error_of("").find("the record is empty"), std::string::npos);
}

TEST(RgnErrors, AnIllegalMoveNamesTurnSideRollAndWhy) {
  // The reason after the colon is the rules engine's own sentence (core/explain).
  EXPECT_EQ(
      error_of("1. A@A2 / C@C2\n2. A@A2\n")
          .rfind("line 2, column 4: turn 2: light cannot play A@A2 with a throw of 3: Square 3 ",
                 0),
      0u);
  EXPECT_EQ(error_of("1. A@A2 / C@C2 C2C1 *\n"),
            "line 1, column 16: turn 1: it is light's turn, but the record has dark play");
  EXPECT_EQ(error_of("1. 2 -- / C@C2\n"),
            "line 1, column 4: turn 1: light passes a throw of 2, but can play A@A3");
}

// A move onto a rosette the mover's own piece holds was refused for its missing " *", though
// no " *" could have made it legal.
TEST(RgnErrors, AnIllegalMoveOntoARosetteIsNamedBeforeItsMissingStar) {
  const std::string error = error_of("1. A@A1 * A@A1\n");
  EXPECT_EQ(error.rfind("line 1, column 11: turn 1: light cannot play A@A1 with a throw of 4", 0),
            0u)
      << error;
  EXPECT_EQ(error.find("expected \" *\""), std::string::npos) << error;
  // A legal move onto a rosette still needs its star.
  EXPECT_NE(error_of("1. A@A1 * A@A2 / C@C1\n").find("lands on a rosette"), std::string::npos);
}

// [Pieces 2] then [Pieces 3] was read with 3 for the rules and 2 for the tags (and
// [Rules Masters] then [Rules Finkel] with the first), so ur could not read its own JSON back.
TEST(RgnErrors, ARepeatedTagIsRefusedWithBothLines) {
  EXPECT_EQ(error_of("[Pieces 2]\n[Pieces 3]\n\n1. A@A4\n"),
            "line 2, column 1: the tag Pieces appears twice in one game (first on line 1); keep "
            "one of them");
  EXPECT_NE(error_of("[Rules Masters]\n[Light Ann]\n[Rules Finkel]\n\n1. A@A4\n")
                .find("line 3, column 1: the tag Rules appears twice"),
            std::string::npos);
  // The same tag in two games is two games' tags.
  EXPECT_EQ(read_rgn("[Light Ann]\n\n1. A@A4\n\n[Light Bob]\n\n1. A@A4\n").index(), 0u);
}

// A # without a Result tag was read as an unfinished game (and written back without the #),
// and "1. A@A3# / C@C3" became two games, the second without the file's tags.
TEST(RgnErrors, AResignationNeedsItsResultAndEndsItsLine) {
  EXPECT_EQ(error_of("[Pieces 2]\n\n1. A@A3 / C@C3#\n"),
            "line 3, column 11: the game ends with # (a resignation), but no Result tag says who "
            "won: add [Result \"1-0\"] (light won) or [Result \"0-1\"] (dark won)");
  EXPECT_EQ(error_of("[Pieces 2]\n[Result \"1-0\"]\n\n1. A@A3# / C@C3\n"),
            "line 4, column 10: # ends the game, but the line goes on with \"/\": a new game "
            "starts on a line of its own");
  // With its Result, a resignation reads; so does a next game on a line of its own.
  const auto games =
      read_rgn("[Pieces 2]\n[Result \"0-1\"]\n\n1. A@A3 / C@C3#\n\n[Pieces 2]\n\n1. A@A3 / C@C3\n");
  ASSERT_EQ(games.index(), 0u) << std::get<ParseError>(games).message;
  EXPECT_EQ(std::get<0>(games).size(), 2u);
  EXPECT_EQ(std::get<0>(games)[0].resigned, Side::Light);
}

TEST(RgnErrors, UnknownAndUnplayableRuleSetsAreRefusedByName) {
  EXPECT_EQ(error_of("[Rules Chess]\n"),
            "line 1, column 1: unknown rule set \"Chess\"; the Rules tag names one of Finkel, "
            "Masters, Blitz, Aseb, \"Finkel with Two Pieces\", \"Masters with Four Dice\" or "
            "Custom (with column tags)");
  const std::string unplayable = error_of("[Rules Custom]\n[Board aseb]\n[Path masters]\n");
  EXPECT_EQ(unplayable.rfind("line 1, column 1: these rules cannot be played: ", 0), 0u)
      << unplayable;
  EXPECT_EQ(error_of("[Rules Custom]\n[Dice 9]\n"),
            "line 2, column 1: the Dice tag must be 1 to 6, found \"9\"");
  EXPECT_EQ(error_of("[Rules Custom]\n[SafeRosettes maybe]\n"),
            "line 2, column 1: the SafeRosettes tag must be yes or no, found \"maybe\"");
  EXPECT_NE(error_of("[Pieces 9]\n").find("Pieces tag must be 1 to 7"), std::string::npos);
}

// Fuzz: random bytes and mutations of a valid record never crash the reader, and every
// refusal says where.
TEST(RgnFuzz, GarbageAndMutatedRecordsGetAPlaceAndAReason) {
  std::mt19937_64 random(2026);
  const std::string valid(kShortGame);
  for (int round = 0; round < 4000; ++round) {
    std::string text;
    if (round % 2 == 0) {
      text.resize(random() % 200);
      for (char& c : text) c = static_cast<char>(random() % 256);
    } else {
      text = valid;
      for (int edits = 1 + random() % 4; edits > 0; --edits) {
        const std::size_t at = random() % text.size();
        const char pool[] = "ABCx+@*#/-.[]\" \n0123456789";
        switch (random() % 3) {
          case 0:
            text[at] = pool[random() % (sizeof pool - 1)];
            break;
          case 1:
            text.erase(at, 1);
            break;
          default:
            text.insert(at, 1, pool[random() % (sizeof pool - 1)]);
        }
      }
    }
    auto result = read_rgn(text);
    if (auto* error = std::get_if<ParseError>(&result)) {
      EXPECT_GE(error->line, 1);
      EXPECT_GE(error->column, 1);
      EXPECT_FALSE(error->message.empty());
    } else {
      // Whatever was accepted writes and reads back to the same games.
      const auto& games = std::get<0>(result);
      auto again = read_rgn(write_rgn(games));
      ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(again)) << text;
      EXPECT_EQ(std::get<0>(again).size(), games.size());
    }
  }
}

// A game resigned before its first throw has tags and no turns: it stays a game of its own.
// Murray's path with six dice, a throw of 0 moving 7: B7 is squares 11 and 17, B6 is 10 and
// 18. Light's piece on 11 throws 7 to 18, written B7B6; read alone that is 17 -> 18, a throw
// of 1 from a square light does not hold. The position decides.
TEST(RgnRead, AMoveOnAPathThatCrossesItselfIsReadFromThePiecesSquare) {
  RuleSpec spec = find_rule_set("masters")->spec;
  spec.path = PathKind::Murray;
  spec.dice = 6;
  spec.zero_counts_as_max = true;
  spec.pieces = 3;
  const Rules murray(spec);
  GameRecord record;
  record.rules = murray;
  record.tags = rules_tags(murray);
  record.tags.push_back({std::string(kPositionTag), "L:2/11/0:3/-/0"});
  record.plies.push_back(Ply{Side::Light, 7, Move{11, 18, false, false}});
  const std::string text = write_rgn(record);
  EXPECT_NE(text.find("1. B7B6"), std::string::npos) << text;
  auto read = read_rgn(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(read)) << error_of(text);
  const Ply& ply = std::get<0>(read).front().plies.front();
  EXPECT_EQ(ply.roll, 7);
  EXPECT_EQ(ply.move->from, 11);
  EXPECT_EQ(ply.move->to, 18);
}

TEST(RgnRead, AGameWithoutTurnsIsAGameOfItsOwn) {
  const std::string text =
      "[Rules Finkel]\n[Light A]\n[Result \"0-1\"]\n\n[Rules Finkel]\n[Light B]\n\n1. A@A2 / "
      "C@C2\n";
  auto games = read_rgn(text);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(games)) << error_of(text);
  const auto& read = std::get<0>(games);
  ASSERT_EQ(read.size(), 2u);
  EXPECT_TRUE(read[0].plies.empty());
  EXPECT_EQ(read[0].resigned, Side::Light);
  EXPECT_EQ(*read[1].tag("Light"), "B");
  const std::string written = write_rgn(read);
  auto again = read_rgn(written);
  ASSERT_TRUE(std::holds_alternative<std::vector<GameRecord>>(again)) << written;
  EXPECT_EQ(std::get<0>(again), read);
  EXPECT_EQ(write_rgn(std::get<0>(again)), written);
}

}  // namespace
}  // namespace ur::records
