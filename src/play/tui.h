// The interactive game loop: draws the screen, reads keys, paces the computer's moves.
#pragma once

#include "play/game.h"

namespace ur::play {

struct InteractiveOptions {
  bool color = true;
  bool route_numbers = true;
};

// Plays in the terminal until the player quits. Returns the exit code: 0 after q, 128 + N
// after a terminating signal N. Throws std::runtime_error when stdin/stdout is no terminal.
int run_interactive(Game& game, const InteractiveOptions& options);

}  // namespace ur::play
