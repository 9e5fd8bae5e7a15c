// The interactive game loop: draws the screen, reads keys, paces the computer's moves.
#pragma once

#include <optional>
#include <string>

#include "play/play_session.h"
#include "play/table_build.h"

namespace ur::play {

struct InteractiveOptions {
  bool color = true;
  bool route_numbers = true;
  const TableBuilder* tables = nullptr;  // offers to build a missing table; null: never
  // The first game's settings when `game` is not configured yet because they need a table
  // built first: the session opens on that question.
  std::optional<Settings> first_game;
  // --record FILE: the records are rewritten after every game and when the game ends.
  std::string record_path;
};

// Plays in the terminal until the player quits. Returns the exit code: 0 after q, 128 + N
// after a terminating signal N, 1 when the records could not be written at the end (the
// reason goes to stderr once the terminal is restored). Throws std::runtime_error when stdin/stdout
// is no terminal.
int run_interactive(PlaySession& game, const InteractiveOptions& options);

}  // namespace ur::play
