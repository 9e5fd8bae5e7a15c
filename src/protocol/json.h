// JSON forms of positions, moves and rules, shared by `ur engine` and `ur serve`.
// Position shape (docs/notation.md):
//   {"turn":"light","light":{"start":4,"home":1,"board":[2,5,9]},"dark":{...}}
#pragma once

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "core/movegen.h"

namespace ur::protocol {

// Bad input from outside; `what()` says what was wrong and what is expected.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

nlohmann::json to_json(const Position& position);
nlohmann::json to_json(const Move& move);
nlohmann::json to_json(const Rules& rules);

// Each parser validates fully and throws RequestError on any defect.
Position position_from_json(const nlohmann::json& value, const Rules& rules);
// Reads the optional "rules" member of a request: {"pieces":K,"bear_off":"exact"|"any"}.
Rules rules_from_request(const nlohmann::json& request);
Roll roll_from_json(const nlohmann::json& value, const Rules& rules);

}  // namespace ur::protocol
