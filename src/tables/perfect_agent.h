// The "perfect" agent: plays the move of highest win probability from a solved table.
// Specs: "perfect" (the table for the rules in play from the default location, solved on the
// fly when tables::solves_on_the_fly) or "perfect:FILE" (that table file, for its own
// rules only).
#pragma once

#include <filesystem>
#include <memory>
#include <optional>

#include "agents/agent.h"
#include "tables/table.h"

namespace ur::tables {

// An agent that plays from `table` (only for that table's rules), or without one from
// table_for_play. cannot_play() says when `table` is for other rules, or when there is no
// table and none exists for the rules or can be solved on the fly; choose() then throws
// std::runtime_error with the same message.
std::unique_ptr<Agent> make_perfect_agent(std::shared_ptr<const Table> table, std::string name);

// "perfect:FILE" whose file did not open (missing, damaged, not a table): a spec that is well
// formed but cannot play. cannot_play() says why for the rules in play, with the `ur solve`
// command that builds the table at FILE, so interfaces report it as a missing table (exit 3),
// as they do for `--table FILE`.
std::unique_ptr<Agent> make_unusable_perfect_agent(std::filesystem::path file, std::string name);

}  // namespace ur::tables
