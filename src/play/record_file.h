// Game records on disk for `ur play`: the series' records as RGN (docs/records.md), written
// whole to FILE.tmp and renamed over FILE, so a crash leaves the old file or the new one,
// never half of one.
#pragma once

#include <optional>
#include <string>

#include "play/play_session.h"

namespace ur::play {

// Why records cannot be written to `path`, or nothing: a directory, a device, pipe or socket,
// a missing parent directory (never created) or one we may not write into are refused. A
// symbolic link is judged by the file it names.
std::optional<std::string> check_record_path(const std::string& path);

// Writes every game of `game` to `path` as RGN (through a symbolic link, to the file it
// names); returns why it failed, or nothing. `path` is checked again first: it may have
// changed since the game began.
std::optional<std::string> write_records(const PlaySession& game, const std::string& path);

// "ur-game-20261201-101500.rgn": the default name for records saved at `time` (UTC).
std::string default_record_name(session::Time time);

}  // namespace ur::play
