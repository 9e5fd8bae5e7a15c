// The stored form of a web game (one row of games.sqlite3): its id, version and the
// session's whole history as events (protocol/session_json.h).
//
//   format 2: {"format": 2, "id": "g-...", "version": 12, "history": [event, ...]}
//   format 1: what servers before the session model stored: a snapshot (position, phase,
//             dice, tally, log, seed, draws). It is read by carrying the snapshot into a
//             history that starts from its position, with its tally and dice counter.
#pragma once

#include <nlohmann/json.hpp>

#include "server/web_game.h"
#include "storage/stored_record.h"

namespace ur::server {

inline constexpr int kStoredFormat = 2;

nlohmann::json stored_json(const WebGame& game);

// What a save writes (storage/stored_record.h): stored_json(game) as its head (everything but
// the history) and the history's events from `first` on, each as stored_json writes it.
// Precondition: first <= the history's length.
storage::GameWrite stored_write(const WebGame& game, std::size_t first);

// Whether `a` and `b` store the same state (seats and history; the version aside): an intent
// that leaves a game so changed nothing, and its version stays (docs/web-api.md: the version
// grows by one on every change).
bool same_stored_state(const WebGame& a, const WebGame& b);

// What a save changed, for servers that hold the game's previous version (a notice): the
// events after the first `first` of the history, and the seating as stored_json has it.
//   {"from": 41, "events": [event, ...], "seating": {...}}  (no "seating" while claimable)
// Precondition: the previous version's history is the first `first` events of game's.
nlohmann::json stored_change(const WebGame& game, std::size_t first);

// `game` carried on by a change (stored_change) saved at `version`, validated as
// game_from_stored validates a record. Throws std::runtime_error ("damaged game record: ...")
// for a change that is not sound or does not follow game's history.
WebGame game_with_change(const WebGame& game, const nlohmann::json& change, std::uint64_t version);

// Reads either format, validating everything (the history is folded under the rules).
// Throws std::runtime_error ("damaged game record: ...") for a record that is not sound.
WebGame game_from_stored(const nlohmann::json& record);

}  // namespace ur::server
