// The baseline agents: random, first, last, the greedy rule of thumb and the one-throw
// weighted heuristic.
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

// Greedy's rule of thumb as a sort key, higher first: a capture beats a rosette, a rosette
// beats landing out of reach of every opponent piece, and among equals the most advanced
// piece moves. This is the published greedy baseline (RoyalUr-Analysis: capture, rosette,
// most advanced) with safety added as the issue asks.
int greedy_priority(const Rules& rules, const Position& position, const Move& move);

// The weighted one-throw heuristic: captures, rosettes, safety and danger (escaped or
// entered, by hit chance), bearing off, then progress. Stronger than greedy_priority.
double heuristic_score(const Rules& rules, const Position& position, const Move& move);

// Plays the greedy_priority move.
std::unique_ptr<Agent> make_greedy_agent();

// Plays the best heuristic_score move (ties: the most advanced piece), except that with
// probability `blunder_chance` it plays a uniformly random legal move instead.
std::unique_ptr<Agent> make_heuristic_agent(std::string name, double blunder_chance,
                                            std::uint64_t seed);

}  // namespace ur
