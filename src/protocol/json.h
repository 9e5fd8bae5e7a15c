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

// Requests are shallow; text nesting arrays or objects deeper than this is refused before it is
// parsed, so that a hostile request cannot exhaust a thread's stack in the recursive parts of
// the JSON library (printing a value recurses once per level).
inline constexpr int kMaxJsonNesting = 64;

// True when `text` nests arrays or objects more than kMaxJsonNesting levels deep (brackets
// inside strings do not count). Linear, and safe on any bytes.
bool nests_too_deeply(std::string_view text);

// Why a text is not one JSON value that a request or record may be, in a phrase without the
// library's prefix ("syntax error ... at line 1, column 9", "the key \"cmd\" appears twice in
// one object").
class JsonTextError : public std::runtime_error {
 public:
  JsonTextError(const std::string& why, std::size_t byte) : std::runtime_error(why), byte_(byte) {}
  std::size_t byte() const { return byte_; }  // 1-based offset where it went wrong; 0: unknown

 private:
  std::size_t byte_;
};

// Parses the whole of `text` as one JSON value. Unlike the library's parse, a key repeated
// within one object is refused: the library keeps the last of them silently, so a request
// {"cmd":"moves","cmd":"apply"} would run whichever a reader did not expect. A number beyond
// a double's range (1e400) is refused too. Throws JsonTextError.
nlohmann::json parse_json_text(std::string_view text);

// `value` as compact JSON for an answer on the wire. A string built from outside bytes (a
// header, a path, the library's "last read" text) may not be UTF-8, which the library's own
// dump refuses by throwing: here such bytes become U+FFFD, so an answer is always written.
std::string wire_text(const nlohmann::json& value);

// `value` as compact JSON for an error message, cut to about `limit` characters.
std::string quote_json(const nlohmann::json& value, std::size_t limit = 60);

}  // namespace ur::protocol
