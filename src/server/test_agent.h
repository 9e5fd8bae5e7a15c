// Test helpers for the server: a trivial computer player and an AgentMaker around it, so the
// server's tests do not depend on the real agents' strength or speed.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "server/hub.h"

namespace ur::server::testing {

// Plays the legal move with the highest source square (pieces race home, games end fast).
class LastMoveAgent : public Agent {
 public:
  AgentChoice choose(const Rules& rules, const Position& position, Roll roll) override {
    const MoveList moves = legal_moves(rules, position, roll);
    return {moves[moves.size() - 1], std::nullopt};
  }
  std::string name() const override { return "last"; }
};

// A "perfect" stand-in that, like the real one without a solved table, cannot play.
class TablelessPerfectAgent final : public LastMoveAgent {
 public:
  std::string name() const override { return "perfect"; }
  std::optional<std::string> cannot_play(const Rules&) const override {
    return "perfect needs a solved table (test stand-in)";
  }
};

// Builds LastMoveAgent for every computer level, and a "perfect" that cannot play.
inline AgentMaker test_agent_maker() {
  return [](std::string_view spec,
            std::uint64_t) -> std::variant<std::unique_ptr<Agent>, AgentSpecError> {
    if (spec == "perfect") return std::make_unique<TablelessPerfectAgent>();
    return std::make_unique<LastMoveAgent>();
  };
}

}  // namespace ur::server::testing
