// What a key does in the game: the dispatch to the screen showing (menu, build offer, log,
// save prompt, board) and the board's own keys, plus the computer's paced steps. Decoding
// is in keys.h, the menu in menu.h, the table build in build_flow.h; this header brings
// them all in. No terminal I/O here, so every key can be tested directly.
#pragma once

#include <optional>

#include "play/build_flow.h"
#include "play/keys.h"
#include "play/menu.h"
#include "play/play_session.h"
#include "play/screen.h"

namespace ur::play {

// Applies one key. Refused keys set an error message in `ui` and leave the game unchanged.
// While the board is hidden (board_hidden) only q acts.
void handle_key(PlaySession& game, UiState& ui, const Key& key);

// Starts a new game under `settings` (the menu's) or else the game's own: at once when no
// game is under way, otherwise after asking (y), as n does. No goes back to the game, or to
// the menu's choices when they were to be played.
void new_game_or_ask(PlaySession& game, UiState& ui, std::optional<Settings> settings = {});

// Opens the review of the game just finished: ur replay's view on its record, reviewed with
// the table when there is one, else estimated (attach_review, as ur replay does).
void open_review(const PlaySession& game, UiState& ui);

// Brings the interface state in line with the game after it changed: the cursor on a
// movable piece, the game-over screen once per finished game, and with ui.record_path
// the records rewritten once per finished game (a failure is shown as the message).
void sync_ui(const PlaySession& game, UiState& ui);

// True when the computer acts next: never under an overlay or while the board is hidden.
// (Auto-play and auto-pass act inside the person's own throw, in the session.)
bool step_due(const PlaySession& game, const UiState& ui);
// The pause before that step in milliseconds, so a player can follow it.
int step_pause_ms(const PlaySession& game);
// Performs that step and notes what happened.
void take_step(PlaySession& game, UiState& ui);

}  // namespace ur::play
