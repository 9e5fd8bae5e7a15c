// The WebSocket "update" stream of one game (docs/web-api.md, "Updates carry what changed").
// A socket's first update holds the whole GameState; each later one leaves out what did not
// change since the previous update on the same socket:
//   - "geometry" is there only when the rules differ from the previous update's;
//   - "log_kept": k says the log is the previous update's first k lines followed by "log".
// The server shortens each state once for all of a game's sockets (UpdateBase); each client
// completes what it receives against the last state it completed on that socket.
#pragma once

#include <nlohmann/json.hpp>
#include <optional>

namespace ur::protocol {

// What every socket of a game was last sent: the base of the next update's changes.
// Invariant: when `valid`, every socket that follows the game has completed exactly `rules`
// and `log` as its latest state.
struct UpdateBase {
  bool valid = false;
  nlohmann::json rules;  // the last update's "rules"
  nlohmann::json log;    // the last update's whole log (an array of strings)

  // Makes the whole GameState `state` the base (it is sent whole).
  void reset(const nlohmann::json& state);
  // Whether a socket sent `state` whole now agrees with the others' base.
  bool matches(const nlohmann::json& state) const;
};

// Turns the whole GameState `state` into the update sent after `base` and moves `base` on to
// it. With no valid base the state stays whole (and becomes the base).
void shorten_update(nlohmann::json& state, UpdateBase& base);

// Completes a received update's `state` against `previous`, the socket's last completed
// state (nullptr before its first). Answers nullopt when the update leaves something out that
// `previous` cannot supply (the client should then reconnect for a whole state).
std::optional<nlohmann::json> complete_update(nlohmann::json state, const nlohmann::json* previous);

}  // namespace ur::protocol
