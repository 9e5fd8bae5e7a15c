// ur_load's parts, and the load script run small against a fresh `ur serve` on 127.0.0.1.
#include <gtest/gtest.h>

#include <chrono>
#include <string>

#include "cli/run_ur.h"
#include "server/load_pacing.h"
#include "server/load_stats.h"

namespace ur::load {
namespace {

using namespace std::chrono_literals;
using Clock = ActionPacer::Clock;

TEST(LoadPacer, AllowsTheLimitInAWindowThenWaitsForTheOldestToLeaveIt) {
  ActionPacer pacer(3, 1000ms);
  const Clock::time_point start{};
  for (int i = 0; i < 3; ++i) {
    const auto at = start + std::chrono::milliseconds(100 * i);
    ASSERT_EQ(pacer.next_allowed(at), at);
    pacer.sent(at);
  }
  // A fourth at 300 ms must wait for the first (at 0) to be a window old.
  EXPECT_FALSE(pacer.may_send(start + 300ms));
  EXPECT_EQ(pacer.next_allowed(start + 300ms), start + 1000ms);
  EXPECT_TRUE(pacer.may_send(start + 1000ms));
  pacer.sent(start + 1000ms);
  EXPECT_EQ(pacer.next_allowed(start + 1000ms), start + 1100ms);
}

TEST(LoadPacer, CountsAnActionFromWhenItsAnswerCameWhenThatIsLater) {
  ActionPacer pacer(2, 1000ms);
  const Clock::time_point start{};
  pacer.sent(start);
  pacer.arrived_by(start + 300ms);  // the server may have read it only then
  pacer.sent(start + 400ms);
  EXPECT_EQ(pacer.next_allowed(start + 500ms), start + 1300ms);
  pacer.arrived_by(start + 200ms);  // earlier than sent: changes nothing
  EXPECT_EQ(pacer.next_allowed(start + 500ms), start + 1300ms);
}

TEST(LoadPacer, DefaultsStayUnderTheServersTwentyActionsASecond) {
  ActionPacer pacer;
  Clock::time_point at{};
  for (int i = 0; i < 100; ++i) {
    at = pacer.next_allowed(at);
    pacer.sent(at);
  }
  // 100 actions as fast as allowed: never more than 20 in any 1 s, so it takes > 4 windows.
  EXPECT_GE(at - Clock::time_point{}, 4 * 1050ms);
}

TEST(LoadStats, PercentilesUseTheNearestRank) {
  std::vector<double> values;
  for (int i = 100; i >= 1; --i) values.push_back(i);
  EXPECT_EQ(percentile(values, 0.5), 50);
  EXPECT_EQ(percentile(values, 0.99), 99);
  EXPECT_EQ(percentile(values, 1.0), 100);
  EXPECT_EQ(percentile(values, 0.0), 1);
  EXPECT_EQ(percentile({}, 0.99), 0);
  EXPECT_EQ(percentile({7.5}, 0.99), 7.5);
  EXPECT_NE(latency_line("x", {1, 2}).find("x: n=2 p50=1.00 ms"), std::string::npos);
}

// scripts/load-test.sh with ur_load options: one run against its own `ur serve`.
ur::testing::CommandResult load_script(const std::string& options) {
  std::string line = "UR_LOAD=\"";
  line += UR_LOAD_BINARY;
  line += "\" \"";
  line += UR_LOAD_SCRIPT;
  line += "\" \"";
  line += UR_BINARY;
  line += "\" " + options + " 2>&1";
  return ur::testing::run_shell(line);
}

TEST(LoadScript, TenOnlineGamesPlayToTheEndAndTheirRecordsConfirmThem) {
  const auto run = load_script("--games 10 --think-min-ms 5 --think-max-ms 40 --max-seconds 90");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("started 10, finished 10, records confirmed 10"), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("errors: 0\n"), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("server time per action (server_ms): n="), std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("ur serve stopped cleanly"), std::string::npos) << run.output;
}

TEST(LoadScript, ComputerModeStillPlaysItsGames) {
  const auto run = load_script("--mode computer --games 3 --threads 1 --max-seconds 90");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("3 finished, 0 errors"), std::string::npos) << run.output;
}

TEST(LoadScript, AFailedRunExitsNonZeroAndSaysWhy) {
  // --max-seconds 1 cannot hold 50 games that think for 3 s a move: the time limit passes.
  const auto run = load_script(
      "--games 50 --think-min-ms 3000 --think-max-ms 3000 --stall-seconds 30 --max-seconds 1");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("the time limit of 1 s passed"), std::string::npos) << run.output;
}

}  // namespace
}  // namespace ur::load
