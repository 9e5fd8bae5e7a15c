// Computer players. An Agent chooses one legal move for a position and a roll it is shown;
// it never sees future dice. Agents are deterministic given their seed.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

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
};

struct AgentSpecError {
  std::string message;  // what was wrong with the spec and what is accepted
};

// Builds an agent from a spec: "random", "first", "last", "greedy", "expectimax:D",
// the levels "easy", "medium", "hard", "expert" (and "perfect" once a table is available).
std::variant<std::unique_ptr<Agent>, AgentSpecError> make_agent(std::string_view spec,
                                                                 std::uint64_t seed);

}  // namespace ur
