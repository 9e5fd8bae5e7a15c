// One web game series as the server referees it: an id, a version and the session. The
// session is the whole game; this file says it in the page's terms: intents as the page
// sends them, the GameState and events of docs/web-api.md, and sentences that name the
// sides Shell and Bitumen. No sockets, no storage.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>

#include "server/requests.h"
#include "server/seating.h"
#include "session/narration.h"
#include "session/session.h"

namespace ur::server {

struct WebGame {
  WebGame(std::string game_id, std::uint64_t game_version, session::Session game_session,
          Seating game_seating = {})
      : id(std::move(game_id)),
        version(game_version),
        session(std::move(game_session)),
        seating(std::move(game_seating)) {}

  std::string id;
  std::uint64_t version = 0;  // grows by one on every change the page can see
  session::Session session;
  Seating seating;    // stored with the game
  Presence presence;  // in memory only
};

// The page's names for the sides: Shell (light) and Bitumen (dark), in every sentence.
const session::Voice& page_voice();

// The seat `intent` acts for: its `side` when it says, else the side to move for a throw,
// move or pass, and the person's seat (light between friends) for the rest.
Side acting_seat(const session::Session& session, const WebIntent& intent);

// Applies `intent` to `game` and returns the index of its first new history event. The
// caller has checked the seat token, and set `intent.side` to the seat it holds when it holds
// one only. Online games refuse play before both seats are held, and hints, take-back and
// settings while a game runs; a rematch is offered by one seat and started by the other;
// claiming the win resigns for a side gone on its turn (claim_win_after). Throws ApiError,
// leaving the game untouched, when refused. Does not touch `version`.
std::size_t apply_intent(WebGame& game, const WebIntent& intent, session::Time now);

// Fills the free seat of an online game with `name`, holding `token`: the series starts
// afresh (seed `seed`) with both players named, and the invite is used. Returns 0, the first
// history event the page has not seen.
std::size_t seat_friend(WebGame& game, Side seat, std::string name, std::string token,
                        std::uint64_t seed, session::Time now);

// The events of docs/web-api.md for the history from index `first` on.
nlohmann::json web_events(const session::Session& session, std::size_t first);

// Whether a GameState carries the board's geometry: an update to sockets that have the
// geometry of the game's rules already leaves it out (protocol/game_update.h).
enum class Geometry : bool { Leave, Include };

// The GameState of docs/web-api.md, with the seats as of `now` (UTC ms).
nlohmann::json game_state_json(const WebGame& game, session::Time now = 0,
                               Geometry geometry = Geometry::Include);

}  // namespace ur::server
