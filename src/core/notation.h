// The compact one-line position text, e.g. "L:3/2,5,9/1:5/7,14/0".
// Grammar (see docs/notation.md):  TURN ":" SIDE ":" SIDE   with light's side first,
//   TURN := "L" | "D",   SIDE := START "/" SQUARES "/" HOME,   SQUARES := "-" | n ("," n)*
// Squares are route squares in that side's own numbering, ascending.
#pragma once

#include <string>
#include <string_view>
#include <variant>

#include "core/position.h"

namespace ur {

std::string to_text(const Position& position);

// Either the parsed (and validated) position or a message saying what is wrong.
struct ParseError {
  std::string message;
};
std::variant<Position, ParseError> parse_text(std::string_view text, const Rules& rules);

std::string_view side_name(Side side);  // "light" / "dark"

}  // namespace ur
