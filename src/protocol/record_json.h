// The JSON record (docs/records.md): the same content as RGN, for programs.
//   {"rules": {...}, "tags": {...},
//    "plies": [{"turn": 1, "side": "light", "roll": 2, "move": {"from": 0, "to": 2} | null,
//               "capture": false, "extra_throw": false, "rgn": "A@A3", "position": P}, ...],
//    "result": {"winner": "light" | "dark" | null, "resigned": "light" | "dark" | null}}
// `position` is the position after the ply; every throw is a ply, passes included. `rgn` is
// the ply's action in RGN, for readers without the tile names; reading ignores it.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "records/record.h"

namespace ur::protocol {

nlohmann::json to_json(const records::GameRecord& record, const records::Replay& replay);

// Reads and replays a JSON record. Throws RequestError naming the member that is wrong
// ("plies[12]: turn 7: dark cannot play ...") and what is expected; `position` members,
// when present, must match the replayed positions.
records::GameRecord record_from_json(const nlohmann::json& value);

// Every game in `text`: JSON records (one a line) when it starts with '{', else RGN. The
// error names the line (and column) and what is wrong.
std::variant<std::vector<records::GameRecord>, std::string> parse_record_text(
    std::string_view text);

}  // namespace ur::protocol
