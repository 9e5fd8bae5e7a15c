// ur_load's online mode: N online games between two WebSocket clients each, as two people on
// two devices would play them (docs/web-api.md, the issue 16 contract). Per game: the host
// creates it (POST /api/games, opponent "online"), a friend joins with the invite
// (POST /api/join), each opens /api/games/{id}/ws with the page's Origin, says hello with its
// seat token and plays its own seat from the pushed updates (throw, a random legal move,
// pass) after a random think time. When the game is over its record
// (GET /api/games/{id}/record) is read and replayed by src/records, and must give the winner
// and the very throws and moves the clients saw.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace ur::load {

struct OnlineOptions {
  std::uint16_t port = 0;  // the host's server: creating the game, the host's socket, the record
  // The friend's server (the join and the friend's socket); 0 is the host's. Two servers on one
  // database put every move's delivery across servers (issue 17).
  std::uint16_t friend_port = 0;
  int games = 1000;
  int threads = 2;        // threads running the one io_context
  int pieces = 7;         // Finkel with this many pieces a side
  int think_min_ms = 50;  // each action waits a think time drawn from [min, max]
  int think_max_ms = 400;
  int setup_parallel = 64;    // games being created, joined and connected at once
  int stall_seconds = 15;     // a game without any message for this long is an error
  int max_seconds = 900;      // the whole run; when it passes the run stops and fails
  int progress_seconds = 10;  // a progress line on stderr this often (0: none)
  std::uint64_t seed = 1;     // think times, move choices and seats; the dice are the server's
  // The targets (p99, ms): issue 16's for one server; issue 17's (30, 100) across two.
  double server_target_ms = 20;
  double delivery_target_ms = 50;
};

struct OnlineReport {
  int games = 0;
  int started = 0;          // both seats connected
  int finished = 0;         // both seats saw game_over
  int confirmed = 0;        // the replayed record gave the same winner, throws and moves
  int peak_concurrent = 0;  // games being played at the same moment
  long long errors = 0;
  std::vector<std::string> first_errors;  // the first few, for the report
  long long actions = 0;                  // intents sent (hello not counted)
  long long moves = 0;
  long long messages = 0;  // received by the clients, all types
  long long message_bytes = 0;
  long long largest_message = 0;
  long long light_wins = 0;
  std::vector<double> server_millis;    // server_ms of the update each intent caused
  std::vector<double> delivery_millis;  // a move's send -> the opponent's update with it
  std::vector<double> setup_millis;     // create + join + both sockets open and hello sent
  double seconds = 0;
  bool timed_out = false;
};

OnlineReport run_online(const OnlineOptions& options);

// The summary ur_load prints, with whether each of the targets is met.
std::string format_report(const OnlineOptions& options, const OnlineReport& report);

// The options' targets: server time per action p99 and delivery of a move p99 below them.
bool targets_met(const OnlineOptions& options, const OnlineReport& report);

}  // namespace ur::load
