// API requests in the server's terms, before any game is touched: the JSON body, the path's
// parts, the intents the page may send (over HTTP or the WebSocket) and their members. Every
// parser validates fully and throws ApiError naming what is wrong and what is expected.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/types.h"

namespace ur::server {

// An API request as the HTTP layer received it. `target` is the request target (path with
// an optional query, which is ignored).
struct ApiRequest {
  std::string method;
  std::string target;
  std::string body;
  // The seat token the request carries (Authorization: Bearer, or a WebSocket message's
  // "token"); empty when none. Checked against the game's seats, never trusted as such.
  std::string seat_token = {};
  // Sent over a WebSocket: its answer is the update it causes, so the hub builds no other.
  bool from_socket = false;
};

// The token of an Authorization header's value ("Bearer TOKEN"), or "" for another scheme;
// the seats check its form.
std::string bearer_token(std::string_view authorization);

inline constexpr std::string_view kGamesPrefix = "/api/games";
// Starts (POST), watches (GET) and stops (DELETE) a table build.
inline constexpr std::string_view kTableBuildPath = "/api/tables/build";

// What a page can ask of a game.
enum class Action {
  Throw,
  Move,
  Pass,
  TakeBack,
  Resign,
  New,
  Settings,
  Hints,
  Rematch,   // online: ask for (or agree to) the next game
  ClaimWin,  // online: win a game whose other player is gone on their turn
};

// The API name of `action` ("throw", "take_back", ...) and its inverse.
std::string_view action_name(Action action);
std::optional<Action> action_named(std::string_view name);

// One intent as the page sent it.
struct WebIntent {
  Action action = Action::Throw;
  std::optional<Side> side;              // the side the sender plays, when it says
  Square from = 0;                       // Move: the route square of the piece
  nlohmann::json settings;               // New / Settings: the settings patch, or null
  bool on = true;                        // Hints: turn them on or off
  std::optional<std::uint64_t> version;  // the game version the sender saw, when it says
};

// The request body as a JSON object; an empty body counts as {}.
nlohmann::json parse_body(std::string_view body);
// Refuses members of `body` that are not in `allowed`, naming `what` the body is.
void require_only_members(const nlohmann::json& body,
                          std::initializer_list<std::string_view> allowed, std::string_view what);
// The intent `action` with the members of `body`.
WebIntent parse_intent(Action action, const nlohmann::json& body);

std::string_view path_of(std::string_view target);
// Splits "/api/games/ID/ACTION" into its parts after kGamesPrefix; empty for the bare prefix.
std::vector<std::string_view> game_path_parts(std::string_view path);

// The game id of a WebSocket path /api/games/{id}/ws, if `target` is one.
std::optional<std::string> socket_game_id(std::string_view target);
// A WebSocket message from the page ({"action":..., "token":...}) as the API request it stands
// for. {"action":"hello"} becomes POST .../hello: the socket's seat for presence.
ApiRequest request_from_socket_message(std::string_view game_id, std::string_view message);

// The target of the socket's hello ("/api/games/{id}/hello").
inline constexpr std::string_view kHelloAction = "hello";

}  // namespace ur::server
