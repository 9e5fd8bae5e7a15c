// ur_load: a bounded load test of `ur serve` on 127.0.0.1 (make load, scripts/load-test.sh).
//   --mode online (default): N online games, two WebSocket clients each, every result
//     confirmed by the game's replayed record (load_online.h); with --friend-port each game's
//     friend plays through a second server on the same database (scripts/load-cluster.sh);
//   --mode computer: N games against the server's computer over HTTP (load_computer.h).
// Exits 0 when all went well, 1 on any error (or, with --require-targets, a missed target),
// 3 when --max-seconds passed.
#include <CLI/CLI.hpp>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <thread>

#include "server/load_computer.h"
#include "server/load_online.h"

namespace {

// The bound on time, whatever happens to the server: the online mode stops itself at
// --max-seconds and reports; this ends the process soon after if something still hangs.
void start_watchdog(int seconds) {
  std::thread([seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    std::fprintf(stderr, "ur_load: time limit of %d s reached; stopping\n", seconds);
    std::_Exit(3);
  }).detach();
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Bounded load test of ur serve on 127.0.0.1: N concurrent online games between two "
      "WebSocket clients each (--mode online), or against the server's computer "
      "(--mode computer)"};
  std::string mode = "online";
  std::uint16_t port = 0;
  int games = 0;  // per mode's default
  int threads = 0;
  int pieces = 7;
  int max_seconds = 900;
  std::uint64_t seed = 1;
  std::string level = "hard";
  bool require_targets = false;
  ur::load::OnlineOptions online;
  app.add_option("--mode", mode, "online or computer")
      ->check(CLI::IsMember({"online", "computer"}))
      ->capture_default_str();
  app.add_option("--port", port, "Port of the ur serve on 127.0.0.1")
      ->required()
      ->check(CLI::Range(1, 65535));
  app.add_option("--friend-port", online.friend_port,
                 "online: the friends' ur serve on 127.0.0.1 (another server on the same "
                 "database); its targets are issue 17's, p99 < 30 ms and < 100 ms")
      ->check(CLI::Range(1, 65535));
  app.add_option("--games", games, "Concurrent games (online 1000, computer 500)")
      ->check(CLI::Range(1, 5000));
  app.add_option("--threads", threads, "Client threads (online 2, computer 16)")
      ->check(CLI::Range(1, 64));
  app.add_option("--pieces", pieces, "Pieces per side")->check(CLI::IsMember({7, 5, 3}));
  app.add_option("--seed", seed, "Seeds think times, move choices and seats")
      ->capture_default_str();
  app.add_option("--max-seconds", max_seconds, "Stop and fail after this long")
      ->check(CLI::Range(1, 3600))
      ->capture_default_str();
  app.add_option("--level", level, "computer mode: the server's computer level (dark)")
      ->check(CLI::IsMember({"easy", "medium", "hard", "expert", "perfect"}));
  app.add_option("--think-min-ms", online.think_min_ms, "online: shortest think time")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  app.add_option("--think-max-ms", online.think_max_ms, "online: longest think time")
      ->check(CLI::Range(0, 10000))
      ->capture_default_str();
  app.add_option("--setup-parallel", online.setup_parallel,
                 "online: games being created, joined and connected at once")
      ->check(CLI::Range(1, 1000))
      ->capture_default_str();
  app.add_option("--stall-seconds", online.stall_seconds,
                 "online: a game that hears nothing this long is an error (a timeout)")
      ->check(CLI::Range(1, 600))
      ->capture_default_str();
  app.add_option("--progress-seconds", online.progress_seconds,
                 "online: a progress line on stderr this often (0: none)")
      ->check(CLI::Range(0, 3600))
      ->capture_default_str();
  app.add_flag("--require-targets", require_targets,
               "online: fail when server time p99 >= 20 ms or move delivery p99 >= 50 ms (30 "
               "and 100 ms with --friend-port)");
  CLI11_PARSE(app, argc, argv);
  if (online.think_min_ms > online.think_max_ms) {
    std::cerr << "ur_load: --think-min-ms " << online.think_min_ms << " is above --think-max-ms "
              << online.think_max_ms << "\n";
    return 2;
  }
  start_watchdog(max_seconds + 30);

  if (mode == "computer") {
    ur::load::ComputerOptions options;
    options.port = port;
    if (games > 0) options.games = games;
    if (threads > 0) options.threads = threads;
    options.level = level;
    options.pieces = pieces;
    options.seed = seed;
    return ur::load::run_computer(options);
  }
  online.port = port;
  if (online.friend_port != 0) {
    online.server_target_ms = 30;
    online.delivery_target_ms = 100;
  }
  if (games > 0) online.games = games;
  if (threads > 0) online.threads = threads;
  online.pieces = pieces;
  online.seed = seed;
  online.max_seconds = max_seconds;
  const ur::load::OnlineReport report = ur::load::run_online(online);
  std::cout << ur::load::format_report(online, report) << std::flush;
  if (report.timed_out) return 3;
  const bool clean = report.errors == 0 && report.confirmed == report.games;
  if (!clean) return 1;
  if (require_targets && !ur::load::targets_met(online, report)) {
    std::cout << "ur_load: a target was missed (--require-targets)\n";
    return 1;
  }
  return 0;
}
