// How a --database value is repeated in messages and logs: on one printable line, with a
// PostgreSQL URL's password masked. Plain string work, shared by both backends and open_store.
#pragma once

#include <string>
#include <string_view>

namespace ur::storage {

// `text` on one printable line: control characters as \n, \t or \xNN, for messages that
// repeat what a user typed.
std::string printable(std::string_view text);
// The URL as messages and logs show it: its password (if any) replaced by "***", on one
// printable line.
std::string shown_url(const std::string& url);

}  // namespace ur::storage
