// The terminal's side of an online game (ur play --host/--join): what a key asks of the
// server, and the screen, drawn with the terminal game's board, dice and boxes. Pure: the
// network and the terminal are in online_client.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "play/canvas.h"
#include "play/keys.h"
#include "play/online_game.h"

namespace ur::play {

struct OnlineUi {
  std::optional<Square> cursor;  // the source under the cursor while my throw waits
  std::string typed;             // digits of a route square typed so far
  std::string message;           // what the opponent did, or feedback on the last key
  bool message_is_error = false;
  bool route_numbers = true;
  bool confirm_resign = false;  // "Resign this game? y / n" shows
  bool connected = true;        // false while the socket is down and being reopened
  std::string invite_link;      // the host's link to share (shown while nobody has joined)
  std::string watch_link;       // the game's spectator link, shown beside it
  bool quit = false;
};

enum class OnlineAction { None, Throw, Move, Pass, Resign, Rematch, ClaimWin, Quit };

struct OnlineIntent {
  OnlineAction action = OnlineAction::None;
  Square from = 0;  // Move: the piece's route square (0 = the start pile)
};

// Applies one key: what to ask of the server (None: nothing; a refusal or a cursor move is
// in `ui`). Keys as in the local game: t/space throw, ← → ↑ ↓ Tab choose, digits type a
// square, s the start pile, Enter move, p pass, r resign (y confirms), v numbers; and n
// rematch (game over), c claim the win (when offered), q quit (the seat stays).
OnlineIntent online_key(const OnlineView& view, OnlineUi& ui, const Key& key, std::int64_t now_ms);

// After a new state: the cursor on one of my movable pieces while my throw waits.
void sync_online_ui(const OnlineView& view, OnlineUi& ui);

// The WebSocket message for a throw, move, pass or resign: {"action", "token", "version"...}.
nlohmann::json socket_intent(const OnlineIntent& intent, const std::string& token,
                             std::uint64_t version);

// The whole screen for a terminal of width x height (at least 80 x 24; a smaller one gets a
// message asking for more room). `now_ms` is local steady time (for the claim countdown).
Canvas compose_online_screen(const OnlineView& view, const OnlineUi& ui, int width, int height,
                             std::int64_t now_ms);

}  // namespace ur::play
