#include "match/match_runner.h"

#include <atomic>
#include <chrono>
#include <cmath>
#include <memory>
#include <thread>
#include <vector>

#include "agents/agent.h"
#include "agents/rng.h"

namespace ur::match {
namespace {

using Clock = std::chrono::steady_clock;

struct GameRecord {
  int winner = 0;  // 0 = A, 1 = B
  int first = 0;   // agent that threw first
  std::uint64_t turns = 0;
  std::array<std::uint64_t, 2> moves{};
  std::array<double, 2> seconds{};
  std::array<double, 2> loss{};
  std::array<std::uint64_t, 2> mistakes{};
};

std::unique_ptr<Agent> build(const std::string& spec, std::uint64_t seed) {
  return std::move(std::get<std::unique_ptr<Agent>>(make_agent(spec, seed)));
}

GameRecord play_game(const MatchOptions& options, int game) {
  const GameSetup setup = game_setup(game);
  // Stream 0 is the dice; streams 1 and 2 seed agents A and B.
  const std::uint64_t game_seed = derive_seed(options.seed, static_cast<std::uint64_t>(game));
  SplitMix64 dice(derive_seed(game_seed, 0));
  std::array<std::unique_ptr<Agent>, 2> agents{build(options.specs[0], derive_seed(game_seed, 1)),
                                               build(options.specs[1], derive_seed(game_seed, 2))};
  // agent_of[side] is the agent (0 = A) playing that colour.
  const std::array<int, 2> agent_of{setup.light_agent, 1 - setup.light_agent};

  const Rules& rules = options.rules;
  GameRecord record;
  record.first = agent_of[index_of(setup.first)];
  Position position = starting_position(rules, setup.first);
  while (!is_game_over(rules, position)) {
    ++record.turns;
    const Roll roll = throw_dice(rules, dice);
    if (count_legal_moves(rules, position, roll) == 0) {
      position = pass_turn(position);
      continue;
    }
    const int mover = agent_of[index_of(position.turn)];
    const auto begin = Clock::now();
    const AgentChoice choice = agents[mover]->choose(rules, position, roll);
    record.seconds[mover] += std::chrono::duration<double>(Clock::now() - begin).count();
    ++record.moves[mover];
    if (options.move_loss) {
      const double loss = options.move_loss(rules, position, roll, choice.move);
      record.loss[mover] += loss;
      if (loss > kMistakeLoss) ++record.mistakes[mover];
    }
    position = apply_move(rules, position, choice.move);
  }
  record.winner = agent_of[index_of(*winner(rules, position))];
  return record;
}

}  // namespace

GameSetup game_setup(int game) {
  return {game % 2, (game / 2) % 2 == 0 ? Side::Light : Side::Dark};
}

std::optional<SpecProblem> check_specs(const MatchOptions& options) {
  for (int i = 0; i < 2; ++i) {
    auto made = make_agent(options.specs[i], 0);
    const std::string which = i == 0 ? "agent A: " : "agent B: ";
    if (auto* error = std::get_if<AgentSpecError>(&made)) {
      return SpecProblem{which + error->message, false};
    }
    if (auto why = std::get<std::unique_ptr<Agent>>(made)->cannot_play(options.rules)) {
      return SpecProblem{which + *why, true};
    }
  }
  return std::nullopt;
}

MatchResult run_match(const MatchOptions& options,
                      const std::function<void(int finished, int wins_of_a)>& progress) {
  const auto begin = Clock::now();
  std::vector<GameRecord> records(static_cast<std::size_t>(options.games));
  std::atomic<int> next_game{0};
  std::atomic<int> finished{0};
  std::atomic<int> wins_of_a{0};
  const auto work = [&] {
    for (int game = next_game++; game < options.games; game = next_game++) {
      records[game] = play_game(options, game);
      if (records[game].winner == 0) ++wins_of_a;
      ++finished;
    }
  };
  std::vector<std::jthread> workers;
  const int thread_count = std::min(options.threads, options.games);
  for (int i = 0; i < thread_count; ++i) workers.emplace_back(work);
  while (finished.load() < options.games) {
    progress(finished.load(), wins_of_a.load());
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  workers.clear();  // joins
  progress(options.games, wins_of_a.load());

  MatchResult result;
  result.games = options.games;
  for (int i = 0; i < 2; ++i) result.agents[i].spec = options.specs[i];
  for (const GameRecord& record : records) {
    ++result.agents[record.winner].wins;
    ++result.agents[record.first].first_moves;
    if (record.winner == record.first) ++result.first_mover_wins;
    result.turns += record.turns;
    for (int i = 0; i < 2; ++i) {
      result.agents[i].moves += record.moves[i];
      result.agents[i].seconds += record.seconds[i];
      result.agents[i].loss += record.loss[i];
      result.agents[i].mistakes += record.mistakes[i];
      result.moves += record.moves[i];
    }
  }
  result.seconds = std::chrono::duration<double>(Clock::now() - begin).count();
  return result;
}

Interval wilson_interval(int successes, int trials, double z) {
  if (trials <= 0) return {0.0, 1.0};
  const double n = trials;
  const double p = successes / n;
  const double z2 = z * z;
  const double centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const double half = z / (1 + z2 / n) * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
  return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

}  // namespace ur::match
