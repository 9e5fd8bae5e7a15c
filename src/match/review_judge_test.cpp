// The review agrees with `ur match --judge`: over 1,000 random 3-piece games its losses add
// up to the judge's, and the luck of every throw, weighted by the throws' odds, averages to
// zero (issue 14).
#include <gtest/gtest.h>

#include <mutex>

#include "analysis/review.h"
#include "match/match_runner.h"
#include "records/record.h"
#include "solver/solver.h"
#include "tables/table_values.h"

namespace ur {
namespace {

std::shared_ptr<const tables::Table> solved_table(const Rules& rules) {
  solver::SolveOptions options;
  options.threads = 2;
  options.tolerance = 1e-13;
  return tables::Table::from_values(
      rules, solver::solve(solver::PositionIndex(rules), options, {}, nullptr).values);
}

// The best chance the mover can reach with `roll` (after the pass when there is no move).
double best_after(const tables::Table& table, const Position& position, Roll roll) {
  const auto ranked = tables::hints(table, position, roll);
  return ranked.empty() ? tables::pass_value(table, position) : ranked.front().win;
}

TEST(ReviewAgainstTheJudge, LossesAddUpAndLuckAveragesToZero) {
  const Rules rules = finkel_rules(3);
  const auto table = solved_table(rules);
  match::MatchOptions options;
  options.specs = {"random", "greedy"};
  options.games = 1000;
  options.seed = 14;
  options.threads = 2;
  options.rules = rules;
  options.move_loss = [&](const Rules&, const Position& position, Roll roll, const Move& move) {
    const auto ranked = tables::hints(*table, position, roll);
    for (const auto& hint : ranked) {
      if (hint.move == move) return ranked.front().win - hint.win;
    }
    return 0.0;
  };
  std::mutex mutex;
  std::vector<records::GameRecord> games;
  options.game_finished = [&](int, const session::Session& finished) {
    auto record = records::record_of_game(finished, finished.game_start_index());
    const std::lock_guard lock(mutex);
    games.push_back(std::move(record));
  };
  const match::MatchResult result = match::run_match(options, [](int, int) {});
  ASSERT_EQ(games.size(), 1000u);

  tables::TableValues values(table);
  std::array<double, 2> loss_by_agent{};
  int throws = 0;
  for (const records::GameRecord& record : games) {
    const auto replay = std::get<records::Replay>(records::replay(record));
    const analysis::Review review = analysis::review(record, replay, values);
    ASSERT_EQ(review.winner, replay.winner);
    for (const analysis::ThrowReview& entry : review.throws) {
      const std::string& seat = *record.tag(entry.side == Side::Light ? "Light" : "Dark");
      loss_by_agent[seat == "A" ? 0 : 1] += entry.loss;
      // The luck is the best chance this throw allows minus the chance before it ...
      const double before = tables::evaluate(*table, entry.position);
      ASSERT_NEAR(entry.luck, best_after(*table, entry.position, entry.roll) - before, 1e-12);
      // ... so over the five throws, at their odds, it averages to zero.
      double expected = 0.0;
      for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
        expected +=
            roll_probability(rules, roll) * (best_after(*table, entry.position, roll) - before);
      }
      ASSERT_NEAR(expected, 0.0, 1e-10);
      ++throws;
    }
  }
  EXPECT_GT(throws, 30'000);
  EXPECT_NEAR(loss_by_agent[0], result.agents[0].loss, 1e-9);
  EXPECT_NEAR(loss_by_agent[1], result.agents[1].loss, 1e-9);
  EXPECT_GT(result.agents[0].loss, result.agents[1].loss);  // random loses more than greedy
}

}  // namespace
}  // namespace ur
