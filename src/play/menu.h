// The settings menu: opening it on the game's settings, its keys (choosing a row, changing
// a value, typing the seed), and starting a game with the settings chosen.
#pragma once

#include <string>

#include "play/keys.h"
#include "play/play_session.h"
#include "play/screen.h"

namespace ur::play {

// Opens the settings menu on the game's current settings.
void open_menu(const PlaySession& game, UiState& ui);

// Applies one key while the menu is open.
void handle_menu(PlaySession& game, UiState& ui, const Key& key);

// The settings menu on `settings` (not the game's), with `why` in red under it.
void back_to_menu(UiState& ui, const Settings& settings, const std::string& why);

}  // namespace ur::play
