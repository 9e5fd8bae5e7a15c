// JSON forms of positions, moves and rules, shared by `ur engine` and `ur serve`.
// Position shape (docs/notation.md):
//   {"turn":"light","light":{"start":3,"home":1,"board":[2,5,9]},"dark":{...}}
#pragma once

#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

#include "core/movegen.h"
#include "protocol/json_text.h"

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
// Rules: {"name":"masters"} with any column overridden ("pieces", "bear_off", "board",
// "path", "dice", "zero_roll", "safe_rosettes", "rosette_extra_throw", "capture_extra_throw").
// No name means Finkel, so the old {"pieces":K,"bear_off":"exact"|"any"} still reads.
Rules rules_from_json(const nlohmann::json& value);
// Reads the optional "rules" member of a request; Finkel when absent.
Rules rules_from_request(const nlohmann::json& request);
Roll roll_from_json(const nlohmann::json& value, const Rules& rules);

// Request helpers shared by every engine handler. `request` must be a JSON object.
// The member `key`, or RequestError naming it and saying what it should hold.
const nlohmann::json& require_member(const nlohmann::json& request, std::string_view key,
                                     std::string_view expected);
// The member `key` as an integer in min..max.
int require_integer(const nlohmann::json& request, std::string_view key, int min, int max);
// The optional member `key` as a 64-bit seed, 0..2^64-1; `fallback` when absent.
std::uint64_t optional_seed(const nlohmann::json& request, std::string_view key,
                            std::uint64_t fallback);
// The validated "position" and "roll" members.
Position position_from_request(const nlohmann::json& request, const Rules& rules);
Roll roll_from_request(const nlohmann::json& request, const Rules& rules);
// Throws RequestError when a side already has all pieces home (nobody may move then).
void require_game_in_progress(const Rules& rules, const Position& position);
// The request's "move" member resolved against the legal moves for `roll`: a legal Move for
// {"from":f}, or nullopt for null (a pass, accepted only when no legal move exists).
std::optional<Move> move_from_request(const nlohmann::json& request, const Rules& rules,
                                      const Position& position, Roll roll);

}  // namespace ur::protocol
