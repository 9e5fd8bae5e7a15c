// The named levels players choose from, as presets over the agent kinds.
#pragma once

#include <optional>
#include <span>
#include <string_view>

namespace ur {

struct LevelPreset {
  std::string_view name;         // "easy", ...
  std::string_view description;  // one line for help texts
  int search_depth;              // throws searched, or 0 for a non-searching level
  double blunder_chance;         // for the non-searching level: chance of a random move
};

// easy, medium, hard, expert, weakest first. Measured strength: docs/strength.md.
std::span<const LevelPreset> level_presets();

// The preset called `name`, or nullptr.
const LevelPreset* find_level(std::string_view name);

// The throws searched by a spec: a searching level's depth or the D of "expectimax:D";
// nothing for other kinds and for bad specs.
std::optional<int> search_depth_of(std::string_view spec);

}  // namespace ur
