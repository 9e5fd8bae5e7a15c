#include "records/rgn.h"

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

TEST(RgnErrors, OtherRuleSetsAreRefusedByName) {
  EXPECT_NE(error_of("[Rules Masters]\n\n1. A@A4\n").find("\"Masters\" is not playable in ur yet"),
            std::string::npos);
  EXPECT_NE(error_of("[Rules Chess]\n").find("unknown rule set \"Chess\""), std::string::npos);
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
