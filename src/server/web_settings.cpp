#include "server/web_settings.h"

#include <algorithm>

#include "core/notation.h"
#include "protocol/json.h"
#include "server/api_error.h"
#include "server/seating.h"

namespace ur::server {

using nlohmann::json;

namespace {

constexpr std::string_view kSettingsExample =
    R"({"opponent":"hard","rules":{"name":"masters"},"pieces":5,"bear_off":"any",)"
    R"("starts":"higher","auto_play":true})";

std::string one_of_message(std::string_view member, std::string_view choices, const json& value) {
  return "setting \"" + std::string(member) + "\" must be " + std::string(choices) + ", got " +
         protocol::quote_json(value);
}

// Reads a string setting that must be one of `choices` (listed in `choices_text`).
template <std::size_t N>
std::string string_choice(const json& value, std::string_view member,
                          const std::array<std::string_view, N>& choices,
                          std::string_view choices_text) {
  if (!value.is_string()) throw bad_request(one_of_message(member, choices_text, value));
  const auto& text = value.get_ref<const std::string&>();
  if (std::find(choices.begin(), choices.end(), text) == choices.end()) {
    throw bad_settings(one_of_message(member, choices_text, value));
  }
  return text;
}

bool boolean_setting(const json& value, std::string_view member) {
  if (!value.is_boolean()) throw bad_request(one_of_message(member, "true or false", value));
  return value.get<bool>();
}

}  // namespace

std::optional<Side> side_from_name(std::string_view name) {
  if (name == "light") return Side::Light;
  if (name == "dark") return Side::Dark;
  return std::nullopt;
}

session::Settings default_web_settings() {
  return session::against_computer("medium", Side::Light);
}

std::string opponent_of(const session::Settings& settings) {
  if (settings.between_people()) return std::string(kFriend);
  return settings.seat(opponent(person_side(settings))).agent;
}

Side person_side(const session::Settings& settings) {
  return settings.is_person(Side::Light) ? Side::Light : Side::Dark;
}

json web_settings_json(const session::Settings& settings, std::optional<Side> host) {
  const Side seat = host.value_or(person_side(settings));
  return {{"opponent", opponent_of(settings)},
          {"rules", protocol::to_json(settings.rules)},
          {"pieces", settings.rules.pieces},
          {"bear_off", to_string(settings.rules.bear_off)},
          {"starts", session::to_string(settings.starts)},
          {"auto_play", settings.auto_play},
          {"auto_pass", settings.auto_pass},
          {"seat", side_name(seat)},
          {"name", settings.seat(seat).name},
          {"take_back", settings.take_back}};
}

session::Settings merge_web_settings(const session::Settings& base, const json& patch) {
  if (!patch.is_object()) {
    throw bad_request("settings must be a JSON object like " + std::string(kSettingsExample) +
                      ", got " + protocol::quote_json(patch));
  }
  session::Settings merged = base;
  std::string rival = opponent_of(base);
  Side seat = person_side(base);
  std::optional<bool> take_back;
  std::optional<std::string> name;
  // The rule set first, so that "pieces" and "bear_off" beside it adjust the chosen set.
  if (const auto rules = patch.find("rules"); rules != patch.end()) {
    if (!rules->is_object()) {
      throw bad_request(R"(setting "rules" must be an object like {"name":"masters"}, got )" +
                        protocol::quote_json(*rules));
    }
    try {
      merged.rules = protocol::rules_from_json(*rules);
    } catch (const protocol::RequestError& error) {
      std::string message = "setting \"rules\": ";
      message += error.what();
      // The reason alone too, for a page to say in its own words.
      throw bad_settings(message).with_detail("rules_refused", error.what());
    }
  }
  for (const auto& [member, value] : patch.items()) {
    if (member == "rules") {
      continue;  // read above
    } else if (member == "opponent" && value == kOnlineOpponent) {
      throw bad_settings(
          R"(An online game is a new game: create it with POST /api/games and "opponent": "online".)");
    } else if (member == "opponent") {
      constexpr std::array<std::string_view, 6> kOpponents = {
          kComputerLevels[0], kComputerLevels[1], kComputerLevels[2],
          kComputerLevels[3], kComputerLevels[4], kFriend};
      rival = string_choice(value, member, kOpponents,
                            "one of \"easy\", \"medium\", \"hard\", \"expert\", "
                            "\"perfect\" or \"friend\" (\"online\" only for a new game)");
    } else if (member == "pieces") {
      const std::string_view choices = "7, 5 or 3";
      if (!value.is_number_integer()) throw bad_request(one_of_message(member, choices, value));
      const auto pieces = value.get<long long>();
      if (pieces != 7 && pieces != 5 && pieces != 3) {
        throw bad_settings(one_of_message(member, choices, value));
      }
      merged.rules.pieces = static_cast<int>(pieces);
    } else if (member == "bear_off") {
      constexpr std::array<std::string_view, 2> kModes = {"exact", "any"};
      merged.rules.bear_off = string_choice(value, member, kModes, "\"exact\" or \"any\"") == "any"
                                  ? BearOff::Any
                                  : BearOff::Exact;
    } else if (member == "starts") {
      constexpr std::array<std::string_view, 2> kRules = {"alternate", "higher"};
      merged.starts = *session::start_rule_from_name(
          string_choice(value, member, kRules, "\"alternate\" or \"higher\""));
    } else if (member == "auto_play") {
      merged.auto_play = boolean_setting(value, member);
    } else if (member == "auto_pass") {
      merged.auto_pass = boolean_setting(value, member);
    } else if (member == "seat") {
      constexpr std::array<std::string_view, 2> kSeats = {"light", "dark"};
      seat = *side_from_name(string_choice(value, member, kSeats, "\"light\" or \"dark\""));
    } else if (member == "take_back") {
      take_back = boolean_setting(value, member);
    } else if (member == "name") {
      name = player_name(value, member);
    } else {
      throw bad_request("unknown setting " + protocol::quote_json(member) +
                        "; the settings are opponent, rules, pieces, bear_off, starts, auto_play, "
                        "auto_pass, seat, name and take_back");
    }
  }
  // A set's own pieces ("rules": {"pieces": 4}) are held to the same choices as "pieces" when
  // they change: a game played on from a 4-piece record keeps its 4 pieces through later
  // settings.
  if (const int pieces = merged.rules.pieces;
      pieces != base.rules.pieces && pieces != 7 && pieces != 5 && pieces != 3) {
    throw bad_settings(one_of_message("pieces", "7, 5 or 3", json(pieces)));
  }
  const std::string person_name = name.value_or(base.seat(person_side(base)).name);
  if (rival == kFriend) {
    // Friends keep their names; a new one names the first seat.
    merged.seats = {session::Seat{{}, base.seats[0].name}, session::Seat{{}, base.seats[1].name}};
    if (name) merged.seats[0].name = *name;
    merged.take_back = false;
  } else {
    merged.seats[index_of(seat)] = session::Seat{{}, person_name};
    merged.seats[index_of(opponent(seat))] = session::Seat{rival, {}};
    // Leaving a friend game (where take-back is off) turns it back on unless asked otherwise.
    merged.take_back = take_back.value_or(base.between_people() ? true : base.take_back);
  }
  return merged;
}

}  // namespace ur::server
