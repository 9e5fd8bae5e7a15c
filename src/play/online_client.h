// `ur play --host` and `ur play --join`: the terminal as one real client of an online game on
// `ur serve`, beside a browser (or another terminal). It creates or joins the game over HTTP,
// keeps it in step over the game's WebSocket (reopened when it drops), and plays its seat
// with the keys of the local game. The server is the referee and throws the dice.
#pragma once

#include <string>

#include "core/rules.h"

namespace ur::play {

struct OnlineOptions {
  bool host = false;  // --host: create a game on `url`, a server; else --join `url`, a link
  std::string url;
  std::string name;              // --name: my display name (empty: the side's name)
  Rules rules = finkel_rules();  // --host: the rules of the game
  std::string seat = "light";    // --host: the side I play
  bool color = true;
  bool route_numbers = true;
};

// Plays until the player quits; returns the exit code (0, or the codes of cli/command.h:
// 2 for a bad link or refused settings, 1 when the server cannot be reached or refuses the
// invite, 128 + N after a terminating signal N). Errors go to stderr as one line each.
int run_online(const OnlineOptions& options);

}  // namespace ur::play
