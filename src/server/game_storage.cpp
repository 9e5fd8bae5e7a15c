#include "server/game_storage.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "core/notation.h"
#include "protocol/json.h"
#include "protocol/session_json.h"
#include "server/api_error.h"
#include "server/web_settings.h"

namespace ur::server {

using nlohmann::json;
using session::Session;

namespace {

// Adds the seating to a record or change; a game still unclaimed keeps none, so it stays
// claimable after a restart.
void add_seating(json& stored, const Seating& seating) {
  if (seating.claimable) return;
  json seats = {{"light", seating.token(Side::Light)}, {"dark", seating.token(Side::Dark)}};
  stored["seating"] = {
      {"tokens", std::move(seats)},
      {"online", seating.online},
      {"invite", seating.invite},
      {"invite_used", seating.invite_used},
      {"rematch_offer",
       seating.rematch_offer ? json(side_name(*seating.rematch_offer)) : json(nullptr)}};
  if (seating.host) stored["seating"]["host"] = side_name(*seating.host);
}

// stored_json without its history.
json stored_head(const WebGame& game) {
  json head = {{"format", kStoredFormat}, {"id", game.id}, {"version", game.version}};
  add_seating(head, game.seating);
  return head;
}

}  // namespace

json stored_json(const WebGame& game) {
  json stored = stored_head(game);
  stored["history"] = protocol::to_json(game.session.history());
  return stored;
}

bool same_stored_state(const WebGame& a, const WebGame& b) {
  json head_a = stored_head(a);
  json head_b = stored_head(b);
  head_a.erase("version");
  head_b.erase("version");
  return head_a == head_b && a.session.history() == b.session.history();
}

storage::GameWrite stored_write(const WebGame& game, std::size_t first) {
  const session::Events& history = game.session.history();
  storage::GameWrite write{kStoredFormat, stored_head(game).dump(), first, {}};
  write.events.reserve(history.size() - std::min(first, history.size()));
  for (std::size_t i = first; i < history.size(); ++i) {
    write.events.push_back(protocol::to_json(history[i]).dump());
  }
  return write;
}

json stored_change(const WebGame& game, std::size_t first) {
  const session::Events& history = game.session.history();
  json events = json::array();
  for (std::size_t i = first; i < history.size(); ++i) {
    events.push_back(protocol::to_json(history[i]));
  }
  json change = {{"from", first}, {"events", std::move(events)}};
  add_seating(change, game.seating);
  return change;
}

namespace {

[[noreturn]] void damaged(const std::string& what) {
  throw std::runtime_error("damaged game record: " + what);
}

const json& member(const json& record, const char* key) {
  const auto found = record.find(key);
  if (found == record.end()) damaged(std::string("missing \"") + key + "\"");
  return *found;
}

template <typename T>
T member_as(const json& record, const char* key) {
  try {
    return member(record, key).get<T>();
  } catch (const json::exception&) {
    damaged(std::string("\"") + key + "\" has the wrong type");
  }
}

Side side_member(const json& record, const char* key) {
  const json& value = member(record, key);
  const auto side =
      value.is_string() ? side_from_name(value.get_ref<const std::string&>()) : std::nullopt;
  if (!side) damaged(std::string("\"") + key + "\" is not a side");
  return *side;
}

// Format 1 kept the page's settings (opponent, seat, pieces ...) as the API wrote them.
session::Settings format_1_settings(const json& value) {
  try {
    json patch = value;
    if (patch.is_object()) patch.erase("take_back");
    return merge_web_settings(default_web_settings(), patch);
  } catch (const ApiError& error) {
    damaged(std::string("settings: ") + error.what());
  }
}

// A format-1 snapshot as a history: the series with its tally and the dice already thrown,
// the current game from its position, the pending throw, the end, and waiting settings.
session::Events history_of_format_1(const json& record) {
  const session::Settings settings = format_1_settings(member(record, "settings"));
  const Rules& rules = settings.rules;
  auto parsed = parse_text(member_as<std::string>(record, "position"), rules);
  if (auto* error = std::get_if<ParseError>(&parsed)) damaged("position: " + error->message);
  const Position position = std::get<Position>(parsed);

  const auto phase = member_as<std::string>(record, "phase");
  constexpr std::array<std::string_view, 4> kPhases = {"throw", "move", "pass", "game_over"};
  if (std::find(kPhases.begin(), kPhases.end(), phase) == kPhases.end()) damaged("unknown phase");
  const auto dice = member_as<std::vector<bool>>(record, "dice");
  const bool pending = phase == "move" || phase == "pass";
  if (pending != !dice.empty()) damaged("dice do not match the phase");
  if (pending && dice.size() != static_cast<std::size_t>(rules.dice)) damaged("wrong dice count");

  auto tally = member_as<std::array<int, 2>>(record, "tally");
  const int game_number = member_as<int>(record, "game_number");
  if (game_number < 1 || tally[0] < 0 || tally[1] < 0) damaged("bad counters");
  const json& winner_value = member(record, "winner");
  std::optional<Side> winner;
  if (!winner_value.is_null()) winner = side_member(record, "winner");
  if ((phase == "game_over") != is_game_over(rules, position) ||
      winner != ur::winner(rules, position)) {
    damaged("the winner does not match the position");
  }
  // The finished game's win is in the stored tally; the history's end counts it again.
  if (winner) {
    if (tally[index_of(*winner)] == 0) damaged("the tally does not count the win");
    --tally[index_of(*winner)];
  }
  auto draws = member_as<std::uint64_t>(record, "draws");
  if (pending && draws == 0) damaged("a pending throw that was never drawn");
  if (pending) --draws;  // the pending throw is replayed below, which counts it again

  const session::Time time = 0;  // a snapshot keeps no times
  session::Events history;
  history.push_back({time, session::SeriesStarted{
                               settings, member_as<std::uint64_t>(record, "seed"), tally, draws}});
  history.push_back({time, session::GameStarted{game_number, position.turn, position}});
  if (pending) {
    session::Dice thrown{0, static_cast<std::uint8_t>(dice.size())};
    for (std::size_t i = 0; i < dice.size(); ++i) {
      if (dice[i]) thrown.marks = static_cast<std::uint8_t>(thrown.marks | (1u << i));
    }
    history.push_back(
        {time, session::Thrown{position.turn, thrown, session::roll_of(settings.rules, thrown)}});
  }
  if (winner) history.push_back({time, session::GameEnded{*winner, false}});
  const json& next = member(record, "next_settings");
  if (!next.is_null()) {
    history.push_back({time, session::SettingsChanged{format_1_settings(next), false}});
  }
  return history;
}

// The stored seats; a game stored before seats existed has none and is claimable.
Seating seating_of(const json& record, const session::Session& session) {
  const auto found = record.find("seating");
  Seating seating;
  if (found == record.end()) {
    seating.claimable = true;
    return seating;
  }
  const json& stored = *found;
  if (!stored.is_object()) damaged("\"seating\" is not an object");
  const json& tokens = member(stored, "tokens");
  for (Side side : {Side::Light, Side::Dark}) {
    const auto token = member_as<std::string>(tokens, std::string(side_name(side)).c_str());
    if (!token.empty() && !is_hex_text(token, kTokenHexDigits)) damaged("a malformed seat token");
    if (!token.empty() && !session.settings().is_person(side)) damaged("a computer seat's token");
    seating.tokens[index_of(side)] = token;
  }
  seating.online = member_as<bool>(stored, "online");
  seating.invite = member_as<std::string>(stored, "invite");
  seating.invite_used = member_as<bool>(stored, "invite_used");
  if (seating.online != !seating.invite.empty() ||
      (seating.online && !is_hex_text(seating.invite, kInviteHexDigits))) {
    damaged("an online game without a sound invite");
  }
  if (!member(stored, "rematch_offer").is_null()) {
    seating.rematch_offer = side_member(stored, "rematch_offer");
  }
  if (stored.contains("host")) {
    if (!seating.online) damaged("a host in a game that is not online");
    seating.host = side_member(stored, "host");
  }
  return seating;
}

}  // namespace

WebGame game_with_change(const WebGame& game, const json& change, std::uint64_t version) {
  if (!change.is_object()) damaged("a change that is not an object");
  const session::Events& history = game.session.history();
  if (member_as<std::uint64_t>(change, "from") != history.size()) {
    damaged("a change that does not follow the " + std::to_string(history.size()) +
            " events known");
  }
  session::Events more;
  try {
    more = protocol::events_from_json(member(change, "events"), history);
  } catch (const protocol::RequestError& error) {
    damaged(error.what());
  }
  WebGame next = game;
  if (auto error = next.session.extend(std::move(more))) damaged(*error);
  next.seating = seating_of(change, next.session);
  next.version = version;
  return next;
}

WebGame game_from_stored(const json& record) {
  if (!record.is_object()) damaged("not an object");
  const int format = member_as<int>(record, "format");
  if (format != 1 && format != kStoredFormat) {
    damaged("format " + std::to_string(format) + " is not one this server reads (1 or 2)");
  }
  if (!member(record, "version").is_number_unsigned()) damaged("\"version\" is not a count");
  session::Events history;
  if (format == 1) {
    history = history_of_format_1(record);
  } else {
    try {
      history = protocol::events_from_json(member(record, "history"));
    } catch (const protocol::RequestError& error) {
      damaged(error.what());
    }
  }
  auto session = Session::from_history(std::move(history));
  if (auto* error = std::get_if<std::string>(&session)) damaged(*error);
  if (format == 1) {
    const session::Phase phase = std::get<Session>(session).phase();
    const std::string_view name = phase == session::Phase::Over ? "game_over" : to_string(phase);
    if (member_as<std::string>(record, "phase") != name) {
      damaged("the phase does not match the legal moves");
    }
  }
  Seating seating = seating_of(record, std::get<Session>(session));
  return WebGame{member_as<std::string>(record, "id"), member_as<std::uint64_t>(record, "version"),
                 std::get<Session>(std::move(session)), std::move(seating)};
}

}  // namespace ur::server
