#include "protocol/record_json.h"

#include <gtest/gtest.h>

#include <random>

#include "core/rule_sets.h"
#include "protocol/json.h"
#include "records/rgn.h"

namespace ur::protocol {
namespace {

using nlohmann::json;

records::GameRecord played_game(std::uint64_t seed, BearOff bear_off) {
  session::Settings settings;
  settings.rules = finkel_rules(3, bear_off);
  settings.seats = {session::Seat{"random", {}}, session::Seat{"greedy", {}}};
  session::Session game = session::Session::start(settings, seed, 0);
  game.drive(session::standard_agents(), 0);
  return records::records_of_series(game).front();
}

json as_json(const records::GameRecord& record) {
  return to_json(record, std::get<records::Replay>(records::replay(record)));
}

std::string error_of(const json& value) {
  try {
    record_from_json(value);
  } catch (const RequestError& error) {
    return error.what();
  }
  return "(no error)";
}

TEST(RecordJson, HasTheDocumentedShape) {
  const json value = as_json(played_game(1, BearOff::Exact));
  EXPECT_EQ(value["rules"], json({{"name", "finkel"}, {"pieces", 3}, {"bear_off", "exact"}}));
  EXPECT_EQ(value["tags"]["Rules"], "Finkel");
  const json& first = value["plies"][0];
  EXPECT_EQ(first["turn"], 1);
  EXPECT_EQ(first["side"], "light");
  EXPECT_TRUE(first["roll"].is_number_integer());
  EXPECT_TRUE(first["position"].is_object());
  EXPECT_TRUE(first["move"].is_null() || first["move"]["from"] == 0);
  EXPECT_TRUE(first["rgn"].is_string());
  EXPECT_TRUE(value["result"]["winner"] == "light" || value["result"]["winner"] == "dark");
}

TEST(RecordJson, EachPlyCarriesItsRgnAction) {
  const auto games = parse_record_text("1. A@A1 * A1B2 / C@C3\n2. 0 -- / C3C1 * C@C2\n");
  ASSERT_TRUE(std::holds_alternative<std::vector<records::GameRecord>>(games));
  const json value = as_json(std::get<0>(games).front());
  std::vector<std::string> actions;
  for (const json& ply : value["plies"]) actions.push_back(ply["rgn"].get<std::string>());
  EXPECT_EQ(actions,
            (std::vector<std::string>{"A@A1 *", "A1B2", "C@C3", "0 --", "C3C1 *", "C@C2"}));
}

TEST(RecordJson, RoundTripsEveryPlyExactly) {
  for (std::uint64_t seed = 0; seed < 200; ++seed) {
    for (BearOff bear_off : {BearOff::Exact, BearOff::Any}) {
      const records::GameRecord record = played_game(seed, bear_off);
      const records::GameRecord back = record_from_json(as_json(record));
      ASSERT_EQ(back.plies, record.plies) << seed;
      ASSERT_EQ(back.rules, record.rules);
      // ur's tags come back in ur's order, so RGN from JSON is RGN from the game.
      ASSERT_EQ(records::write_rgn(back), records::write_rgn(record));
    }
  }
}

// Masters, Aseb and a custom set: the rules member names the set (every column for the
// custom one), and plies, rules and RGN come back the same.
TEST(RecordJson, OtherRuleSetsRoundTrip) {
  RuleSpec murray = find_rule_set("masters")->spec;
  murray.path = PathKind::Murray;
  murray.pieces = 3;
  for (const RuleSpec& spec :
       {find_rule_set("masters")->spec, find_rule_set("aseb")->spec, murray}) {
    const Rules rules(spec);
    for (std::uint64_t seed = 0; seed < 40; ++seed) {
      session::Settings settings;
      settings.rules = rules;
      settings.seats = {session::Seat{"random", {}}, session::Seat{"greedy", {}}};
      session::Session game = session::Session::start(settings, seed, 0);
      game.drive(session::standard_agents(), 0, 100'000);
      const records::GameRecord record = records::records_of_series(game).front();
      const json value = as_json(record);
      EXPECT_EQ(value["rules"]["name"], std::string(rule_set_name(rules)));
      EXPECT_EQ(value["tags"]["Rules"], records::rules_tags(rules).front().value);
      const records::GameRecord back = record_from_json(value);
      ASSERT_EQ(back.plies, record.plies) << seed;
      ASSERT_EQ(back.rules, record.rules);
      ASSERT_EQ(records::write_rgn(back), records::write_rgn(record));
    }
  }
}

TEST(RecordJson, BadRecordsNameTheMemberAndWhatIsExpected) {
  json value = as_json(played_game(4, BearOff::Exact));
  json extra = value;
  extra["moves"] = 1;
  EXPECT_NE(error_of(extra).find("unknown member \"moves\""), std::string::npos);
  json side = value;
  side["plies"][0]["side"] = "blue";
  EXPECT_EQ(error_of(side), "plies[0].side must be \"light\" or \"dark\", got \"blue\"");
  json roll = value;
  roll["plies"][0]["roll"] = 9;
  EXPECT_EQ(error_of(roll).rfind("plies[0]: roll must be an integer", 0), 0u) << error_of(roll);
  roll["plies"][0]["roll"] = 1.0;
  EXPECT_EQ(error_of(roll).rfind("plies[0]: roll must be an integer", 0), 0u) << error_of(roll);
  json from = value;
  from["plies"][0]["move"] = {{"from", "a"}, {"to", 2}};
  EXPECT_EQ(error_of(from).rfind("plies[0].move: ", 0), 0u) << error_of(from);
  json impossible = value;
  impossible["plies"][0]["position"]["light"]["start"] = 0;
  EXPECT_EQ(error_of(impossible).rfind("plies[0].position: ", 0), 0u) << error_of(impossible);
  json moved = value;
  for (json& ply : moved["plies"]) {
    if (!ply["move"].is_null()) {
      ply["move"]["to"] = ply["move"]["to"].get<int>() == 4 ? 3 : 4;
      break;
    }
  }
  EXPECT_NE(error_of(moved).find(": turn "), std::string::npos) << error_of(moved);
  json position = value;
  position["plies"][0]["position"]["turn"] =
      position["plies"][0]["position"]["turn"] == "light" ? "dark" : "light";
  EXPECT_NE(error_of(position).find("plies[0].position is not the position after the ply"),
            std::string::npos);
  EXPECT_NE(error_of(json::array()).find("must be an object"), std::string::npos);
}

// Members that repeat what the plies decide (turn, capture, extra_throw, rgn, the winner) and
// rules tags beside "rules" were read without a check: RGN written from such a record was one
// ur itself refuses.
TEST(RecordJson, MembersThatContradictThePliesOrTheRulesAreRefused) {
  const records::GameRecord game = played_game(4, BearOff::Exact);
  const json value = as_json(game);
  ASSERT_EQ(error_of(value), "(no error)");
  json turn = value;
  turn["plies"][0]["turn"] = 99;
  EXPECT_EQ(error_of(turn), "plies[0].turn is 99, but the ply makes it 1");
  json capture = value;
  capture["plies"][0]["capture"] = !capture["plies"][0]["capture"].get<bool>();
  EXPECT_NE(error_of(capture).find("plies[0].capture is"), std::string::npos) << error_of(capture);
  json rgn = value;
  rgn["plies"][0]["rgn"] = "B4B8";
  EXPECT_NE(error_of(rgn).find("plies[0].rgn is \"B4B8\""), std::string::npos) << error_of(rgn);
  json unknown = value;
  unknown["plies"][0]["note"] = "x";
  EXPECT_NE(error_of(unknown).find("unknown member \"note\" in plies[0]"), std::string::npos);
  json winner = value;
  const std::string won = value["result"]["winner"].get<std::string>();
  winner["result"]["winner"] = won == "light" ? "dark" : "light";
  EXPECT_NE(error_of(winner).find("result.winner is"), std::string::npos) << error_of(winner);
  // From a review: "but the ply makes it null" for a game the plies leave unfinished.
  json unfinished = value;
  unfinished["plies"].erase(unfinished["plies"].size() - 1);
  unfinished["tags"].erase("Result");
  EXPECT_EQ(error_of(unfinished),
            "result.winner is \"" + won + "\", but the plies end with no winner: expected null");
  // From a review: a game won on the board was accepted as also resigned, and RGN written from
  // it dropped the resignation.
  json resigned = value;
  resigned["result"]["resigned"] = won;
  EXPECT_NE(error_of(resigned).find("result.resigned is \"" + won + "\", but " + won +
                                    " won on the board, so nobody resigned"),
            std::string::npos)
      << error_of(resigned);
  json rules = value;
  rules["tags"]["Rules"] = "Masters";
  EXPECT_NE(error_of(rules).find("the tags name other rules (Rules Masters"), std::string::npos)
      << error_of(rules);
  json result = value;
  result["tags"]["Result"] = won == "light" ? "0-1" : "1-0";
  EXPECT_NE(error_of(result).find("tags.Result: the Result tag says"), std::string::npos)
      << error_of(result);
  json pieces = value;
  pieces["tags"]["Pieces"] = "7";
  EXPECT_NE(error_of(pieces).find("the tags name other rules"), std::string::npos)
      << error_of(pieces);
}

// Fuzz: mutated records are refused with a RequestError or read consistently.
// A record line repeating a key was read with the last value, and 1e400 was an uncaught
// library error.
TEST(RecordJson, ARepeatedKeyOrAHugeNumberIsRefusedWithItsLine) {
  const auto repeated = parse_record_text("{\"rules\":{\"pieces\":7,\"pieces\":3}}\n");
  ASSERT_TRUE(std::holds_alternative<std::string>(repeated));
  EXPECT_EQ(std::get<std::string>(repeated).rfind(
                "line 1: not JSON (the key \"pieces\" appears twice", 0),
            0u)
      << std::get<std::string>(repeated);
  const auto huge = parse_record_text("\n{\"rules\":1e400}\n");
  ASSERT_TRUE(std::holds_alternative<std::string>(huge));
  EXPECT_EQ(std::get<std::string>(huge).rfind("line 2: not JSON (number overflow", 0), 0u)
      << std::get<std::string>(huge);
  const auto broken = parse_record_text("{\"rules\":}\n");
  ASSERT_TRUE(std::holds_alternative<std::string>(broken));
  EXPECT_EQ(std::get<std::string>(broken).rfind("line 1, column 10: not JSON (", 0), 0u)
      << std::get<std::string>(broken);
}

// A JSON record naming a resignation without a Result tag was written to RGN with its # and
// no Result, which the RGN reader refuses (only the tag says who resigned there).
TEST(RecordJson, AResignationWithoutAResultTagStillReadsBackFromRgn) {
  json value = as_json(played_game(4, BearOff::Exact));
  json two = json::array();
  two.push_back(value["plies"][0]);
  two.push_back(value["plies"][1]);
  value["plies"] = std::move(two);
  // Dark resigns after its first move: light wins.
  value["result"] = {{"winner", "light"}, {"resigned", "dark"}};
  value["tags"].erase("Result");
  const records::GameRecord record = record_from_json(value);
  const auto read = records::read_rgn(records::write_rgn({record}));
  ASSERT_EQ(read.index(), 0u) << std::get<records::ParseError>(read).message;
  EXPECT_EQ(std::get<0>(read).front().resigned, record.resigned);
}

TEST(RecordJsonFuzz, MutatedRecordsNeverCrash) {
  std::mt19937_64 random(7);
  const json valid = as_json(played_game(9, BearOff::Any));
  const std::string text = valid.dump();
  for (int round = 0; round < 2000; ++round) {
    std::string mutated = text;
    for (int edits = 1 + random() % 3; edits > 0; --edits) {
      const std::size_t at = random() % mutated.size();
      const char pool[] = "0123456789,:{}[]\"abtrue-";
      mutated[at] = pool[random() % (sizeof pool - 1)];
    }
    const json parsed = json::parse(mutated, nullptr, false);
    if (parsed.is_discarded()) continue;
    try {
      const records::GameRecord record = record_from_json(parsed);
      EXPECT_TRUE(std::holds_alternative<records::Replay>(records::replay(record)));
    } catch (const RequestError& error) {
      EXPECT_GT(std::string(error.what()).size(), 5u);
    }
  }
}

}  // namespace
}  // namespace ur::protocol
