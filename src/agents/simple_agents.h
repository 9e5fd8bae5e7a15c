// The baseline agents: random, first, last and the one-throw greedy heuristic.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "agents/agent.h"

namespace ur {

// Uniform over the legal moves.
std::unique_ptr<Agent> make_random_agent(std::uint64_t seed);
// Always moves the most advanced piece that can move ("first") or the least advanced one,
// the start pile counting as least advanced ("last").
std::unique_ptr<Agent> make_first_agent();
std::unique_ptr<Agent> make_last_agent();

// Greedy's one-throw score of a legal move: captures, rosettes, safety, then progress.
double greedy_score(const Rules& rules, const Position& position, const Move& move);

// Plays the best greedy_score move (ties: the most advanced piece), except that with
// probability `blunder_chance` it plays a uniformly random legal move instead.
std::unique_ptr<Agent> make_greedy_agent(std::string name, double blunder_chance,
                                         std::uint64_t seed);

}  // namespace ur
