// Plays many games between two agent specs on several threads and tallies the results.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <variant>

#include "core/movegen.h"
#include "session/session.h"

namespace ur::match {

// How much of the mover's chance to win `move` gives away against the best move for `roll`
// (0 for a best move). Called from several threads at once.
using MoveLoss = std::function<double(const Rules& rules, const Position& position, Roll roll,
                                      const Move& move)>;

struct MatchOptions {
  std::array<std::string, 2> specs;  // agent A, agent B
  int games = 100;
  std::uint64_t seed = 1;
  int threads = 1;
  Rules rules = finkel_rules();
  MoveLoss move_loss;  // when set, every choice is rated (AgentTally::loss)
  // When set, called with each finished game's session (light is agent A in even games;
  // the seats are named "A" and "B"). Called from the worker threads, several at once.
  std::function<void(int game, const session::Session& finished)> game_finished;
};

struct AgentTally {
  std::string spec;
  int wins = 0;
  int first_moves = 0;             // games in which this agent threw first
  std::uint64_t moves = 0;         // choices asked of the agent (rolls with a legal move)
  double seconds = 0.0;            // total time spent choosing
  double loss = 0.0;               // sum of MatchOptions::move_loss over the agent's moves
  std::uint64_t costly_moves = 0;  // moves that lose more than kCostlyLoss
};

// A move rated worse than this (in chance to win; 0.1 pp) counts as costly: well above the 16-bit
// table's rounding (7.7e-6), well below what players notice. Not the review's class "mistake".
inline constexpr double kCostlyLoss = 0.001;

struct MatchResult {
  int games = 0;
  std::array<AgentTally, 2> agents;
  int first_mover_wins = 0;  // games won by whichever agent threw first
  std::uint64_t turns = 0;   // throws over all games: moves, passes and extra throws each count
  std::uint64_t moves = 0;   // moves played over all games
  double seconds = 0.0;      // wall-clock time of the whole match
};

// Who plays what in game `game`: agent A takes light in even games, and light throws first
// in games 0, 1, 4, 5, ... so over every four games each agent has each colour twice and
// throws first twice.
struct GameSetup {
  int light_agent;  // 0 = A, 1 = B
  Side first;
};
GameSetup game_setup(int game);

// Why a match cannot be played: a bad spec, or an agent that cannot play the rules (for the
// perfect agent: no table for them), which `missing_table` marks.
struct SpecProblem {
  std::string message;  // names the agent, "agent A: ..." or "agent B: ..."
  bool missing_table = false;
};

// Checks both specs; nothing when both agents can play the rules.
std::optional<SpecProblem> check_specs(const MatchOptions& options);

// Readies both agents for the match's rules before any move is timed (Agent::prepare: the
// perfect agent solves a small missing table), giving the notes to show the user, each naming
// its agent. Precondition: check_specs(options) passed.
std::vector<std::string> prepare_agents(const MatchOptions& options);

// Plays the match on the session model (src/session): game g is a series seeded with
// derive_seed(seed, g), its dice keyed by throw number. `progress` is called from the calling
// thread with the games finished so far and agent A's wins among them, about ten times a second and
// once at the end. Results depend only on the options, never on the thread count: game g uses dice
// and agent seeds derived from (seed, g). Precondition: check_specs(options) passed, games >= 1,
// threads >= 1.
MatchResult run_match(const MatchOptions& options,
                      const std::function<void(int finished, int wins_of_a)>& progress);

// The Wilson score interval for `successes` out of `trials` at the given normal quantile
// (1.959964 for 95%).
struct Interval {
  double low;
  double high;
};
Interval wilson_interval(int successes, int trials, double z = 1.959963984540054);

}  // namespace ur::match
