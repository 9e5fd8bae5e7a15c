#include "session/settings.h"

namespace ur::session {

std::string_view to_string(StartRule rule) {
  return rule == StartRule::Alternate ? "alternate" : "higher";
}

std::optional<StartRule> start_rule_from_name(std::string_view name) {
  if (name == "alternate") return StartRule::Alternate;
  if (name == "higher") return StartRule::HigherThrow;
  return std::nullopt;
}

Settings against_computer(std::string agent, Side person) {
  Settings settings;
  settings.seats[index_of(person)] = Seat{};
  settings.seats[index_of(opponent(person))] = Seat{std::move(agent), {}};
  return settings;
}

Settings between_friends() {
  Settings settings;
  settings.seats = {Seat{}, Seat{}};
  settings.take_back = false;
  return settings;
}

std::optional<std::string> validate(const Settings& settings) {
  const Rules& rules = settings.rules;
  if (rules.pieces < Rules::kMinPieces || rules.pieces > Rules::kMaxPieces) {
    return "pieces must be " + std::to_string(Rules::kMinPieces) + " to " +
           std::to_string(Rules::kMaxPieces) + ", got " + std::to_string(rules.pieces);
  }
  if (rules.dice < 1 || rules.dice > 8) {
    return "dice must be 1 to 8, got " + std::to_string(rules.dice);
  }
  if (rules.route_length < 1 || rules.route_length > 30) {
    return "the route must have 1 to 30 squares, got " + std::to_string(rules.route_length);
  }
  return std::nullopt;
}

}  // namespace ur::session
