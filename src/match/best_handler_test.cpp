// The engine's "best" command through engine::answer, as a client sees it.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "engine/handler.h"

namespace ur::engine {
namespace {

using nlohmann::json;

const json kOpening = json::parse(
    R"({"turn":"light","light":{"start":7,"home":0,"board":[]},"dark":{"start":7,"home":0,"board":[]}})");

json ask(json request) {
  request["cmd"] = "best";
  return json::parse(answer(request.dump()));
}

TEST(Best, AnswersALegalMoveWithTheSearchValue) {
  const json reply = ask({{"position", kOpening}, {"roll", 4}, {"agent", "hard"}});
  ASSERT_FALSE(reply.contains("error")) << reply;
  EXPECT_EQ(reply["move"], json::parse(R"({"from":0,"to":4,"capture":false,"extra_throw":true})"));
  ASSERT_TRUE(reply["value"].is_number());
  EXPECT_GT(reply["value"].get<double>(), 0.5);  // a throw again from the opening is good
  EXPECT_LT(reply["value"].get<double>(), 1.0);
}

TEST(Best, DefaultsToHardAndGivesNoValueForHeuristicAgents) {
  EXPECT_TRUE(ask({{"position", kOpening}, {"roll", 2}})["value"].is_number());
  const json reply = ask({{"position", kOpening}, {"roll", 2}, {"agent", "greedy"}});
  EXPECT_TRUE(reply["value"].is_null()) << reply;
  EXPECT_EQ(reply["move"]["to"], 2);
}

TEST(Best, CapturesWhenItMatters) {
  // Light on 6 can take dark's piece on 9 with a 3; expectimax sees it.
  const json position = json::parse(
      R"({"turn":"light","light":{"start":6,"home":0,"board":[6]},"dark":{"start":6,"home":0,"board":[9]}})");
  const json reply = ask({{"position", position}, {"roll", 3}, {"agent", "expectimax:2"}});
  EXPECT_EQ(reply["move"]["from"], 6) << reply;
  EXPECT_EQ(reply["move"]["capture"], true) << reply;
}

TEST(Best, AnswersAPassWithTheReasonWhenNoMoveExists) {
  const json reply = ask({{"position", kOpening}, {"roll", 0}, {"agent", "hard"}});
  EXPECT_TRUE(reply["move"].is_null()) << reply;
  EXPECT_TRUE(reply["value"].is_null());
  EXPECT_FALSE(reply["pass"].get<std::string>().empty());
}

TEST(Best, RejectsBadAgentsAndInputs) {
  const auto error_of = [](json request) {
    const json reply = ask(std::move(request));
    return reply.contains("error") ? reply["error"].get<std::string>() : std::string();
  };
  EXPECT_NE(error_of({{"position", kOpening}, {"roll", 2}, {"agent", "expectimax:0"}})
                .find("accepted specs"),
            std::string::npos);
  EXPECT_NE(error_of({{"position", kOpening}, {"roll", 2}, {"agent", "wizard"}}).find("wizard"),
            std::string::npos);
  EXPECT_NE(
      error_of({{"position", kOpening}, {"roll", 2}, {"agent", 3}}).find("agent must be a string"),
      std::string::npos);
  EXPECT_NE(error_of({{"position", kOpening}, {"roll", 2}, {"seed", -1}}).find("seed"),
            std::string::npos);
  EXPECT_FALSE(error_of({{"roll", 2}}).empty());
  EXPECT_FALSE(error_of({{"position", kOpening}, {"roll", 5}}).empty());
  const json finished = json::parse(
      R"({"turn":"dark","light":{"start":0,"home":7,"board":[]},"dark":{"start":7,"home":0,"board":[]}})");
  EXPECT_FALSE(error_of({{"position", finished}, {"roll", 2}}).empty());
}

// Seeds are 64-bit, as on the command line (docs/cli.md).
TEST(Best, SeedIsAny64BitUnsignedInteger) {
  // `seed` is spliced in as text: 2^64 and beyond cannot be built as a json value in code.
  const auto ask_with_seed = [](const std::string& seed) {
    json request = json::parse(R"({"roll":2,"agent":"random","seed":)" + seed + "}");
    request["position"] = kOpening;
    return ask(std::move(request));
  };
  const json largest = ask_with_seed("18446744073709551615");
  EXPECT_TRUE(largest.contains("move")) << largest;
  for (const char* seed : {"-1", "18446744073709551616", "1.5", "\"3\""}) {
    const json reply = ask_with_seed(seed);
    ASSERT_TRUE(reply.contains("error")) << seed;
    EXPECT_NE(reply["error"].get<std::string>().find("seed must be an integer "
                                                     "0..18446744073709551615"),
              std::string::npos)
        << reply;
  }
}

RC_GTEST_PROP(Best, GarbageAgentSpecsGetAnAnswer, ()) {
  // Printable text: requests arrive as parsed JSON, so strings are valid UTF-8.
  const auto spec = *rc::gen::container<std::string>(rc::gen::inRange<char>(32, 127));
  const json reply = ask({{"position", kOpening}, {"roll", 1}, {"agent", spec}, {"seed", 3}});
  RC_ASSERT(reply.contains("error") || reply.contains("move"));
}

}  // namespace
}  // namespace ur::engine
