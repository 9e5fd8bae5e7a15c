// Computer players. An Agent chooses one legal move for a position and a roll it is shown;
// it never sees future dice. Agents are deterministic given their seed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/movegen.h"

namespace ur {

struct AgentChoice {
  Move move;                    // one of legal_moves(rules, position, roll)
  std::optional<double> value;  // the agent's estimate of the mover's chance to win, if any
};

class Agent {
 public:
  virtual ~Agent() = default;
  // Precondition: the game is not over and legal_moves(rules, position, roll) is not empty.
  virtual AgentChoice choose(const Rules& rules, const Position& position, Roll roll) = 0;
  // The spec this agent was built from, e.g. "expectimax:3" or "hard".
  virtual std::string name() const = 0;
  // Why this agent cannot play games under `rules` (e.g. the perfect agent without a solved
  // table), saying how to fix it; nothing when it can. Interfaces ask before a game starts.
  virtual std::optional<std::string> cannot_play(const Rules& /*rules*/) const {
    return std::nullopt;
  }
  // Readies the agent for games under `rules` before any move is timed (the perfect agent
  // solves a small missing table here). A note for the user when it did something worth
  // saying, such as a table solved and saved.
  virtual std::optional<std::string> prepare(const Rules& /*rules*/) { return std::nullopt; }
};

struct AgentSpecError {
  std::string message;  // what was wrong with the spec and what is accepted
};

// Builds an agent from a spec: "random", "first", "last", "greedy", "expectimax:D",
// the levels "easy", "medium", "hard", "expert" (and "perfect" once a table is available).
// A spec is NAME or NAME:ARGUMENT; kinds added with register_agent_kind are accepted too.
std::variant<std::unique_ptr<Agent>, AgentSpecError> make_agent(std::string_view spec,
                                                                std::uint64_t seed);

// Extension point for agent kinds that live outside src/agents (e.g. "perfect", which
// reads solved tables). A factory receives the text after "NAME:" (empty when the spec has
// no colon) and the seed, and returns the agent or an error saying what it accepts.
using AgentFactory = std::variant<std::unique_ptr<Agent>, AgentSpecError> (*)(
    std::string_view argument, std::uint64_t seed);

// Adds (or replaces) the kind `name`; `help` is one line shown in spec listings, e.g.
// "perfect[:TABLE]  plays the solved table's best move". Built-in names cannot be replaced.
// Call it from a static AgentKindRegistrar in an OBJECT library so the linker keeps it.
void register_agent_kind(std::string name, AgentFactory factory, std::string help);

struct AgentKindRegistrar {
  AgentKindRegistrar(std::string name, AgentFactory factory, std::string help) {
    register_agent_kind(std::move(name), factory, std::move(help));
  }
};

// One line per accepted spec form with its help text, built-in kinds first, then the
// registered ones; this is what AgentSpecError messages list.
std::vector<std::string> accepted_agent_specs();

}  // namespace ur
