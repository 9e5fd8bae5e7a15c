#include "protocol/session_json.h"

#include "core/notation.h"
#include "protocol/json.h"
#include "session/overloaded.h"

namespace ur::protocol {

using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& what) {
  throw RequestError(what);
}

// `"key"`, built step by step (GCC 12 misreads `"\"" + std::string(key)` as overlapping).
std::string quoted(std::string_view key) {
  std::string text(1, '"');
  text.append(key);
  text.push_back('"');
  return text;
}

const json& member(const json& object, std::string_view key) {
  if (!object.is_object()) bad("expected a JSON object, got " + quote_json(object));
  const auto found = object.find(key);
  if (found == object.end()) bad("missing " + quoted(key));
  return *found;
}

bool boolean(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_boolean()) bad(quoted(key) + " must be true or false");
  return value.get<bool>();
}

std::uint64_t unsigned_number(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_number_unsigned()) bad(quoted(key) + " must be a whole number");
  return value.get<std::uint64_t>();
}

std::int64_t signed_number(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_number_integer()) bad(quoted(key) + " must be a whole number");
  return value.get<std::int64_t>();
}

int small_number(const json& object, std::string_view key, int min, int max) {
  const std::int64_t value = signed_number(object, key);
  if (value < min || value > max) {
    bad(quoted(key) + " must be " + std::to_string(min) + " to " + std::to_string(max));
  }
  return static_cast<int>(value);
}

const std::string& text(const json& object, std::string_view key) {
  const json& value = member(object, key);
  if (!value.is_string()) bad(quoted(key) + " must be a string");
  return value.get_ref<const std::string&>();
}

Side side(const json& object, std::string_view key) {
  const std::string& name = text(object, key);
  if (name == "light") return Side::Light;
  if (name == "dark") return Side::Dark;
  bad(quoted(key) + " must be \"light\" or \"dark\"");
}

json dice_json(const session::Dice& dice) {
  return {{"marks", dice.marks}, {"count", dice.count}};
}

session::Dice dice_from(const json& object, std::string_view key) {
  const json& value = member(object, key);
  const int count = small_number(value, "count", 1, 8);
  const int marks = small_number(value, "marks", 0, (1 << count) - 1);
  return {static_cast<std::uint8_t>(marks), static_cast<std::uint8_t>(count)};
}

}  // namespace

json to_json(const session::Settings& settings) {
  json seats = json::array();
  for (const session::Seat& seat : settings.seats) {
    seats.push_back({{"agent", seat.agent}, {"name", seat.name}});
  }
  return {{"rules", to_json(settings.rules)},
          {"seats", std::move(seats)},
          {"starts", session::to_string(settings.starts)},
          {"auto_play", settings.auto_play},
          {"auto_pass", settings.auto_pass},
          {"take_back", settings.take_back}};
}

session::Settings settings_from_json(const json& value) {
  if (!value.is_object()) bad("settings must be a JSON object");
  session::Settings settings;
  settings.rules = rules_from_request(value);
  const json& seats = member(value, "seats");
  if (!seats.is_array() || seats.size() != 2) bad("\"seats\" must list the two seats");
  for (std::size_t i = 0; i < 2; ++i) {
    settings.seats[i] = {text(seats[i], "agent"), text(seats[i], "name")};
  }
  const auto starts = session::start_rule_from_name(text(value, "starts"));
  if (!starts) bad("\"starts\" must be \"alternate\" or \"higher\"");
  settings.starts = *starts;
  settings.auto_play = boolean(value, "auto_play");
  settings.auto_pass = boolean(value, "auto_pass");
  settings.take_back = boolean(value, "take_back");
  if (auto error = session::validate(settings)) bad(*error);
  return settings;
}

json to_json(const session::Event& event) {
  json out = std::visit(
      session::Overloaded{
          [](const session::SeriesStarted& e) -> json {
            return {{"type", "series"},
                    {"settings", to_json(e.settings)},
                    {"seed", e.seed},
                    {"tally_before", e.tally_before},
                    {"throws_before", e.throws_before}};
          },
          [](const session::OpeningRound& e) -> json {
            return {
                {"type", "opening"}, {"light", dice_json(e.light)}, {"dark", dice_json(e.dark)}};
          },
          [](const session::GameStarted& e) -> json {
            return {{"type", "game"},
                    {"number", e.number},
                    {"first", side_name(e.first)},
                    {"from", e.from ? json(to_text(*e.from)) : json(nullptr)}};
          },
          [](const session::Thrown& e) -> json {
            return {{"type", "throw"},
                    {"side", side_name(e.side)},
                    {"dice", dice_json(e.dice)},
                    {"roll", e.roll}};
          },
          [](const session::Moved& e) -> json {
            json move = to_json(e.move);
            move["type"] = "move";
            move["side"] = side_name(e.side);
            move["roll"] = e.roll;
            move["automatic"] = e.automatic;
            return move;
          },
          [](const session::Passed& e) -> json {
            return {{"type", "pass"},
                    {"side", side_name(e.side)},
                    {"roll", e.roll},
                    {"automatic", e.automatic}};
          },
          [](const session::Resigned& e) -> json {
            return {{"type", "resign"}, {"side", side_name(e.side)}};
          },
          [](const session::TookBack& e) -> json {
            return {
                {"type", "take_back"}, {"side", side_name(e.side)}, {"move_index", e.move_index}};
          },
          [](const session::GameEnded& e) -> json {
            return {{"type", "end"},
                    {"winner", side_name(e.winner)},
                    {"by_resignation", e.by_resignation}};
          },
          [](const session::HintsShown& e) -> json {
            return {{"type", "hints"}, {"side", side_name(e.side)}, {"on", e.on}};
          },
          [](const session::SettingsChanged& e) -> json {
            return {
                {"type", "settings"}, {"settings", to_json(e.settings)}, {"at_once", e.at_once}};
          },
      },
      event.body);
  out["time"] = event.time;
  return out;
}

json to_json(const session::Events& events) {
  json out = json::array();
  for (const session::Event& event : events) out.push_back(to_json(event));
  return out;
}

namespace {

session::Event event_from(const json& value, Rules& rules) {
  session::Event event;
  event.time = signed_number(value, "time");
  const std::string& type = text(value, "type");
  const int max_roll = rules.max_roll();
  if (type == "series") {
    session::SeriesStarted e;
    e.settings = settings_from_json(member(value, "settings"));
    e.seed = unsigned_number(value, "seed");
    const json& tally = member(value, "tally_before");
    auto count = [](const json& n) {
      return n.is_number_integer() && n.get<std::int64_t>() >= 0 &&
             n.get<std::int64_t>() <= 1'000'000;
    };
    if (!tally.is_array() || tally.size() != 2 || !count(tally[0]) || !count(tally[1])) {
      bad("\"tally_before\" must be two game counts");
    }
    e.tally_before = {tally[0].get<int>(), tally[1].get<int>()};
    e.throws_before = unsigned_number(value, "throws_before");
    rules = e.settings.rules;
    event.body = e;
  } else if (type == "opening") {
    event.body = session::OpeningRound{dice_from(value, "light"), dice_from(value, "dark")};
  } else if (type == "game") {
    session::GameStarted e{small_number(value, "number", 1, 1'000'000), side(value, "first"),
                           std::nullopt};
    const json& from = member(value, "from");
    if (!from.is_null()) {
      if (!from.is_string()) bad("\"from\" must be position text or null");
      auto parsed = parse_text(from.get_ref<const std::string&>(), rules);
      if (auto* error = std::get_if<ParseError>(&parsed)) bad("\"from\": " + error->message);
      e.from = std::get<Position>(parsed);
    }
    event.body = e;
  } else if (type == "throw") {
    event.body = session::Thrown{side(value, "side"), dice_from(value, "dice"),
                                 static_cast<Roll>(small_number(value, "roll", 0, max_roll))};
  } else if (type == "move") {
    const int home = rules.home_square();
    Move move{static_cast<std::uint8_t>(small_number(value, "from", 0, home - 1)),
              static_cast<std::uint8_t>(small_number(value, "to", 1, home)),
              boolean(value, "capture"), boolean(value, "extra_throw")};
    event.body = session::Moved{side(value, "side"),
                                static_cast<Roll>(small_number(value, "roll", 0, max_roll)), move,
                                boolean(value, "automatic")};
  } else if (type == "pass") {
    event.body = session::Passed{side(value, "side"),
                                 static_cast<Roll>(small_number(value, "roll", 0, max_roll)),
                                 boolean(value, "automatic")};
  } else if (type == "resign") {
    event.body = session::Resigned{side(value, "side")};
  } else if (type == "take_back") {
    event.body = session::TookBack{side(value, "side"), unsigned_number(value, "move_index")};
  } else if (type == "end") {
    event.body = session::GameEnded{side(value, "winner"), boolean(value, "by_resignation")};
  } else if (type == "hints") {
    event.body = session::HintsShown{side(value, "side"), boolean(value, "on")};
  } else if (type == "settings") {
    session::SettingsChanged e{settings_from_json(member(value, "settings")),
                               boolean(value, "at_once")};
    // A change at once rules the game it restarts; a later one rules from the next game,
    // whose start event comes after it, so both take effect for what follows.
    rules = e.settings.rules;
    event.body = e;
  } else {
    bad("unknown event type " + quote_json(type));
  }
  return event;
}

}  // namespace

session::Events events_from_json(const json& value) {
  return events_from_json(value, {});
}

session::Events events_from_json(const json& value, const session::Events& before) {
  if (!value.is_array()) bad("a history must be a JSON array of events");
  // The rules event_from reads under: those of the latest event that set them.
  Rules rules = finkel_rules();
  for (auto event = before.rbegin(); event != before.rend(); ++event) {
    if (const auto* series = std::get_if<session::SeriesStarted>(&event->body)) {
      rules = series->settings.rules;
      break;
    }
    if (const auto* changed = std::get_if<session::SettingsChanged>(&event->body)) {
      rules = changed->settings.rules;
      break;
    }
  }
  session::Events events;
  events.reserve(value.size());
  for (std::size_t i = 0; i < value.size(); ++i) {
    try {
      events.push_back(event_from(value[i], rules));
    } catch (const RequestError& error) {
      bad("event " + std::to_string(before.size() + i) + ": " + error.what());
    }
  }
  return events;
}

}  // namespace ur::protocol
