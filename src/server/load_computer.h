// ur_load's computer mode: N games at once, each on its own keep-alive HTTP connection,
// light played by random legal moves and dark by the server's computer, so N computer
// against computer games through the API. It times requests and the server's time for the
// computer's turns.
#pragma once

#include <cstdint>
#include <string>

namespace ur::load {

struct ComputerOptions {
  std::uint16_t port = 0;
  int games = 500;
  int threads = 16;  // blocking client threads, each playing its share of the games
  std::string level = "hard";
  int pieces = 7;
  std::uint64_t seed = 1;  // the random moves; the dice are the server's
};

// Plays the games and prints the summary; 0 when every game finished without an error.
int run_computer(const ComputerOptions& options);

}  // namespace ur::load
