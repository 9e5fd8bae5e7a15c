// Finding solved tables for the rules in play: a process-wide cache over the default table
// location, with solving on the fly for small piece counts.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <variant>

#include "solver/solver.h"
#include "tables/table.h"

namespace ur::tables {

// Tables up to this many positions solve in a second or two on two cores (Finkel's 4 pieces:
// 2.6 million), so a missing one is just computed where it is needed, even inside a request.
// Masters, Blitz and Aseb at 4 pieces (6.2 million, 8-11 s) are offered as a build instead.
inline constexpr std::uint64_t kSolveOnTheFlyMaxPositions = 3'000'000;

// Whether a missing table of `rules` is solved where it is needed rather than offered as a
// build: solvable rules whose table is small (kSolveOnTheFlyMaxPositions).
bool solves_on_the_fly(const Rules& rules);

// The rules a table is for, as messages name them: "5 pieces (exact bear-off)".
std::string rules_text(const Rules& rules);

// The table for `rules` at `path` (default: default_table_path(rules)), loaded once per
// process and shared. On failure returns null and sets `*problem` to what went wrong and
// how to fix it.
std::shared_ptr<const Table> find_table(const Rules& rules, std::string* problem,
                                        const std::optional<std::filesystem::path>& path = {});

// The table file at `path`, whatever its rules, through the same cache: Table::open checks
// the whole file's checksum, so each file is opened once per process. On failure returns
// the message saying what does not match.
std::variant<std::shared_ptr<const Table>, std::string> open_table_once(
    const std::filesystem::path& path);

// The table for `rules`: from the default location when there, else solved now (reporting
// to `progress`, which may be empty) and saved there for next time (a failed save is not an
// error). A file already there that is not a damaged table (another set's table, or no table
// at all) is left alone, and the solve is kept in memory for this process. Null, with `*problem`
// set, when the rules cannot be solved or `*cancel` (may be null) was set during the solve; nothing
// is saved then.
std::shared_ptr<const Table> load_or_solve(const Rules& rules,
                                           const solver::ProgressCallback& progress,
                                           std::string* problem,
                                           const std::atomic<bool>* cancel = nullptr);

// find_table, falling back to load_or_solve for rules that solve on the fly.
std::shared_ptr<const Table> table_for_play(const Rules& rules, std::string* problem);

// Why perfect play is not available right now for `rules` (no table and too many pieces to
// solve on the fly), with the command that builds the table; nothing when it is.
std::optional<std::string> perfect_unavailable(const Rules& rules);

// The command that builds the table of `rules` at its default path: "ur solve --pieces 7",
// "ur solve --rules masters", "ur solve --rules blitz --pieces 3 --dice 3".
std::string solve_command_line(const Rules& rules);

// Why a solve of `rules` with `options` cannot run within `limit_mib` MiB ("Masters, 7 pieces
// (exact bear-off) has 500981472 positions and needs about 7036 MiB to solve, more than the
// 1000 MiB --max-memory allows"; `limit_source` is the end of that sentence), or nothing.
std::optional<std::string> memory_refusal(const Rules& rules, const solver::SolveOptions& options,
                                          double limit_mib, const std::string& limit_source);

// Threads a solve should use: every core.
int default_solve_threads();

}  // namespace ur::tables
