#include "server/requests.h"

#include <algorithm>
#include <array>

#include "core/rules.h"
#include "protocol/json.h"
#include "server/api_error.h"
#include "server/web_settings.h"

namespace ur::server {

using nlohmann::json;

namespace {

constexpr std::array<std::pair<std::string_view, Action>, 10> kActions = {{
    {"throw", Action::Throw},
    {"move", Action::Move},
    {"pass", Action::Pass},
    {"take_back", Action::TakeBack},
    {"resign", Action::Resign},
    {"new", Action::New},
    {"settings", Action::Settings},
    {"hints", Action::Hints},
    {"rematch", Action::Rematch},
    {"claim_win", Action::ClaimWin},
}};

std::optional<Side> side_member(const json& body) {
  const auto found = body.find("side");
  if (found == body.end()) return std::nullopt;
  const auto side =
      found->is_string() ? side_from_name(found->get_ref<const std::string&>()) : std::nullopt;
  if (!side) {
    throw bad_request("\"side\" must be \"light\" or \"dark\", got " +
                      protocol::quote_json(*found));
  }
  return side;
}

// The optional "version": the game version the sender's screen shows.
std::optional<std::uint64_t> version_member(const json& body) {
  const auto found = body.find("version");
  if (found == body.end()) return std::nullopt;
  if (!found->is_number_unsigned()) {
    throw bad_request(
        "\"version\" must be the game version the page shows (a whole number like 12), got " +
        protocol::quote_json(*found));
  }
  return found->get<std::uint64_t>();
}

}  // namespace

std::string_view action_name(Action action) {
  for (const auto& [name, each] : kActions) {
    if (each == action) return name;
  }
  return "?";
}

std::optional<Action> action_named(std::string_view name) {
  for (const auto& [action_name, action] : kActions) {
    if (action_name == name) return action;
  }
  return std::nullopt;
}

json parse_body(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return json::object();
  if (protocol::nests_too_deeply(body)) {
    throw ApiError(400, "bad_json",
                   "The request body nests arrays or objects more than " +
                       std::to_string(protocol::kMaxJsonNesting) +
                       " levels deep; send a flat JSON object.");
  }
  json value;
  try {
    value = protocol::parse_json_text(body);
  } catch (const protocol::JsonTextError& error) {
    throw ApiError(400, "bad_json",
                   "The request body is not valid JSON (" + std::string(error.what()) +
                       "); send a JSON object.");
  }
  if (!value.is_object()) {
    throw ApiError(400, "bad_json",
                   "The request body must be a JSON object, got " + protocol::quote_json(value));
  }
  return value;
}

void require_only_members(const json& body, std::initializer_list<std::string_view> allowed,
                          std::string_view what) {
  for (const auto& [key, value] : body.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string names;
      for (std::string_view name : allowed)
        names += (names.empty() ? "\"" : ", \"") + std::string(name) + "\"";
      throw bad_request("Unknown member " + protocol::quote_json(key) + " in " + std::string(what) +
                        (names.empty() ? "; it takes no members." : "; it takes " + names + "."));
    }
  }
}

WebIntent parse_intent(Action action, const json& body) {
  WebIntent intent{action, std::nullopt, 0, nullptr, true, std::nullopt};
  switch (action) {
    case Action::Throw:
      require_only_members(body, {"side", "version"}, "a throw");
      break;
    case Action::Pass:
      require_only_members(body, {"side", "version"}, "a pass");
      break;
    case Action::TakeBack:
      require_only_members(body, {"side", "version"}, "a take-back");
      break;
    case Action::Resign:
      require_only_members(body, {"side", "version"}, "a resignation");
      break;
    case Action::Rematch:
      require_only_members(body, {"version"}, "a rematch");
      break;
    case Action::ClaimWin:
      require_only_members(body, {"version"}, "a claim of the win");
      break;
    case Action::Move: {
      require_only_members(body, {"from", "side", "version"}, "a move");
      const auto from = body.find("from");
      // Any rule set's square reads here (the longest route is 27); the session refuses
      // squares past this game's route as illegal moves.
      if (from == body.end() || !from->is_number_integer() || from->get<long long>() < 0 ||
          from->get<long long>() > kMaxRoute) {
        throw bad_request("A move needs \"from\": the route square of the piece to move, 0-" +
                          std::to_string(kMaxRoute) +
                          " (0 enters a piece from the start pile; 14 is Finkel's last square)" +
                          (from == body.end() ? "" : "; got " + protocol::quote_json(*from)) + ".");
      }
      intent.from = static_cast<Square>(from->get<long long>());
      break;
    }
    case Action::Hints: {
      require_only_members(body, {"on", "side", "version"}, "a hints switch");
      const auto on = body.find("on");
      if (on == body.end() || !on->is_boolean()) {
        throw bad_request(
            "A hints switch needs \"on\": true or false" +
            (on == body.end() ? std::string() : ", got " + protocol::quote_json(*on)) + ".");
      }
      intent.on = on->get<bool>();
      break;
    }
    case Action::New:
      require_only_members(body, {"settings"}, "a new game");
      break;
    case Action::Settings:
      require_only_members(body, {"settings"}, "a settings change");
      if (!body.contains("settings")) {
        throw bad_request(R"(A settings change needs "settings": {"pieces":5} for example.)");
      }
      break;
  }
  intent.side = side_member(body);
  intent.version = version_member(body);
  if (const auto settings = body.find("settings"); settings != body.end()) {
    intent.settings = *settings;
    // Checks the members' types and values now, before any game is touched.
    merge_web_settings(default_web_settings(), intent.settings);
  }
  return intent;
}

std::string_view path_of(std::string_view target) {
  return target.substr(0, target.find('?'));
}

std::vector<std::string_view> game_path_parts(std::string_view path) {
  std::vector<std::string_view> parts;
  std::string_view rest = path.substr(kGamesPrefix.size());
  while (!rest.empty()) {
    if (rest.front() != '/') return {"", "", "", ""};  // unmatched: too many parts
    rest.remove_prefix(1);
    const std::size_t slash = rest.find('/');
    parts.push_back(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
  }
  return parts;
}

std::optional<std::string> socket_game_id(std::string_view target) {
  const std::string_view path = path_of(target);
  if (!path.starts_with(kGamesPrefix)) return std::nullopt;
  const auto parts = game_path_parts(path);
  if (parts.size() != 2 || parts[1] != "ws") return std::nullopt;
  return std::string(parts[0]);
}

std::string bearer_token(std::string_view authorization) {
  constexpr std::string_view kScheme = "Bearer ";
  if (authorization.size() < kScheme.size()) return {};
  for (std::size_t i = 0; i < kScheme.size(); ++i) {
    // The scheme is case-insensitive (RFC 9110).
    const char c = authorization[i];
    const char lower = c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
    const char wanted = kScheme[i] >= 'A' && kScheme[i] <= 'Z'
                            ? static_cast<char>(kScheme[i] - 'A' + 'a')
                            : kScheme[i];
    if (lower != wanted) return {};
  }
  std::string_view token = authorization.substr(kScheme.size());
  while (!token.empty() && token.front() == ' ') token.remove_prefix(1);
  while (!token.empty() && token.back() == ' ') token.remove_suffix(1);
  // A value with no token (or with several words) is still "a token", just a malformed one.
  return token.empty() ? std::string("-") : std::string(token);
}

ApiRequest request_from_socket_message(std::string_view game_id, std::string_view message) {
  json body = parse_body(message);
  const auto action = body.find("action");
  const bool hello = action != body.end() && action->is_string() &&
                     action->get_ref<const std::string&>() == kHelloAction;
  if (action == body.end() || !action->is_string() ||
      (!hello && !action_named(action->get_ref<const std::string&>()))) {
    throw bad_request(
        R"(A message needs "action": "hello", "throw", "move", "pass", "take_back", "resign", "hints", "new", "settings", "rematch" or "claim_win", got )" +
        (action == body.end() ? std::string("none") : protocol::quote_json(*action)) + ".");
  }
  std::string token;
  if (const auto found = body.find("token"); found != body.end()) {
    if (!found->is_string()) {
      throw bad_request("\"token\" must be the seat token (64 hexadecimal digits) as a string.");
    }
    token = found->get<std::string>();
    body.erase("token");
  }
  const std::string name = action->get<std::string>();
  body.erase("action");
  if (hello) require_only_members(body, {}, "a hello");
  return {"POST", std::string(kGamesPrefix) + "/" + std::string(game_id) + "/" + name, body.dump(),
          std::move(token), true};
}

}  // namespace ur::server
