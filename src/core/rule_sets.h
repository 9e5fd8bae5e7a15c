// The registry of named rule sets (finkel, masters, blitz, aseb), the names of every column,
// the check that makes a RuleSpec playable, the geometry the front ends draw, and the prose
// that explains a set. One description feeds move generation, drawing and words.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/rules.h"

namespace ur {

struct NamedRuleSet {
  std::string_view name;     // "masters": the key in JSON, the CLI and RGN (case-insensitive)
  std::string_view title;    // "Masters": as RoyalUr.net and RGN's Rules tag write it
  std::string_view summary;  // one sentence for the settings screens
  RuleSpec spec;
};

// finkel (the default), masters, blitz, aseb, in that order.
std::span<const NamedRuleSet> named_rule_sets();
// Case-insensitive; nullptr for an unknown name.
const NamedRuleSet* find_rule_set(std::string_view name);
// The named set `name` with `pieces` pieces. Precondition: find_rule_set(name) is not null.
Rules named_rules(std::string_view name, int pieces);
// "finkel, masters, blitz, aseb": for errors that list the known names.
std::string known_rule_set_names();

// The named set whose board, path, dice and flags `rules` has (pieces and bear-off may
// differ), or "custom".
std::string_view rule_set_name(const Rules& rules);
// "Masters", "Finkel, 5 pieces", "Custom (masters path, 4 dice, 0 passes), any throw bears
// off": for titles. Different rules always get different titles.
std::string rule_set_title(const Rules& rules);

// Why the columns cannot be played (a path that leaves the board, a dice count or piece count
// out of range), or nothing.
std::optional<std::string> why_unplayable(const RuleSpec& spec);

// Column names, as JSON, the CLI and records spell them.
std::string_view board_name(BoardShape board);  // "standard", "aseb"
std::string_view path_name(PathKind path);      // "finkel", "masters", "aseb", "murray", ...
std::optional<BoardShape> board_from_name(std::string_view name);
std::optional<PathKind> path_from_name(std::string_view name);  // also "bell" (= finkel)
std::string_view zero_roll_name(bool zero_counts_as_max);       // "pass", "max"
inline constexpr std::string_view kBoardNames = "standard, aseb";
inline constexpr std::string_view kPathNames = "finkel, masters, aseb, murray, skiriuk";

// Geometry. Columns run 1..board_columns; lane 0 (A) is light's own row.
int board_columns(BoardShape board);  // 8 or 12
std::vector<Cell> board_cells(BoardShape board);
// The cell of `side`'s route square 1..route_length.
Cell square_cell(const Rules& rules, Side side, Square square);
// The route square of `side` on `cell`, the first if the path crosses it twice, or nothing.
std::optional<Square> square_on_cell(const Rules& rules, Side side, Cell cell);
// "A4", "B12".
std::string tile_name(Cell cell);

// The rules in words for the rules pages: one sentence per item, following the set's data,
// the sides named as the page names them ("light" and "dark", or "Shell" and "Bitumen").
std::vector<std::string> rules_prose(const Rules& rules, std::string_view light = "light",
                                     std::string_view dark = "dark");

}  // namespace ur
