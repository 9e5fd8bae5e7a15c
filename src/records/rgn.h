// RGN, the Royal Game Notation of RoyalUr.net: tag lines `[Key Value]`, then numbered turns
// `1. <light's actions> / <dark's actions>`. Tiles are named as RoyalUr names them (lane A
// light's row, B the shared row, C dark's row; 1.. along the board, B1-B12 on Aseb's); see
// docs/records.md.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "records/record.h"

namespace ur::records {

// The RGN name of route square `square` for `side` under `rules` ("A4", "B8", "C7" on
// light's Masters path, "B12" on Aseb's); the start
// pile and home have no tile of their own and are written as the lane letter alone.
std::string tile_name(const Rules& rules, Side side, Square square);

// A ply's action as RGN writes it: "A@A4", "A4A1 *", "B3B5x", "A7A+", or "3 --" for a
// throw with no move.
std::string action_text(const Rules& rules, const Ply& ply);

// A tag value as RGN writes it: bare when it is a letter followed by letters, digits,
// '_', '.' or '-', otherwise in double quotes with \" \\ \r \n escaped.
std::string escape_tag_value(std::string_view value);

// One game in RGN. Writing, reading and writing again gives the same bytes.
std::string write_rgn(const GameRecord& record);
// Several games, each followed by a blank line.
std::string write_rgn(const std::vector<GameRecord>& records);

struct ParseError {
  int line = 1;         // 1-based
  int column = 1;       // 1-based, in bytes
  std::string message;  // what was found and what was expected

  std::string text() const;  // "line L, column C: message"
};

// Every game in `text` (one or more, each starting with its tags). Each game's plies are
// checked by replay; an illegal one is reported with its line and column.
std::variant<std::vector<GameRecord>, ParseError> read_rgn(std::string_view text);

// The rule set a RoyalUr `Rules` tag names (Finkel, Masters, Blitz, Aseb, any case; also
// "Finkel with Two Pieces", "Masters with Four Dice" and Custom, which is Finkel's columns
// until column tags change them), or why not, listing the known names.
std::variant<Rules, std::string> rules_from_name(std::string_view name);

// The tags ur writes for a columns tag of a custom rule set, in this order.
inline constexpr std::string_view kBoardTag = "Board";                // standard, aseb
inline constexpr std::string_view kPathTag = "Path";                  // finkel, masters, aseb, ...
inline constexpr std::string_view kDiceTag = "Dice";                  // 1..6
inline constexpr std::string_view kZeroRollTag = "ZeroRoll";          // pass, max
inline constexpr std::string_view kSafeRosettesTag = "SafeRosettes";  // yes, no
inline constexpr std::string_view kRosetteExtraThrowTag = "RosetteExtraThrow";  // yes, no
inline constexpr std::string_view kCaptureExtraThrowTag = "CaptureExtraThrow";  // yes, no

// The tags that name `rules` in a record: Rules (the set's title as RoyalUr writes it, or
// Custom), Pieces and BearOff where they differ from the set's, and for a custom set every
// column above. Reading them back gives `rules`.
std::vector<Tag> rules_tags(const Rules& rules);

// Why `record`'s Result tag disagrees with its game, or nothing: "1-0" is light's win, "0-1"
// dark's, on the board (`winner`) or by the other's resignation (record.resigned, `ended`: the
// last action carries #), "*" a game still being played.
std::optional<std::string> result_tag_problem(const GameRecord& record, std::optional<Side> winner,
                                              bool ended);

// Whether `key` is one of the tags rules_tags writes and rules_from_tags reads.
bool is_rules_tag(std::string_view key);

// The rules `tags` name (Rules, the column tags, Pieces, BearOff; Finkel without a Rules
// tag), or the index of the tag at fault and why.
struct TagError {
  std::size_t tag = 0;
  std::string message;
};
std::variant<Rules, TagError> rules_from_tags(const std::vector<Tag>& tags);

}  // namespace ur::records
