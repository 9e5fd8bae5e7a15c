// Runs the real `ur match` and `ur bench` binaries and checks what they print.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include <string>
#include "cli/run_ur.h"

namespace {

using nlohmann::json;

using Outcome = ur::testing::CommandResult;
using ur::testing::run_ur;

// The Wilson score interval, written out again here so the test does not trust the code
// under test: centre (p + z^2/2n) / (1 + z^2/n), half-width z/(1 + z^2/n) sqrt(p(1-p)/n +
// z^2/4n^2).
std::pair<double, double> wilson(double successes, double n) {
  const double z = 1.959963984540054;
  const double p = successes / n;
  const double denominator = 1 + z * z / n;
  const double centre = (p + z * z / (2 * n)) / denominator;
  const double half = z / denominator * std::sqrt(p * (1 - p) / n + z * z / (4 * n * n));
  return {centre - half, centre + half};
}

void expect_rate(const json& rate, int successes, int games) {
  EXPECT_DOUBLE_EQ(rate["rate"].get<double>(), static_cast<double>(successes) / games);
  const auto [low, high] = wilson(successes, games);
  EXPECT_NEAR(rate["ci95"][0].get<double>(), std::max(0.0, low), 1e-12);
  EXPECT_NEAR(rate["ci95"][1].get<double>(), std::min(1.0, high), 1e-12);
}

TEST(MatchCli, JsonArithmeticAddsUp) {
  const Outcome run = run_ur("match random first --games 24 --seed 9 --threads 2 --json");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  const json result = json::parse(run.output);
  const int games = result["games"];
  EXPECT_EQ(games, 24);
  EXPECT_EQ(result["interval"], "wilson-95");
  const json& a = result["agents"][0];
  const json& b = result["agents"][1];
  EXPECT_EQ(a["spec"], "random");
  EXPECT_EQ(b["spec"], "first");
  EXPECT_EQ(a["wins"].get<int>() + b["wins"].get<int>(), games);
  EXPECT_EQ(a["first_moves"].get<int>() + b["first_moves"].get<int>(), games);
  EXPECT_EQ(a["first_moves"].get<int>(), games / 2);  // the first throw alternates
  expect_rate(a, a["wins"], games);
  expect_rate(b, b["wins"], games);
  expect_rate(result["first_mover"], result["first_mover"]["wins"], games);
  EXPECT_EQ(a["moves"].get<std::uint64_t>() + b["moves"].get<std::uint64_t>(),
            result["moves"].get<std::uint64_t>());
  EXPECT_DOUBLE_EQ(result["average_turns"].get<double>(), result["turns"].get<double>() / games);
  EXPECT_GE(result["turns"].get<std::uint64_t>(), result["moves"].get<std::uint64_t>());
  EXPECT_GE(a["ms_per_move"].get<double>(), 0.0);
}

TEST(MatchCli, SameSeedSameResultWhateverTheThreads) {
  const json one =
      json::parse(run_ur("match greedy random --games 10 --seed 3 --threads 1 --json").output);
  const json two =
      json::parse(run_ur("match greedy random --games 10 --seed 3 --threads 2 --json").output);
  EXPECT_EQ(one["agents"][0]["wins"], two["agents"][0]["wins"]);
  EXPECT_EQ(one["turns"], two["turns"]);
}

TEST(MatchCli, PlainTextWhenNotATerminal) {
  const Outcome run = run_ur("match random last --games 4");
  ASSERT_EQ(run.exit_code, 0) << run.output;
  EXPECT_NE(run.output.find("95% CI ["), std::string::npos) << run.output;
  EXPECT_NE(run.output.find("first mover"), std::string::npos);
  EXPECT_EQ(run.output.find('\r'), std::string::npos);  // no progress bar
}

TEST(MatchCli, UsageErrorsExitTwoWithAClearMessage) {
  const struct {
    const char* arguments;
    const char* says;
  } cases[] = {
      {"match hard", "B is required"},
      {"match wizard random", "unknown agent \"wizard\""},
      {"match random expectimax:0", "agent B"},
      {"match random first --games 0", "games"},
      {"match random first --games many", "games"},
      {"match random first --threads 0", "threads"},
      {"match random first --seed -4", "seed"},
      {"match random first --pieces 9", "pieces"},
      {"match random first --bear-off sometimes", "bear-off"},
      {"bench --levels easy", "not a searching level"},
      {"bench --levels expectimax:12", "not a searching level"},
      {"bench --disable speed", "disable"},
  };
  for (const auto& [arguments, says] : cases) {
    const Outcome run = run_ur(arguments);
    EXPECT_EQ(run.exit_code, 2) << arguments << "\n" << run.output;
    EXPECT_NE(run.output.find(says), std::string::npos) << arguments << "\n" << run.output;
  }
}

// From a review: `perfect:FILE` with a missing or damaged FILE was a bad spec (exit 2) without
// the command that builds it; docs/cli.md promises exit 3 with it, as for --table FILE.
TEST(MatchCli, APerfectTableFileThatDoesNotOpenIsAMissingTable) {
  const std::string file = "/tmp/ur-match-cli-no-such-" + std::to_string(::getpid()) + ".table";
  const Outcome run = run_ur("match --pieces 2 perfect:" + file + " random --games 2");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_NE(run.output.find("agent A: perfect:" + file + ": no solved table for 2 pieces"),
            std::string::npos)
      << run.output;
  EXPECT_NE(run.output.find("build it with `ur solve --pieces 2 --out " + file + "`"),
            std::string::npos)
      << run.output;
}

TEST(BenchCli, PrintsEveryLevelAndAStableSignature) {
  const Outcome first = run_ur("bench --levels medium --json");
  ASSERT_EQ(first.exit_code, 0) << first.output;
  const json result = json::parse(first.output);
  ASSERT_EQ(result["levels"].size(), 1u);
  EXPECT_EQ(result["levels"][0]["positions"], 100);
  EXPECT_GT(result["levels"][0]["nodes_per_second"].get<double>(), 0.0);
  EXPECT_EQ(result["signature"], result["levels"][0]["nodes"]);
  EXPECT_EQ(json::parse(run_ur("bench --levels medium --json").output)["signature"],
            result["signature"]);
}

}  // namespace
