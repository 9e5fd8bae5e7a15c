// JSON as text: reading a request or record safely, and writing an answer that is always valid.
// Shared by `ur engine`, `ur serve` and the record readers.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace ur::protocol {

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

// The member `name` of the object that `text` holds, as read up to the first fault in the text,
// so that a request refused for its syntax, its nesting or a NUL byte still names its "id".
// nullopt when the text is no object, when the member is missing, is named more than once
// before the fault, nests deeper than kMaxJsonNesting, or is cut off by the fault. Linear, and
// safe on any bytes.
std::optional<nlohmann::json> member_before_fault(std::string_view text, std::string_view name);

}  // namespace ur::protocol
