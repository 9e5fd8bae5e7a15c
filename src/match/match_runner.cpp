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

// The time stamp of session events: milliseconds since the Unix epoch.
session::Time utc_now() {
  using namespace std::chrono;
  return duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
}

// What one game adds to the match tallies, by agent (0 = A).
struct GameTally {
  int winner = 0;
  int first = 0;  // agent that threw first
  std::uint64_t turns = 0;
  std::array<std::uint64_t, 2> moves{};
  std::array<double, 2> seconds{};
  std::array<double, 2> loss{};
  std::array<std::uint64_t, 2> costly_moves{};
};

// An agent that times and rates each of its choices into the game's tally.
class TalliedAgent final : public Agent {
 public:
  TalliedAgent(std::unique_ptr<Agent> inner, int agent, GameTally& tally, const MoveLoss& loss)
      : inner_(std::move(inner)), agent_(agent), tally_(tally), loss_(loss) {}

  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const auto begin = Clock::now();
    AgentChoice choice = inner_->choose(rules, position, roll);
    tally_.seconds[agent_] += std::chrono::duration<double>(Clock::now() - begin).count();
    ++tally_.moves[agent_];
    if (loss_) {
      const double loss = loss_(rules, position, roll, choice.move);
      tally_.loss[agent_] += loss;
      if (loss > kCostlyLoss) ++tally_.costly_moves[agent_];
    }
    return choice;
  }
  std::string name() const override { return inner_->name(); }

 private:
  std::unique_ptr<Agent> inner_;
  int agent_;
  GameTally& tally_;
  const MoveLoss& loss_;
};

// Builds agents A and B for one game with their own seed streams; the spec says which.
class MatchAgents final : public session::AgentSource {
 public:
  MatchAgents(const MatchOptions& options, std::uint64_t game_seed, std::array<int, 2> agent_of,
              GameTally& tally)
      : options_(options), game_seed_(game_seed), agent_of_(agent_of), tally_(tally) {}

  std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side side, std::string_view spec,
                                                            std::uint64_t) override {
    // Streams 1 and 2 of the game's seed seed agents A and B (stream 0 is the dice).
    const int agent = agent_of_[index_of(side)];
    auto made = make_agent(spec, derive_seed(game_seed_, 1 + agent));
    if (auto* agent_ptr = std::get_if<std::unique_ptr<Agent>>(&made)) {
      return std::make_unique<TalliedAgent>(std::move(*agent_ptr), agent, tally_,
                                            options_.move_loss);
    }
    return made;
  }

 private:
  const MatchOptions& options_;
  std::uint64_t game_seed_;
  std::array<int, 2> agent_of_;
  GameTally& tally_;
};

GameTally play_game(const MatchOptions& options, int game) {
  const GameSetup setup = game_setup(game);
  const std::uint64_t game_seed = derive_seed(options.seed, static_cast<std::uint64_t>(game));
  // agent_of[side] is the agent (0 = A) playing that colour.
  const std::array<int, 2> agent_of{setup.light_agent, 1 - setup.light_agent};
  session::Settings settings;
  settings.rules = options.rules;
  for (Side side : {Side::Light, Side::Dark}) {
    const int agent = agent_of[index_of(side)];
    settings.seats[index_of(side)] = session::Seat{options.specs[agent], agent == 0 ? "A" : "B"};
  }
  GameTally tally;
  tally.first = agent_of[index_of(setup.first)];
  MatchAgents agents(options, game_seed, agent_of, tally);
  session::Session session =
      session::Session::start(settings, derive_seed(game_seed, 0), utc_now(), setup.first);
  // Agents always answer, so computer steps play the game to its end.
  while (session.computer_to_act()) session.computer_step(agents, utc_now());
  tally.turns = session.throws();
  tally.winner = agent_of[index_of(*session.winner())];
  if (options.game_finished) options.game_finished(game, session);
  return tally;
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

std::vector<std::string> prepare_agents(const MatchOptions& options) {
  std::vector<std::string> notes;
  for (int i = 0; i < 2; ++i) {
    auto made = make_agent(options.specs[i], 0);
    auto* agent = std::get_if<std::unique_ptr<Agent>>(&made);
    if (!agent) continue;  // check_specs reported it
    if (auto note = (*agent)->prepare(options.rules)) {
      notes.push_back((i == 0 ? "agent A: " : "agent B: ") + *note);
    }
  }
  return notes;
}

MatchResult run_match(const MatchOptions& options,
                      const std::function<void(int finished, int wins_of_a)>& progress) {
  const auto begin = Clock::now();
  std::vector<GameTally> records(static_cast<std::size_t>(options.games));
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
  for (const GameTally& record : records) {
    ++result.agents[record.winner].wins;
    ++result.agents[record.first].first_moves;
    if (record.winner == record.first) ++result.first_mover_wins;
    result.turns += record.turns;
    for (int i = 0; i < 2; ++i) {
      result.agents[i].moves += record.moves[i];
      result.agents[i].seconds += record.seconds[i];
      result.agents[i].loss += record.loss[i];
      result.agents[i].costly_moves += record.costly_moves[i];
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
