#include "server/geometry_json.h"

#include <utility>
#include <vector>

#include "core/rule_sets.h"
#include "solver/position_index.h"

namespace ur::server {

using nlohmann::json;

namespace {

json path_tiles(const Rules& rules, Side side) {
  json tiles = json::array();
  for (Square square = 1; square <= rules.route_length; ++square) {
    tiles.push_back(tile_name(square_cell(rules, side, square)));
  }
  return tiles;
}

// The tiles of light's squares in `mask` and their mirrors for dark, in board order.
json tiles_of(const Rules& rules, SquareMask mask) {
  json tiles = json::array();
  for (const Cell& cell : board_cells(rules.board)) {
    for (Side side : {Side::Light, Side::Dark}) {
      const auto square = square_on_cell(rules, side, cell);
      if (square && (mask & square_bit(*square))) {
        tiles.push_back(tile_name(cell));
        break;
      }
    }
  }
  return tiles;
}

json dice_json(const Rules& rules) {
  json rolls = json::array();
  for (Roll roll = 0; roll <= rules.max_roll(); ++roll) {
    if (!possible_roll(rules, roll)) continue;
    rolls.push_back({{"roll", roll},
                     {"weight", roll_weight(rules, roll)},
                     {"chance", roll_probability(rules, roll)}});
  }
  return {{"count", rules.dice},
          {"zero_counts_as_max", rules.zero_counts_as_max},
          {"min_roll", min_roll(rules)},
          {"max_roll", rules.max_roll()},
          {"total_weight", roll_weight_total(rules)},
          {"rolls", std::move(rolls)}};
}

}  // namespace

std::optional<std::string> perfect_play_unavailable(const Rules& rules) {
  auto why = solver::unsupported_rules(rules);
  if (!why) return std::nullopt;
  // The solver's reason names the set ("perfect play for ... is not available: ...").
  if (!why->empty() && (*why)[0] >= 'a' && (*why)[0] <= 'z')
    (*why)[0] = static_cast<char>((*why)[0] - 'a' + 'A');
  return *why + ".";
}

namespace {

json build_geometry_json(const Rules& rules) {
  json cells = json::array();
  for (const Cell& cell : board_cells(rules.board)) {
    cells.push_back({{"tile", tile_name(cell)},
                     {"lane", cell.lane},
                     {"column", cell.column},
                     {"rosette", is_rosette(rules.board, cell)}});
  }
  const auto unavailable = perfect_play_unavailable(rules);
  return {
      {"name", rule_set_name(rules)},
      {"title", rule_set_title(rules)},
      {"board", board_name(rules.board)},
      {"path", path_name(rules.path)},
      {"columns", board_columns(rules.board)},
      {"rows", 3},
      {"route_length", rules.route_length},
      {"home", rules.home_square()},
      {"pieces", rules.pieces},
      {"bear_off", to_string(rules.bear_off)},
      {"cells", std::move(cells)},
      {"paths",
       {{"light", path_tiles(rules, Side::Light)}, {"dark", path_tiles(rules, Side::Dark)}}},
      {"rosettes", tiles_of(rules, rules.rosettes)},
      {"safe", tiles_of(rules, rules.safe)},
      {"dice", dice_json(rules)},
      {"flags",
       {{"safe_rosettes", rules.safe_rosettes},
        {"rosette_gives_extra_throw", rules.rosette_gives_extra_throw},
        {"capture_gives_extra_throw", rules.capture_gives_extra_throw}}},
      {"prose", rules_prose(rules, "Shell", "Bitumen")},
      {"perfect_play", unavailable ? json(*unavailable) : json(nullptr)},
  };
}

}  // namespace

json geometry_json(const Rules& rules) {
  // Every state and update carries its geometry, and it depends on the rules only: build
  // each set's once per thread (a server sees a handful of sets).
  constexpr std::size_t kCachedSets = 16;
  thread_local std::vector<std::pair<Rules, json>> cache;
  for (const auto& [cached_rules, geometry] : cache) {
    if (cached_rules == rules) return geometry;
  }
  json geometry = build_geometry_json(rules);
  if (cache.size() == kCachedSets) cache.erase(cache.begin());
  cache.emplace_back(rules, geometry);
  return geometry;
}

namespace {

// "standard, aseb" as ["standard", "aseb"].
json name_list(std::string_view names) {
  json list = json::array();
  while (!names.empty()) {
    const std::size_t comma = names.find(", ");
    list.push_back(std::string(names.substr(0, comma)));
    names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 2);
  }
  return list;
}

}  // namespace

json rule_sets_json() {
  json sets = json::array();
  for (const NamedRuleSet& set : named_rule_sets()) {
    sets.push_back({{"name", set.name},
                    {"title", set.title},
                    {"summary", set.summary},
                    {"geometry", geometry_json(Rules(set.spec))}});
  }
  // The columns a custom set may choose, as rules_from_json reads them.
  json columns = {{"board", name_list(kBoardNames)},
                  {"path", name_list(kPathNames)},
                  {"dice", {{"min", 1}, {"max", RuleSpec::kMaxDice}}},
                  {"zero_roll", {zero_roll_name(false), zero_roll_name(true)}},
                  {"flags", {"safe_rosettes", "rosette_extra_throw", "capture_extra_throw"}}};
  return {{"rule_sets", std::move(sets)}, {"columns", std::move(columns)}};
}

}  // namespace ur::server
