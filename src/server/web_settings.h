// The web page's settings: the session's settings in the page's terms, an opponent (a
// computer level, or a friend on this device) and the person's seat against the computer.
// docs/web-api.md lists the members; every value is validated here.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "session/settings.h"

namespace ur::server {

// The opponent that means "both sides play on this device".
inline constexpr std::string_view kFriend = "friend";
// The opponent of a new game between two devices (POST /api/games only).
inline constexpr std::string_view kOnlineOpponent = "online";

// The computer levels offered to players (the agent specs the server accepts).
inline constexpr std::array<std::string_view, 5> kComputerLevels = {"easy", "medium", "hard",
                                                                    "expert", "perfect"};

// A new player's settings: the medium computer, the person on light.
session::Settings default_web_settings();

// The computer's level, or kFriend when both seats are people.
std::string opponent_of(const session::Settings& settings);
// The side the person plays against the computer; light in a friend game.
Side person_side(const session::Settings& settings);

// The settings as GameState shows them (docs/web-api.md). "seat" and "name" are the person's
// against the computer; in an online game, where both seats are people's, `host`'s.
nlohmann::json web_settings_json(const session::Settings& settings,
                                 std::optional<Side> host = std::nullopt);

// `base` with the members of `patch` (a JSON object of settings members) applied. Throws
// ApiError: bad_request for wrong types or unknown members, bad_settings for values outside
// the offered choices. Take-back is always off between friends.
session::Settings merge_web_settings(const session::Settings& base, const nlohmann::json& patch);

std::optional<Side> side_from_name(std::string_view name);

}  // namespace ur::server
