// Keys and what they do: decoding terminal input into keys, and applying a key to the game
// and the interface state. No terminal I/O here, so every key can be tested directly.
#pragma once

#include <string>
#include <vector>

#include "play/game.h"
#include "play/screen.h"

namespace ur::play {

enum class KeyCode { Char, Enter, Escape, Up, Down, Left, Right, Tab, BackTab, Backspace, Other };

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

// Applies one key. Refused keys set an error message in `ui` and leave the game unchanged.
void handle_key(Game& game, UiState& ui, const Key& key);

// Brings the interface state in line with the game after it changed: the cursor on a
// movable piece, the game-over screen once per finished game.
void sync_ui(const Game& game, UiState& ui);

// True when the computer or an automatic action (auto-play, auto-pass) acts next.
bool step_due(const Game& game, const UiState& ui);
// The pause before that step in milliseconds, so a player can follow it.
int step_pause_ms(const Game& game);
// Performs that step and notes what happened.
void take_step(Game& game, UiState& ui);

// Opens the settings menu on the game's current settings.
void open_menu(const Game& game, UiState& ui);

}  // namespace ur::play
