// The "perfect" agent: plays the move of highest win probability from a solved table.
// Specs: "perfect" (the table for the rules in play from the default location, solved on the
// fly for up to kSolveOnTheFlyMaxPieces pieces) or "perfect:FILE" (that table file).
#pragma once

#include <memory>

#include "agents/agent.h"
#include "tables/table.h"

namespace ur::tables {

// An agent that plays from `table` for its rules, and from table_for_play for other rules.
// cannot_play() says when no table exists for the rules and none can be solved on the fly;
// choose() then throws std::runtime_error with the same message.
std::unique_ptr<Agent> make_perfect_agent(std::shared_ptr<const Table> table, std::string name);

}  // namespace ur::tables
