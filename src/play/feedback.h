// The message line's feedback on a key, shared by the game keys, the menu and the table
// build flow: an error in red, information in plain text, or nothing after a good action.
#pragma once

#include <string>
#include <utility>

#include "play/keys.h"
#include "play/screen.h"

namespace ur::play {

inline void set_error(UiState& ui, std::string message) {
  ui.message = std::move(message);
  ui.message_is_error = true;
}

inline void set_info(UiState& ui, std::string message) {
  ui.message = std::move(message);
  ui.message_is_error = false;
}

// Reports a refused action, or clears the message after a successful one.
inline void report(UiState& ui, const ActionError& error) {
  if (error) {
    set_error(ui, *error);
  } else {
    ui.message.clear();
  }
}

inline void refuse_key(UiState& ui, const Key& key, const std::string& hint) {
  set_error(ui, describe_key(key) + " does nothing now: " + hint);
}

}  // namespace ur::play
