// The table build endpoints (/api/tables/build) and the "table_missing" offer, driven
// through GameHub. Tables go to the hub's temporary data directory (also XDG_DATA_HOME), so
// no real table is touched.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <thread>

#include "core/rule_sets.h"
#include "server/hub.h"
#include "server/table_job.h"
#include "server/test_agent.h"
#include "tables/table.h"
#include "tables/table_store.h"

namespace ur::server {
namespace {

using nlohmann::json;

constexpr std::string_view kBuild = "/api/tables/build";

// A temporary data directory that is also XDG_DATA_HOME (where tables are saved) while the
// test runs.
class TableHome {
 public:
  TableHome() : directory_("ur-table-job-test-") {
    if (const char* old = std::getenv("XDG_DATA_HOME")) previous_ = old;
    ::setenv("XDG_DATA_HOME", directory_.path().c_str(), 1);
  }
  ~TableHome() {
    if (previous_) {
      ::setenv("XDG_DATA_HOME", previous_->c_str(), 1);
    } else {
      ::unsetenv("XDG_DATA_HOME");
    }
  }
  const std::filesystem::path& path() const { return directory_.path(); }

 private:
  testing::TempDir directory_;
  std::optional<std::string> previous_;
};

HubOptions options_for(const TableHome& home) {
  return testing::hub_options(home.path());
}

ApiResponse call(GameHub& hub, const std::string& method, std::string_view target,
                 const std::string& body = "") {
  return hub.handle({method, std::string(target), body});
}

// Polls GET until the build is no longer running; fails the test after a minute.
json wait_until_ended(GameHub& hub) {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::minutes(1);
  for (;;) {
    json state = call(hub, "GET", kBuild).body;
    if (state["state"] != "running") return state;
    if (std::chrono::steady_clock::now() > deadline) {
      ADD_FAILURE() << "the build did not end: " << state.dump();
      return state;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

TEST(ServerTableBuild, IsIdleBeforeAnyBuild) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse answer = call(hub, "GET", kBuild);
  ASSERT_EQ(answer.status, 200);
  EXPECT_EQ(answer.body["state"], "idle");
  EXPECT_TRUE(answer.body["pieces"].is_null());
  EXPECT_EQ(answer.body["fraction"], 0.0);
  EXPECT_FALSE(answer.body["message"].get<std::string>().empty());
  // Cancelling nothing is harmless.
  EXPECT_EQ(call(hub, "DELETE", kBuild).body["state"], "idle");
}

TEST(ServerTableBuild, BuildsASmallTableAndSavesIt) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse started = call(hub, "POST", kBuild, R"({"pieces":3,"bear_off":"any"})");
  ASSERT_EQ(started.status, 202) << started.body.dump();
  EXPECT_EQ(started.body["pieces"], 3);
  EXPECT_EQ(started.body["bear_off"], "any");
  const json ended = wait_until_ended(hub);
  EXPECT_EQ(ended["state"], "done") << ended.dump();
  EXPECT_EQ(ended["fraction"], 1.0);
  EXPECT_EQ(ended["eta_s"], 0.0);
  EXPECT_FALSE(ended["layers"].get<std::string>().empty());
  EXPECT_TRUE(std::filesystem::exists(tables::default_table_path(finkel_rules(3, BearOff::Any))));

  // Asking again: the table is there, nothing is built.
  const ApiResponse again = call(hub, "POST", kBuild, R"({"pieces":3,"bear_off":"any"})");
  EXPECT_EQ(again.status, 200);
  EXPECT_EQ(again.body["state"], "done");
  EXPECT_NE(again.body["message"].get<std::string>().find("ready"), std::string::npos);
}

// The offer names its set's rules in "build", the body that builds them: a Masters offer builds
// Masters' table, not Finkel's of the same pieces.
TEST(ServerTableBuild, TheOfferBuildsItsOwnSetsTable) {
  TableHome home;
  GameHub hub(options_for(home));
  RuleSpec masters = find_rule_set("masters")->spec;
  const auto seven = missing_table(Rules(masters));
  ASSERT_TRUE(seven);
  EXPECT_EQ((*seven)["build"],
            json::parse(R"({"rules":{"name":"masters","pieces":7,"bear_off":"exact"}})"));

  masters.pieces = 3;
  const ApiResponse started =
      call(hub, "POST", kBuild, R"({"rules":{"name":"masters","pieces":3,"bear_off":"exact"}})");
  ASSERT_EQ(started.status, 202) << started.body.dump();
  EXPECT_EQ(started.body["rules"], "masters");
  EXPECT_EQ(started.body["pieces"], 3);
  const json ended = wait_until_ended(hub);
  EXPECT_EQ(ended["state"], "done") << ended.dump();
  EXPECT_EQ(ended["rules"], "masters");
  EXPECT_TRUE(std::filesystem::exists(tables::default_table_path(Rules(masters))));
  EXPECT_FALSE(std::filesystem::exists(tables::default_table_path(finkel_rules(3))));
}

// `ur serve --data D` keeps everything it writes under D, built tables included, whatever
// XDG_DATA_HOME says.
TEST(ServerTableBuild, BuiltTablesGoToTheDataDirectory) {
  TableHome home;
  testing::TempDir data("ur-table-job-data-");
  GameHub hub(testing::hub_options(data.path()));
  ASSERT_EQ(call(hub, "POST", kBuild, R"({"pieces":3,"bear_off":"exact"})").status, 202);
  EXPECT_EQ(wait_until_ended(hub)["state"], "done");
  EXPECT_TRUE(std::filesystem::exists(data.path() / "ur-3p-exact.table"));
  EXPECT_FALSE(std::filesystem::exists(home.path() / "ur" / "ur-3p-exact.table"));
}

TEST(ServerTableBuild, CancelWritesNoFileAndTheServerServesMeanwhile) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse started = call(hub, "POST", kBuild, R"({"pieces":5,"bear_off":"exact"})");
  ASSERT_EQ(started.status, 202) << started.body.dump();
  EXPECT_EQ(started.body["state"], "running");
  EXPECT_EQ(started.body["cancelling"], false);

  // The hub keeps answering while the build runs on its own thread.
  EXPECT_EQ(call(hub, "GET", "/api/health").status, 200);
  EXPECT_EQ(call(hub, "POST", "/api/games", R"({"settings":{"opponent":"easy"}})").status, 201);
  // The same build again is no error; another one is refused while this one runs.
  EXPECT_EQ(call(hub, "POST", kBuild, R"({"pieces":5,"bear_off":"exact"})").status, 202);
  const ApiResponse other = call(hub, "POST", kBuild, R"({"pieces":7,"bear_off":"exact"})");
  EXPECT_EQ(other.status, 409);
  EXPECT_EQ(other.body["code"], "build_running");

  const ApiResponse cancelled = call(hub, "DELETE", kBuild);
  EXPECT_EQ(cancelled.status, 200);
  // Until the solver reaches the end of its sweep the build still runs, marked as stopping.
  EXPECT_TRUE(cancelled.body["state"] == "cancelled" ||
              (cancelled.body["state"] == "running" && cancelled.body["cancelling"] == true))
      << cancelled.body.dump();
  const json ended = wait_until_ended(hub);
  EXPECT_EQ(ended["state"], "cancelled") << ended.dump();
  EXPECT_FALSE(std::filesystem::exists(tables::default_table_path(finkel_rules(5))));
  // Not even a partial file is left behind.
  for (const auto& entry : std::filesystem::recursive_directory_iterator(home.path())) {
    EXPECT_NE(entry.path().extension(), ".table") << entry.path();
  }
}

// A review of a 6-piece record offers its table; the offer's body must start that build (a
// check meant for the settings' 7, 5 or 3 refused it).
TEST(ServerTableBuild, AnyOfferedRulesBuild) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse started =
      call(hub, "POST", kBuild, R"({"rules":{"name":"masters","pieces":2,"bear_off":"exact"}})");
  EXPECT_TRUE(started.status == 202 || started.status == 200) << started.body.dump();
  EXPECT_EQ(started.body["pieces"], 2) << started.body.dump();
}

TEST(ServerTableBuild, RefusesBadBodiesAndMethods) {
  TableHome home;
  GameHub hub(options_for(home));
  const std::vector<std::tuple<std::string, std::string, int, std::string>> cases = {
      {"POST", "", 400, "bad_request"},
      {"POST", "{bad json", 400, "bad_json"},
      {"POST", "[5]", 400, "bad_json"},
      {"POST", R"({"pieces":5})", 400, "bad_request"},
      {"POST", R"({"bear_off":"exact"})", 400, "bad_request"},
      {"POST", R"({"pieces":"5","bear_off":"exact"})", 400, "bad_request"},
      {"POST", R"({"pieces":4,"bear_off":"exact"})", 400, "bad_settings"},
      {"POST", R"({"pieces":5,"bear_off":"sideways"})", 400, "bad_settings"},
      {"POST", R"({"pieces":5,"bear_off":"exact","now":true})", 400, "bad_request"},
      {"POST", R"({"rules":"masters"})", 400, "bad_request"},
      {"POST", R"({"rules":{"name":"chess"}})", 400, "bad_settings"},
      // Both forms at once built the pieces of the second (a review found it).
      {"POST", R"({"rules":{"name":"finkel","pieces":2},"pieces":5})", 400, "bad_request"},
      {"POST", R"({"rules":{"name":"finkel","pieces":2},"bear_off":"any"})", 400, "bad_request"},
      {"POST", std::string(R"({"pieces":5,"bear_off":"exact"})") + '\0', 400, "bad_json"},
      {"PUT", R"({"pieces":5,"bear_off":"exact"})", 405, "bad_method"},
  };
  for (const auto& [method, body, status, code] : cases) {
    const ApiResponse answer = call(hub, method, kBuild, body);
    EXPECT_EQ(answer.status, status) << method << " " << body << ": " << answer.body.dump();
    EXPECT_EQ(answer.body["code"], code) << method << " " << body;
    EXPECT_FALSE(answer.body["error"].get<std::string>().empty());
  }
  EXPECT_EQ(call(hub, "GET", kBuild).body["state"], "idle");
  EXPECT_EQ(call(hub, "GET", "/api/tables").status, 404);
}

RC_GTEST_PROP(ServerTableBuild, GarbageBodiesNeverStartABuild, (const std::string& body)) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse answer = call(hub, "POST", kBuild, body);
  RC_ASSERT(answer.status == 400);
  RC_ASSERT(call(hub, "GET", kBuild).body["state"] == "idle");
}

TEST(ServerTableBuild, AMissingPerfectTableIsOfferedInTheSettingsError) {
  TableHome home;
  GameHub hub(options_for(home));
  const ApiResponse refused =
      call(hub, "POST", "/api/games", R"({"settings":{"opponent":"perfect","pieces":5}})");
  ASSERT_EQ(refused.status, 400);
  EXPECT_EQ(refused.body["code"], "bad_settings");
  EXPECT_NE(refused.body["error"].get<std::string>().find("perfect"), std::string::npos);
  // A visitor is not shown where the server keeps its files (its home directory, by default).
  EXPECT_EQ(refused.body["error"].get<std::string>().find(".table"), std::string::npos)
      << refused.body["error"];
  EXPECT_NE(refused.body["error"].get<std::string>().find("no solved table for 5 pieces"),
            std::string::npos)
      << refused.body["error"];
  const json& missing = refused.body["table_missing"];
  EXPECT_EQ(missing["pieces"], 5);
  EXPECT_EQ(missing["bear_off"], "exact");
  // 5 pieces take seconds: "a few seconds" or "about 10 seconds" with the machine's cores.
  const std::string estimate = missing["estimate"].get<std::string>();
  EXPECT_TRUE(estimate.starts_with("a few seconds") || estimate.starts_with("about ")) << estimate;
  EXPECT_GT(missing["estimate_s"].get<double>(), 0.0);

  // Three pieces solve on the fly: nothing to offer (the stand-in agent still refuses).
  const ApiResponse small =
      call(hub, "POST", "/api/games", R"({"settings":{"opponent":"perfect","pieces":3}})");
  EXPECT_EQ(small.status, 400);
  EXPECT_FALSE(small.body.contains("table_missing"));

  // The review says the same without a path, and offers the build only when the table is what
  // it lacks (a record of two games got the offer too).
  const ApiResponse review =
      call(hub, "POST", "/api/review", R"({"rgn":"[Pieces 5]\n\n1. A@A3 / C@C3\n"})");
  ASSERT_EQ(review.status, 400) << review.body;
  EXPECT_TRUE(review.body.contains("table_missing")) << review.body;
  EXPECT_EQ(review.body["error"].get<std::string>().find(".table"), std::string::npos)
      << review.body["error"];
  const ApiResponse two_games = call(
      hub, "POST", "/api/review", R"({"rgn":"[Pieces 5]\n\n1. A@A3 / C@C3\n\n1. A@A3 / C@C3\n"})");
  ASSERT_EQ(two_games.status, 400) << two_games.body;
  EXPECT_FALSE(two_games.body.contains("table_missing")) << two_games.body;
}

TEST(ServerTableBuild, MissingTableNamesWhatABuildCosts) {
  TableHome home;
  EXPECT_FALSE(missing_table(finkel_rules(3)));
  const auto seven = missing_table(finkel_rules(7, BearOff::Any));
  ASSERT_TRUE(seven);
  EXPECT_EQ((*seven)["bear_off"], "any");
  EXPECT_GT((*seven)["estimate_s"].get<double>(), (*missing_table(finkel_rules(5)))["estimate_s"]);
  EXPECT_EQ((*seven)["rules"], "finkel");
}

// Every named set is offered, with the set's name and estimates from its measured solve:
// Masters (501 million positions) costs more time and memory than Blitz or Aseb (41 million).
TEST(ServerTableBuild, EveryNamedSetsMissingTableIsOffered) {
  TableHome home;
  const auto offer = [](const char* name) {
    const auto missing = missing_table(Rules(find_rule_set(name)->spec));
    EXPECT_TRUE(missing) << name;
    return missing.value_or(json::object());
  };
  const json masters = offer("masters");
  const json blitz = offer("blitz");
  const json aseb = offer("aseb");
  EXPECT_EQ(masters["rules"], "masters");
  EXPECT_EQ(blitz["rules"], "blitz");
  EXPECT_EQ(aseb["pieces"], 5);
  EXPECT_GT(masters["estimate_s"].get<double>(), 5 * blitz["estimate_s"].get<double>());
  EXPECT_GT(masters["memory_mib"].get<double>(), 5000.0);
  EXPECT_LT(blitz["memory_mib"].get<double>(), 4096.0);
  EXPECT_GT(blitz["memory_mib"].get<double>(), 1500.0);
}

// Masters, Blitz and Aseb at 4 pieces have 6.2 million positions (8-11 s to solve on two
// cores): a request must not solve them on the spot, so they are offered as a build like 5
// pieces, while their 3 pieces (513,200 positions) and Finkel's 4 (2.6 million) still are.
TEST(ServerTableBuild, FourPiecesOfTheWideSetsAreOfferedNotSolvedInARequest) {
  TableHome home;
  for (const char* name : {"masters", "blitz", "aseb"}) {
    RuleSpec spec = find_rule_set(name)->spec;
    spec.pieces = 4;
    const auto four = missing_table(Rules(spec));
    ASSERT_TRUE(four) << name;
    EXPECT_EQ((*four)["pieces"], 4) << name;
    EXPECT_EQ((*four)["rules"], name);
    spec.pieces = 3;
    EXPECT_FALSE(missing_table(Rules(spec))) << name;
  }
  EXPECT_FALSE(missing_table(finkel_rules(4)));
  EXPECT_TRUE(tables::solves_on_the_fly(finkel_rules(4)));
  EXPECT_FALSE(tables::solves_on_the_fly(finkel_rules(5)));
}

}  // namespace
}  // namespace ur::server
