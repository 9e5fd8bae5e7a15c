#include "match/match_runner.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <mutex>

namespace ur::match {
namespace {

TEST(Wilson, MatchesPublishedValues) {
  // Reference values of the Wilson score interval at z = 1.96.
  const Interval half = wilson_interval(5, 10);
  EXPECT_NEAR(half.low, 0.2366, 1e-4);
  EXPECT_NEAR(half.high, 0.7634, 1e-4);
  const Interval none = wilson_interval(0, 10);
  EXPECT_DOUBLE_EQ(none.low, 0.0);
  EXPECT_NEAR(none.high, 0.2775, 1e-4);
  const Interval all = wilson_interval(10, 10);
  EXPECT_NEAR(all.low, 0.7225, 1e-4);
  EXPECT_DOUBLE_EQ(all.high, 1.0);
}

TEST(GameSetup, BalancesColoursAndFirstThrowOverFourGames) {
  int a_light = 0;
  int a_first = 0;
  for (int game = 0; game < 4; ++game) {
    const GameSetup setup = game_setup(game);
    a_light += setup.light_agent == 0;
    const int first_agent = setup.first == Side::Light ? setup.light_agent : 1 - setup.light_agent;
    a_first += first_agent == 0;
  }
  EXPECT_EQ(a_light, 2);
  EXPECT_EQ(a_first, 2);
}

MatchOptions options(int threads) {
  MatchOptions result;
  result.specs = {"greedy", "random"};
  result.games = 40;
  result.seed = 5;
  result.threads = threads;
  return result;
}

TEST(RunMatch, TalliesAddUpAndDoNotDependOnThreads) {
  const auto ignore = [](int, int) {};
  const MatchResult one = run_match(options(1), ignore);
  const MatchResult two = run_match(options(2), ignore);
  EXPECT_EQ(one.agents[0].wins + one.agents[1].wins, 40);
  EXPECT_EQ(one.agents[0].first_moves + one.agents[1].first_moves, 40);
  EXPECT_EQ(one.agents[0].first_moves, 20);
  EXPECT_EQ(one.agents[0].moves + one.agents[1].moves, one.moves);
  EXPECT_GT(one.turns, one.moves);
  EXPECT_EQ(one.agents[0].wins, two.agents[0].wins);
  EXPECT_EQ(one.turns, two.turns);
  EXPECT_EQ(one.first_mover_wins, two.first_mover_wins);
  EXPECT_GT(one.agents[0].wins, 20);  // greedy beats random
}

TEST(RunMatch, EachFinishedGameIsAWholeSessionWithTheTalliedWinner) {
  MatchOptions recorded = options(2);
  std::mutex mutex;
  std::vector<int> games;
  int a_wins_seen = 0;
  recorded.game_finished = [&](int game, const session::Session& finished) {
    const std::lock_guard lock(mutex);
    games.push_back(game);
    EXPECT_EQ(finished.phase(), session::Phase::Over);
    const Side a_side = game_setup(game).light_agent == 0 ? Side::Light : Side::Dark;
    EXPECT_EQ(finished.settings().seat(a_side).name, "A");
    EXPECT_EQ(finished.settings().seat(a_side).agent, "greedy");
    if (finished.winner() == a_side) ++a_wins_seen;
  };
  const MatchResult result = run_match(recorded, [](int, int) {});
  std::sort(games.begin(), games.end());
  ASSERT_EQ(games.size(), 40u);
  EXPECT_EQ(games.front(), 0);
  EXPECT_EQ(games.back(), 39);
  EXPECT_EQ(a_wins_seen, result.agents[0].wins);
}

TEST(RunMatch, ReportsProgressUpToTheEnd) {
  int last = -1;
  run_match(options(2), [&last](int finished, int wins) {
    EXPECT_GE(finished, last);
    EXPECT_LE(wins, finished);
    last = finished;
  });
  EXPECT_EQ(last, 40);
}

// The judge sees every choice once, with the roll it was made for, and its ratings are
// tallied per agent: here a move counts as a costly one of 0.25 unless it is the last legal one.
TEST(RunMatch, RatesEveryMoveWithTheJudge) {
  MatchOptions judged = options(2);
  std::atomic<int> calls{0};
  judged.move_loss = [&calls](const Rules& rules, const Position& position, Roll roll,
                              const Move& move) {
    ++calls;
    const MoveList moves = legal_moves(rules, position, roll);
    EXPECT_NE(find_move(moves, move.from), nullptr) << "a legal move for the roll";
    return move == moves[moves.size() - 1] ? 0.0 : 0.25;
  };
  const MatchResult result = run_match(judged, [](int, int) {});
  EXPECT_EQ(static_cast<std::uint64_t>(calls.load()), result.moves);
  for (const AgentTally& agent : result.agents) {
    EXPECT_DOUBLE_EQ(agent.loss, 0.25 * static_cast<double>(agent.costly_moves));
    EXPECT_LE(agent.costly_moves, agent.moves);
  }
  EXPECT_GT(result.agents[1].costly_moves, 0u) << "random does not always move the last piece";
  const MatchResult plain = run_match(options(2), [](int, int) {});
  EXPECT_EQ(plain.agents[0].wins, result.agents[0].wins) << "judging does not change the games";
  EXPECT_EQ(plain.agents[0].loss, 0.0);
}

TEST(CheckSpecs, NamesTheBadAgent) {
  MatchOptions bad = options(1);
  bad.specs[1] = "expectimax:0";
  const auto checked = check_specs(bad);
  ASSERT_TRUE(checked.has_value());
  EXPECT_EQ(checked->message.rfind("agent B: ", 0), 0u);
  EXPECT_FALSE(checked->missing_table);
}

}  // namespace
}  // namespace ur::match
