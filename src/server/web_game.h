// One web game series as the server referees it: an id, a version and the session. The
// session is the whole game; this file says it in the page's terms: intents as the page
// sends them, the GameState and events of docs/web-api.md, and sentences that name the
// sides Shell and Bitumen. No sockets, no storage.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "server/requests.h"
#include "session/narration.h"
#include "session/session.h"

namespace ur::server {

struct WebGame {
  std::string id;
  std::uint64_t version = 0;  // grows by one on every change the page can see
  session::Session session;
};

// The page's names for the sides: Shell (light) and Bitumen (dark), in every sentence.
const session::Voice& page_voice();

// The seat `intent` acts for: its `side` when it says, else the side to move for a throw,
// move or pass, and the person's seat (light between friends) for the rest.
Side acting_seat(const session::Session& session, const WebIntent& intent);

// Applies `intent` to `game.session` and returns the index of its first new history event.
// Throws ApiError, leaving the game untouched, when the session (or the settings patch)
// refuses it. Does not touch `version`.
std::size_t apply_intent(WebGame& game, const WebIntent& intent, session::Time now);

// The events of docs/web-api.md for the history from index `first` on.
nlohmann::json web_events(const session::Session& session, std::size_t first);

// The GameState of docs/web-api.md.
nlohmann::json game_state_json(const WebGame& game);

}  // namespace ur::server
