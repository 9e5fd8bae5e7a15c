// Game records on disk for `ur play`: the series' records as RGN (docs/records.md), written
// whole to FILE.tmp and renamed over FILE, so a crash leaves the old file or the new one,
// never half of one.
#pragma once

#include <optional>
#include <string>

#include "play/play_session.h"

namespace ur::play {

// Why records cannot be written to `path`, or nothing: a directory, a missing parent
// directory (never created) or one we may not write into are refused.
std::optional<std::string> check_record_path(const std::string& path);

// Writes every game of `game` to `path` as RGN; returns why it failed, or nothing.
std::optional<std::string> write_records(const PlaySession& game, const std::string& path);

// "ur-game-20261201-101500.rgn": the default name for records saved at `time` (UTC).
std::string default_record_name(session::Time time);

}  // namespace ur::play
