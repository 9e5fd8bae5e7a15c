// Reading game record files (RGN, or JSON records one a line) for the commands that take
// them: ur record, ur review, ur replay.
#pragma once

#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "protocol/record_json.h"
#include "records/record.h"

namespace ur::cli {

// The text of `file` ("-" for standard input), or a sentence saying why it cannot be read
// (index 1). Files over 64 MiB are refused.
std::variant<std::string, std::string> read_record_file(const std::string& file);

// Every game in a record file's text (protocol/record_json.h).
using protocol::parse_record_text;

// Every game in `file`, read and checked; or the error line for the command to print after
// its "ur COMMAND: " ("cannot open x.rgn: ...", "x.rgn: line 2, column 1: ..."), index 1.
std::variant<std::vector<records::GameRecord>, std::string> read_records(const std::string& file);

}  // namespace ur::cli
