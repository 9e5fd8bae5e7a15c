// The JSON form of a session's settings and events: how a series is stored (the server's
// game rows) and, later, sent between servers. Every event keeps all it holds (the dice,
// the time), so reading the history back and folding it rebuilds the session exactly.
//
//   settings: {"rules": {"pieces": 7, "bear_off": "exact"},
//              "seats": [{"agent": "", "name": ""}, {"agent": "medium", "name": ""}],
//              "starts": "alternate", "auto_play": false, "auto_pass": false,
//              "take_back": true}
//   event:    {"time": 1764547200000, "type": "throw", "side": "light",
//              "dice": {"marks": 5, "count": 4}, "roll": 2}
#pragma once

#include <nlohmann/json.hpp>

#include "session/event.h"

namespace ur::protocol {

nlohmann::json to_json(const session::Settings& settings);
// Throws RequestError naming the member that is wrong.
session::Settings settings_from_json(const nlohmann::json& value);

nlohmann::json to_json(const session::Event& event);
nlohmann::json to_json(const session::Events& events);
// Reads a whole history (a JSON array of events). Positions are read under the rules in
// force where they occur. Throws RequestError naming the event index and what is wrong;
// the events are not checked against each other (Session::from_history does that).
session::Events events_from_json(const nlohmann::json& value);
// Reads events that carry on the history `before` (read under the rules in force at its end);
// error indices count from before's end.
session::Events events_from_json(const nlohmann::json& value, const session::Events& before);

}  // namespace ur::protocol
