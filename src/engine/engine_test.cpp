// The engine protocol in process: every command, every kind of bad line, and fuzzing.
#include <gtest/gtest.h>

#include <random>

#include "core/perft.h"
#include "core/rule_sets.h"
#include "core/test_support.h"
#include "engine/handler.h"

namespace ur::engine {
namespace {

using nlohmann::json;

const Rules kFinkel = finkel_rules();
const std::string kOpening =
    R"({"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})";

json ask(const std::string& line) {
  return json::parse(answer(line));
}

std::string error_of(const std::string& line) {
  const json reply = ask(line);
  EXPECT_TRUE(reply.contains("error")) << line << " -> " << reply;
  return reply.value("error", "");
}

std::string position_json(std::string_view text, const Rules& rules = kFinkel) {
  return protocol::to_json(testing::parse_or_die(text, rules)).dump();
}

TEST(EngineMoves, ListsMovesSortedByFrom) {
  EXPECT_EQ(ask(R"({"cmd":"moves","position":)" + kOpening + R"(,"roll":4})"),
            json::parse(R"({"moves":[{"from":0,"to":4,"capture":false,"extra_throw":true}]})"));
  const json reply =
      ask(R"({"cmd":"moves","roll":2,"position":)" + position_json("L:4/4,6,9/0:6/11/0") + "}");
  EXPECT_EQ(reply, json::parse(R"({"moves":[
      {"from":0,"to":2,"capture":false,"extra_throw":false},
      {"from":6,"to":8,"capture":false,"extra_throw":true},
      {"from":9,"to":11,"capture":true,"extra_throw":false}]})"))
      << reply;
}

TEST(EngineMoves, EmptyListWhenTheSideMustPass) {
  EXPECT_EQ(ask(R"({"cmd":"moves","position":)" + kOpening + R"(,"roll":0})"),
            json::parse(R"({"moves":[]})"));
}

TEST(EngineMoves, RulesMemberChangesPiecesAndBearOff) {
  const std::string position = position_json("L:2/13/0:3/-/0", finkel_rules(3));
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":4,"rules":{"pieces":3},"position":)" + position + "}"),
            json::parse(R"({"moves":[{"from":0,"to":4,"capture":false,"extra_throw":true}]})"));
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":4,"rules":{"pieces":3,"bear_off":"any"},"position":)" +
                position + "}"),
            json::parse(R"({"moves":[{"from":0,"to":4,"capture":false,"extra_throw":true},
                               {"from":13,"to":15,"capture":false,"extra_throw":false}]})"));
}

TEST(EngineApply, MovesCapturesAndPasses) {
  const std::string position = position_json("L:6/4/0:6/6/0");
  EXPECT_EQ(ask(R"({"cmd":"apply","roll":2,"move":{"from":4},"position":)" + position + "}"),
            json::parse(R"({"position":)" + position_json("D:6/6/0:7/-/0") +
                        R"(,"extra_throw":false,"winner":null})"));
  EXPECT_EQ(ask(R"({"cmd":"apply","roll":0,"move":null,"position":)" + position + "}"),
            json::parse(R"({"position":)" + position_json("D:6/4/0:6/6/0") +
                        R"(,"extra_throw":false,"winner":null})"));
}

TEST(EngineApply, RosetteKeepsTheTurn) {
  EXPECT_EQ(ask(R"({"cmd":"apply","roll":4,"move":{"from":0},"position":)" + kOpening + "}"),
            json::parse(R"({"position":)" + position_json("L:6/4/0:7/-/0") +
                        R"(,"extra_throw":true,"winner":null})"));
}

TEST(EngineApply, LastPieceHomeWins) {
  EXPECT_EQ(ask(R"({"cmd":"apply","roll":1,"move":{"from":14},"position":)" +
                position_json("D:4/3/2:0/14/6") + "}"),
            json::parse(R"({"position":)" + position_json("L:4/3/2:0/-/7") +
                        R"(,"extra_throw":false,"winner":"dark"})"));
}

TEST(EnginePerft, CountsLikeTheLibrary) {
  EXPECT_EQ(ask(R"({"cmd":"perft","depth":0,"position":)" + kOpening + "}"),
            json::parse(R"({"nodes":1})"));
  EXPECT_EQ(ask(R"({"cmd":"perft","depth":4,"position":)" + kOpening + "}")["nodes"],
            perft(kFinkel, starting_position(kFinkel), 4));
  EXPECT_EQ(ask(R"({"cmd":"perft","depth":3,"position":)" + position_json("L:0/-/7:3/9/3") + "}"),
            json::parse(R"({"nodes":1})"));  // a finished game is a leaf
  EXPECT_EQ(error_of(R"({"cmd":"perft","depth":13,"position":)" + kOpening + "}"),
            "depth must be an integer 0..12, got 13");
  EXPECT_EQ(error_of(R"({"cmd":"perft","position":)" + kOpening + "}"),
            "request is missing \"depth\" (an integer 0..12)");
}

Rules named(std::string_view name) {
  return Rules(find_rule_set(name)->spec);
}

json move_json(int from, int to, bool capture, bool extra_throw) {
  return {{"from", from}, {"to", to}, {"capture", capture}, {"extra_throw", extra_throw}};
}

// Masters: three dice, so a throw moves 1 to 4 (no marks counts as 4) and never 0; light's
// square 12 is C7, dark's 16 (the same tile, renumbered), and rosettes are not safe there.
TEST(EngineRuleSets, MastersMovesApplyAndPerft) {
  const Rules masters = named("masters");
  const std::string rules = R"("rules":{"name":"masters"})";
  const std::string opening = protocol::to_json(starting_position(masters)).dump();
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":4,)" + rules + R"(,"position":)" + opening + "}"),
            json({{"moves", {move_json(0, 4, false, true)}}}));
  const std::string position = position_json("L:6/11/0:6/16/0", masters);
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":1,)" + rules + R"(,"position":)" + position + "}"),
            json({{"moves", {move_json(0, 1, false, false), move_json(11, 12, true, true)}}}));
  EXPECT_EQ(ask(R"({"cmd":"apply","roll":1,"move":{"from":11},)" + rules + R"(,"position":)" +
                position + "}"),
            json::parse(R"({"position":)" + position_json("L:6/12/0:7/-/0", masters) +
                        R"(,"extra_throw":true,"winner":null})"));
  EXPECT_EQ(
      ask(R"({"cmd":"perft","depth":3,)" + rules + R"(,"position":)" + opening + "}")["nodes"],
      perft(masters, starting_position(masters), 3));
  EXPECT_EQ(error_of(R"({"cmd":"moves","roll":0,)" + rules + R"(,"position":)" + opening + "}"),
            "roll must be an integer 1..4 (the distance moved), got 0");
  EXPECT_NE(error_of(R"({"cmd":"moves","roll":5,)" + rules + R"(,"position":)" + opening + "}")
                .find("roll"),
            std::string::npos);
}

// Blitz: five pieces on the Masters path, and a capture throws again.
TEST(EngineRuleSets, BlitzCaptureThrowsAgain) {
  const Rules blitz = named("blitz");
  const std::string position = position_json("L:4/9/0:4/10/0", blitz);
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":1,"rules":{"name":"blitz"},"position":)" + position + "}"),
            json({{"moves", {move_json(0, 1, false, false), move_json(9, 10, true, true)}}}));
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":0,"rules":{"name":"blitz"},"position":)" + position + "}"),
            json({{"moves", json::array()}}));
}

// Aseb: a 16-square path down a 12-tile shared lane; B8 (square 12) is a safe rosette.
TEST(EngineRuleSets, AsebSafeRosetteBlocksACapture) {
  const Rules aseb = named("aseb");
  const std::string position = position_json("L:4/10/0:4/12/0", aseb);
  EXPECT_EQ(ask(R"({"cmd":"moves","roll":2,"rules":{"name":"aseb"},"position":)" + position + "}"),
            json({{"moves", {move_json(0, 2, false, false)}}}));
  EXPECT_EQ(
      ask(R"({"cmd":"apply","roll":1,"move":{"from":16},"rules":{"name":"aseb"},"position":)" +
          position_json("L:0/16/4:5/-/0", aseb) + "}"),
      json::parse(R"({"position":)" + position_json("D:0/-/5:5/-/0", aseb) +
                  R"(,"extra_throw":false,"winner":"light"})"));
  EXPECT_EQ(ask(R"({"cmd":"perft","depth":2,"rules":{"name":"aseb"},"position":)" +
                protocol::to_json(starting_position(aseb)).dump() + "}")["nodes"],
            perft(aseb, starting_position(aseb), 2));
}

TEST(EngineRuleSets, BadRulesSayWhatIsWrong) {
  EXPECT_EQ(
      error_of(R"({"cmd":"moves","roll":1,"rules":{"name":"chess"},"position":)" + kOpening + "}"),
      R"(rules.name must be one of finkel, masters, blitz, aseb (or "custom"), got "chess")");
  EXPECT_EQ(
      error_of(R"({"cmd":"moves","roll":1,"rules":{"board":"aseb","path":"masters"},"position":)" +
               kOpening + "}")
          .rfind("these rules cannot be played: ", 0),
      0u);
}

TEST(EngineProtocol, IdIsEchoedOnAnswersAndErrors) {
  EXPECT_EQ(ask(R"({"id":42,"cmd":"perft","depth":0,"position":)" + kOpening + "}"),
            json::parse(R"({"nodes":1,"id":42})"));
  EXPECT_EQ(ask(R"({"id":"a","cmd":"nope"})")["id"], "a");
}

TEST(EngineProtocol, KnownCommandsIncludeTheRulesCommands) {
  const auto names = known_commands();
  for (const char* name : {"apply", "moves", "perft"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end()) << name;
  }
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
}

// Each bad line with a part of the error it must produce. After each one, a good request is
// still answered correctly: nothing carries over from a bad line.
TEST(EngineProtocol, EveryKindOfBadLineIsAnsweredWithASpecificError) {
  const std::string finished = position_json("D:4/3/2:0/-/7");
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"hello", "not valid JSON"},
      {R"({"cmd":"moves")", "not valid JSON"},
      {"", "empty request"},
      {"[1,2,3]", "a request must be a JSON object"},
      {R"({"roll":2})", R"(request is missing "cmd")"},
      {R"({"cmd":7})", "cmd must be a string naming a command (apply, "},
      {R"({"cmd":"jump"})", R"(unknown cmd "jump"; known commands: apply, )"},
      {R"({"cmd":"moves","roll":2})", R"(request is missing "position")"},
      {R"({"cmd":"moves","position":)" + kOpening + "}", R"(request is missing "roll")"},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"light","light":{"start":7,"home":1,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})",
       "impossible position: light has 8 pieces"},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"light","light":{"start":5,"home":0,"board":[3,3]},"dark":{"start":7,"home":0,"board":[]}}})",
       "increasing order without repeats"},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"light","light":{"start":6,"home":0,"board":[9]},"dark":{"start":6,"home":0,"board":[9]}}})",
       "both stand on shared square 9"},
      {R"({"cmd":"moves","roll":2,"position":{"turn":"up","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}}})",
       "position.turn must be"},
      {R"({"cmd":"moves","roll":5,"position":)" + kOpening + "}", "roll must be an integer 0..4"},
      {R"({"cmd":"moves","roll":-1,"position":)" + kOpening + "}", "roll must be an integer 0..4"},
      {R"({"cmd":"moves","roll":1.5,"position":)" + kOpening + "}", "roll must be an integer 0..4"},
      {R"({"cmd":"moves","roll":2,"rules":{"pieces":9},"position":)" + kOpening + "}",
       "rules.pieces must be an integer 1..7"},
      {R"({"cmd":"moves","roll":2,"rules":{"bear_off":"never"},"position":)" + kOpening + "}",
       "rules.bear_off must be"},
      {R"({"cmd":"moves","roll":2,"position":)" + finished + "}",
       "the game is over: dark has all pieces home"},
      {R"({"cmd":"apply","roll":2,"move":{"from":0},"position":)" + finished + "}",
       "the game is over"},
      {R"({"cmd":"apply","roll":2,"move":{"from":5},"position":)" + kOpening + "}",
       "move from 5 is not legal with roll 2: You have no piece on square 5. Legal moves start "
       "from 0"},
      {R"({"cmd":"apply","roll":2,"move":null,"position":)" + kOpening + "}",
       "\"move\":null passes, but roll 2 has legal moves from 0"},
      {R"({"cmd":"apply","roll":0,"move":{"from":0},"position":)" + kOpening + "}",
       "roll 0 has no legal move, so the turn must pass"},
      {R"({"cmd":"apply","roll":2,"position":)" + kOpening + "}", R"(request is missing "move")"},
      {R"({"cmd":"apply","roll":2,"move":"0","position":)" + kOpening + "}",
       "move must be {\"from\":f} or null"},
  };
  const std::string good = R"({"cmd":"moves","roll":1,"position":)" + kOpening + "}";
  const json good_answer =
      json::parse(R"({"moves":[{"from":0,"to":1,"capture":false,"extra_throw":false}]})");
  for (const auto& [line, expected] : cases) {
    const std::string error = error_of(line);
    EXPECT_NE(error.find(expected), std::string::npos)
        << "line: " << line << "\nerror: " << error << "\nexpected part: " << expected;
    EXPECT_EQ(ask(good), good_answer);
  }
}

// From a review: {"Rules":{"name":"masters"}} was answered under Finkel's rules, and
// {"agnet":"random"} by `hard`: a misspelt member was dropped as the client's bookkeeping.
TEST(EngineProtocol, AMemberCloseToAKnownOneIsTakenForATypo) {
  const std::string perft = R"({"cmd":"perft","depth":1,"position":)" + kOpening;
  for (const auto& [member, known] :
       std::vector<std::pair<std::string, std::string>>{{"Rules", "rules"},
                                                        {"rule", "rules"},
                                                        {"agnet", "agent"},
                                                        {"POSITION", "position"},
                                                        {"dpeth", "depth"},
                                                        {"sed", "seed"}}) {
    EXPECT_EQ(error_of(perft + ",\"" + member + "\":1}"),
              "unknown member \"" + member + "\": did you mean \"" + known +
                  "\"? Members the protocol does not use are ignored, but not one this close to "
                  "a member it does")
        << member;
  }
  // Bookkeeping that looks like no member is still ignored.
  for (const std::string member : {"ids", "tag", "note", "client", "request_id", "game"}) {
    const json reply = ask(perft + ",\"" + member + "\":1}");
    EXPECT_TRUE(reply.contains("nodes") && !reply.contains("error")) << member << " " << reply;
  }
}

TEST(EngineProtocol, OverlongAndDeeplyNestedLinesAreRefused) {
  EXPECT_NE(error_of(std::string(kMaxLineBytes + 1, ' ')).find("longer than 1048576 bytes"),
            std::string::npos);
  EXPECT_NE(error_of(std::string(200000, '[')).find("levels deep"), std::string::npos);
  const std::string nested = std::string(100000, '[') + std::string(100000, ']');
  EXPECT_NE(error_of(nested).find("levels deep"), std::string::npos);
  const std::string in_string = "{\"cmd\":\"" + std::string(1000, '[') + "\"}";
  EXPECT_NE(error_of(in_string).find("unknown cmd"), std::string::npos);
}

// A number past a double's range was answered "internal error: [json.exception.out_of_range.406]".
TEST(EngineProtocol, ANumberTooLargeIsNotValidJsonRatherThanAnInternalError) {
  const std::string error = error_of(R"({"cmd":"moves","id":1e400})");
  EXPECT_NE(error.find("not valid JSON (number overflow parsing '1e400')"), std::string::npos)
      << error;
  EXPECT_EQ(error.find("internal error"), std::string::npos) << error;
}

// {"cmd":"moves","cmd":"apply"} ran whichever key came last; an "id" of null was dropped from
// the answer, though any JSON value is an id.
TEST(EngineProtocol, ARepeatedKeyIsRefusedAndANullIdIsEchoed) {
  const json repeated = ask(R"({"id":7,"cmd":"moves","cmd":"apply"})");
  EXPECT_NE(repeated.value("error", "").find("the key \"cmd\" appears twice in one object"),
            std::string::npos)
      << repeated;
  // From a review: the refusal lost the request's id, which a client matches answers by.
  EXPECT_EQ(repeated.value("id", 0), 7) << repeated;
  EXPECT_EQ(ask(R"({"id":8,"cmd":"x","a":{"b":1,"b":2}})").value("id", 0), 8);
  EXPECT_FALSE(ask(R"({"id":1,"id":2,"cmd":"x"})").contains("id")) << "which one?";
  const json null_id = ask(R"({"cmd":"fly","id":null})");
  ASSERT_TRUE(null_id.contains("id")) << null_id;
  EXPECT_TRUE(null_id["id"].is_null());
  EXPECT_FALSE(ask(R"({"cmd":"fly"})").contains("id"));
}

// A request refused for its nesting, a NUL byte or broken JSON lost its "id", so a client
// matching answers by id could not tell which request failed.
TEST(EngineProtocol, ARefusedRequestKeepsTheIdItNamedBeforeTheFault) {
  const json nested = ask(R"({"id":"deep","cmd":"moves","x":)" + std::string(300, '[') + "}");
  EXPECT_NE(nested.value("error", "").find("levels deep"), std::string::npos) << nested;
  EXPECT_EQ(nested.value("id", ""), "deep") << nested;
  const json nul = ask(std::string(R"({"id":12,"cmd":"mo)") + '\0' + R"(ves"})");
  EXPECT_NE(nul.value("error", "").find("NUL byte at byte 19"), std::string::npos) << nul;
  EXPECT_EQ(nul.value("id", 0), 12) << nul;
  const json broken = ask(R"({"id":[1,2],"cmd":"moves",})");
  EXPECT_NE(broken.value("error", "").find("not valid JSON"), std::string::npos) << broken;
  EXPECT_EQ(broken.value("id", json()), json::parse("[1,2]")) << broken;
  EXPECT_EQ(ask(R"({"id":false,"cmd":"moves",)").value("id", true), false);
  EXPECT_EQ(ask(R"({"id":-3,"cmd":"moves" "roll":2})").value("id", 0), -3);
  EXPECT_EQ(ask(R"({"id":0.5,"cmd":"moves" "roll":2})").value("id", 0.0), 0.5);
  // Only a member of the request itself is its id, and only one named once.
  EXPECT_FALSE(ask(R"({"cmd":"moves","x":{"id":3},)").contains("id"));
  EXPECT_FALSE(ask(R"([{"id":3},)").contains("id"));
  EXPECT_FALSE(ask(R"({"id":1,"id":2,"cmd":"moves",)").contains("id"));
  // An id cut off by the fault is no id.
  EXPECT_FALSE(ask(R"({"cmd":"moves","id":[1,)" + std::string(300, '[')).contains("id"));
}

TEST(EngineProtocol, InvalidUtf8IsAnsweredWithValidJson) {
  const std::string line = "{\"cmd\":\"\xff\xfe\"}";
  const std::string reply = answer(line);
  EXPECT_NO_THROW(json::parse(reply)) << reply;
  const std::string in_name = "{\"cmd\":\"mo\xc3\"}";
  EXPECT_NO_THROW(json::parse(answer(in_name)));
}

// A valid request of a random kind for a random position, as a JSON value.
json random_request(std::mt19937_64& random) {
  // Half the requests play Finkel's variants, half another named set.
  const auto sets = named_rule_sets();
  const Rules rules =
      random() % 2 == 0 ? testing::random_rules(random) : Rules(sets[random() % sets.size()].spec);
  Position position = testing::random_position(random, rules);
  while (is_game_over(rules, position)) position = testing::random_position(random, rules);
  Roll roll = testing::random_roll(random, rules);
  while (!possible_roll(rules, roll)) roll = static_cast<Roll>(random() % (rules.max_roll() + 1));
  json request = {{"position", protocol::to_json(position)}, {"rules", protocol::to_json(rules)}};
  switch (random() % 3) {
    case 0:
      request["cmd"] = "moves";
      request["roll"] = roll;
      break;
    case 1: {
      request["cmd"] = "apply";
      request["roll"] = roll;
      const MoveList moves = legal_moves(rules, position, roll);
      request["move"] =
          moves.empty() ? json(nullptr) : json{{"from", moves[random() % moves.size()].from}};
      break;
    }
    default:
      request["cmd"] = "perft";
      request["depth"] = random() % 3;
  }
  return request;
}

constexpr std::string_view kJsonAlphabet = "{}[]\":,0123456789-.eE ntrufalsx\\\xff";

TEST(EngineFuzz, GarbledLinesAreAlwaysAnsweredWithOneJsonObject) {
  std::mt19937_64 random(11);
  int errors = 0;
  for (int i = 0; i < 20000; ++i) {
    std::string line;
    switch (i % 3) {
      case 0:
        line = testing::damage_text(random_request(random).dump(), random, kJsonAlphabet);
        break;
      case 1: {
        json request = random_request(random);
        const char* keys[] = {"cmd", "position", "roll", "move", "depth", "rules"};
        const json junk[] = {nullptr, -3, 99, "moves", json::array(), json::object(), 2.5};
        request[keys[random() % std::size(keys)]] = junk[random() % std::size(junk)];
        line = request.dump();
        break;
      }
      default:
        line = testing::random_text(random, std::string_view("\x01\n\xff{}[]\"a1", 10), 80);
    }
    std::string reply;
    ASSERT_NO_THROW(reply = answer(line)) << line;
    ASSERT_EQ(reply.find('\n'), std::string::npos);
    const json parsed = json::parse(reply);
    ASSERT_TRUE(parsed.is_object()) << reply;
    if (parsed.contains("error")) {
      ++errors;
      EXPECT_EQ(parsed["error"].get<std::string>().rfind("internal error", 0), std::string::npos)
          << line << " -> " << reply;
    }
  }
  EXPECT_GT(errors, 10000);
}

TEST(EngineFuzz, ValidRandomRequestsNeverFail) {
  std::mt19937_64 random(12);
  for (int i = 0; i < 5000; ++i) {
    const std::string line = random_request(random).dump();
    const json reply = ask(line);
    ASSERT_FALSE(reply.contains("error")) << line << " -> " << reply;
  }
}

}  // namespace
}  // namespace ur::engine
