// Keys and what they do: decoding terminal input into keys, and applying a key to the game
// and the interface state. No terminal I/O here, so every key can be tested directly.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "play/play_session.h"
#include "play/screen.h"

namespace ur::play {

enum class KeyCode {
  Char,
  Enter,
  Escape,
  Up,
  Down,
  Left,
  Right,
  PageUp,
  PageDown,
  Home,
  End,
  Tab,
  BackTab,
  Backspace,
  Other
};

struct Key {
  KeyCode code = KeyCode::Other;
  char character = 0;  // for KeyCode::Char: a printable ASCII character
};

inline Key char_key(char character) {
  return Key{KeyCode::Char, character};
}

// Removes the complete keys at the front of `bytes` and returns them. An unfinished escape
// sequence stays in `bytes` unless `flush` (no more bytes came), when a lone ESC is Escape.
std::vector<Key> decode_keys(std::string& bytes, bool flush);

// How a refusal names a key: "'x'", "Space", "Enter", "That arrow".
std::string describe_key(const Key& key);

// Applies one key. Refused keys set an error message in `ui` and leave the game unchanged.
// While the board is hidden (board_hidden) only q acts.
void handle_key(PlaySession& game, UiState& ui, const Key& key);

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

// Opens the settings menu on the game's current settings.
void open_menu(const PlaySession& game, UiState& ui);

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

}  // namespace ur::play
