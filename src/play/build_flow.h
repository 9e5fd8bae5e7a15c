// The table-build flow: a game that needs a missing table (the perfect opponent) first
// asks to build it, then builds it with progress and a cancel, then starts the game or
// goes back to the settings menu saying why not.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "play/keys.h"
#include "play/play_session.h"
#include "play/screen.h"

namespace ur::play {

// Why no game can be played with `settings`, whatever is built (perfect play for a set the
// solver cannot solve: a path that crosses itself), or nothing.
std::optional<std::string> cannot_start(const Settings& settings);

// Starts a new game with `settings`. When they need a table that is missing (the perfect
// opponent), first asks to build it, or for a small one just starts building. A refusal
// opens the settings menu on `settings` with the reason.
void request_game(PlaySession& game, UiState& ui, const Settings& settings);

// Drives a table build while the Building screen is up: starts `job` (owned by the caller,
// the event loop or a test), passes on a cancel, copies its progress, and once it ended
// starts the game or, after a failure or a cancel, returns to the menu saying so.
void advance_build(PlaySession& game, UiState& ui, std::unique_ptr<BuildJob>& job);

// Asks a running build to stop (Esc, q, Ctrl-C); nothing when none runs.
void cancel_build(UiState& ui);

// A key on the "build the table now?" question: y builds, n / Esc / Enter declines: back
// to the settings for a game, the estimated values for hints or a review.
void handle_build_offer(PlaySession& game, UiState& ui, const Key& key);

// Before hints or a review on `rules` (`use`): when they have no solved table and cannot
// solve one on the spot, asks (once per rules in a run) to build it, the perfect
// opponent's offer, and returns true while that question shows. False: go on at once.
bool offer_values_table(const PlaySession& game, UiState& ui, const Rules& rules, TableUse use);

// Why the game cannot start until the table exists, and how to build it later.
std::string table_declined(const TableRequest& request, const std::string& what);

}  // namespace ur::play
