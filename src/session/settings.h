// What a series of games is played under: the rules, the two seats, who opens each game
// and the player's conveniences. A plain value; front ends validate agent specs before
// they hand settings in (the session knows agents only through the drive loop's source).
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>

#include "core/rules.h"
#include "core/types.h"

namespace ur::session {

// Who opens each game (rules.md, "Who starts").
enum class StartRule : std::uint8_t {
  Alternate,    // light opens game 1, dark game 2, and so on
  HigherThrow,  // both sides throw, ties throw again; the higher thrower opens
};

std::string_view to_string(StartRule rule);  // "alternate" / "higher"
std::optional<StartRule> start_rule_from_name(std::string_view name);

// One side's player. Invariant: `agent` is empty for a person, else an agent spec such as
// "hard" or "expectimax:3" that the drive loop's agent source can build.
struct Seat {
  std::string agent;
  std::string name;  // shown in records; empty means "unnamed"

  bool is_person() const { return agent.empty(); }
  friend bool operator==(const Seat&, const Seat&) = default;
};

struct Settings {
  Rules rules = finkel_rules();
  std::array<Seat, 2> seats{Seat{}, Seat{"medium", {}}};  // by index_of(Side)
  StartRule starts = StartRule::Alternate;
  bool auto_play = false;  // a person's only legal move is played at once
  bool auto_pass = false;  // a person's throw without a legal move passes at once
  bool take_back = true;   // a person may return to their last decision (vs the computer)

  const Seat& seat(Side side) const { return seats[index_of(side)]; }
  bool is_person(Side side) const { return seat(side).is_person(); }
  // Both seats are people: a friend game, on one device or online.
  bool between_people() const { return seats[0].is_person() && seats[1].is_person(); }

  friend bool operator==(const Settings&, const Settings&) = default;
};

// Settings for a person against a computer agent (`person` is the person's side).
Settings against_computer(std::string agent, Side person = Side::Light);
// Settings for two people; take-back is off, as in any game between people.
Settings between_friends();

// What makes the settings unplayable, or nothing (piece count, dice, route).
std::optional<std::string> validate(const Settings& settings);

}  // namespace ur::session
