// ur_load: a bounded load test of `ur serve` on 127.0.0.1. It opens N games at once, each on
// its own keep-alive connection, and plays light in every one by choosing random legal moves,
// while the server's computer plays dark: N computer-against-computer games through the API.
// It reports errors, request latency and the server's time for the computer's turns, and
// exits non-zero on any error or when the time limit passes. Each connection keeps under the
// server's limit of 20 actions a second (a 429 would be an error), so a fast server is
// measured at that pace per game.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <deque>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <random>
#include <thread>
#include <vector>

#include "server/http_client.h"

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;

// The server's limit per connection (docs/web-api.md), with a margin for the time requests
// take to arrive: the server stamps them as they come, not as they were sent.
constexpr std::size_t kActionsPerWindow = 20;
constexpr auto kActionWindow = std::chrono::milliseconds(1050);

struct LoadOptions {
  std::uint16_t port = 0;
  int games = 500;
  int threads = 16;
  std::string level = "hard";
  int pieces = 7;
  int max_seconds = 600;
};

struct Totals {
  std::mutex mutex;
  long long requests = 0;
  long long errors = 0;
  long long games_finished = 0;
  long long computer_moves = 0;
  std::vector<double> client_millis;    // every request, as the client saw it
  std::vector<double> computer_millis;  // server time of requests whose answer holds a
                                        // computer move
  std::string first_error;
};

struct GameRun {
  std::unique_ptr<ur::server::HttpConnection> connection;
  std::string id;
  json game;
  bool done = false;
  std::deque<Clock::time_point> sent;  // this connection's requests in the last window

  // Whether one more request keeps under the server's rate limit now.
  bool may_send(Clock::time_point now) {
    while (!sent.empty() && now - sent.front() >= kActionWindow) sent.pop_front();
    return sent.size() < kActionsPerWindow;
  }
};

double percentile(std::vector<double> values, double fraction) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  const auto index = static_cast<std::size_t>(fraction * static_cast<double>(values.size() - 1));
  return values[index];
}

void print_latency(const char* what, const std::vector<double>& values) {
  std::printf("%s: n=%zu p50=%.2f ms p95=%.2f ms p99=%.2f ms max=%.2f ms\n", what, values.size(),
              percentile(values, 0.5), percentile(values, 0.95), percentile(values, 0.99),
              percentile(values, 1.0));
}

// Plays every game of one thread in turns, one request per game per round, until all end.
void play_games(const LoadOptions& options, int count, std::uint64_t seed, Totals& totals) {
  std::mt19937_64 rng(seed);
  std::vector<GameRun> runs(static_cast<std::size_t>(count));
  long long requests = 0, errors = 0, finished = 0, computer_moves = 0;
  std::vector<double> client_millis, computer_millis;
  std::string first_error;
  auto record_error = [&](GameRun& run, const std::string& what) {
    ++errors;
    if (first_error.empty()) first_error = what;
    run.done = true;
  };
  auto exchange = [&](GameRun& run, const std::string& method, const std::string& target,
                      const std::string& body) -> std::optional<json> {
    const auto begin = Clock::now();
    run.sent.push_back(begin);
    ur::server::HttpReply reply;
    try {
      reply = run.connection->request(method, target, body);
    } catch (const std::exception& error) {
      record_error(run, error.what());
      return std::nullopt;
    }
    ++requests;
    client_millis.push_back(
        std::chrono::duration<double, std::milli>(Clock::now() - begin).count());
    if (reply.status != 200 && reply.status != 201) {
      record_error(
          run, method + " " + target + " -> " + std::to_string(reply.status) + " " + reply.body);
      return std::nullopt;
    }
    json answer = json::parse(reply.body, nullptr, false);
    if (answer.is_discarded() || !answer.contains("game")) {
      record_error(run, method + " " + target + " -> unreadable answer");
      return std::nullopt;
    }
    int moves = 0;
    for (const json& event : answer.value("events", json::array())) {
      if (event.value("type", "") == "move" && event.value("side", "") == "dark") ++moves;
    }
    computer_moves += moves;
    if (moves > 0 && reply.server_millis >= 0) computer_millis.push_back(reply.server_millis);
    return answer;
  };

  const json settings = {{"opponent", options.level}, {"pieces", options.pieces}};
  for (GameRun& run : runs) {
    try {
      run.connection = std::make_unique<ur::server::HttpConnection>(options.port);
    } catch (const std::exception& error) {
      record_error(run, error.what());
      continue;
    }
    if (auto answer = exchange(run, "POST", "/api/games", json{{"settings", settings}}.dump())) {
      run.game = (*answer)["game"];
      run.id = run.game["id"];
    }
  }
  for (bool busy = true; busy;) {
    busy = false;
    bool sent_any = false;
    for (GameRun& run : runs) {
      if (run.done) continue;
      const std::string phase = run.game["phase"];
      if (phase == "game_over") {
        run.done = true;
        ++finished;
        continue;
      }
      busy = true;
      if (!run.may_send(Clock::now())) continue;  // this game waits for its next window
      sent_any = true;
      const std::string base = "/api/games/" + run.id;
      std::optional<json> answer;
      if (phase == "throw") {
        answer = exchange(run, "POST", base + "/throw", "");
      } else if (phase == "pass") {
        answer = exchange(run, "POST", base + "/pass", "");
      } else {
        const json& moves = run.game["legal_moves"];
        const json& move = moves[rng() % moves.size()];
        answer = exchange(run, "POST", base + "/move", json{{"from", move["from"]}}.dump());
      }
      if (answer) run.game = (*answer)["game"];
    }
    if (busy && !sent_any) std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
  std::lock_guard lock(totals.mutex);
  totals.requests += requests;
  totals.errors += errors;
  totals.games_finished += finished;
  totals.computer_moves += computer_moves;
  totals.client_millis.insert(totals.client_millis.end(), client_millis.begin(),
                              client_millis.end());
  totals.computer_millis.insert(totals.computer_millis.end(), computer_millis.begin(),
                                computer_millis.end());
  if (totals.first_error.empty()) totals.first_error = first_error;
}

int run_load(const LoadOptions& options) {
  // The bound on time: whatever happens to the server, the tool ends.
  std::thread([seconds = options.max_seconds] {
    std::this_thread::sleep_for(std::chrono::seconds(seconds));
    std::fprintf(stderr, "ur_load: time limit of %d s reached; stopping\n", seconds);
    std::_Exit(3);
  }).detach();

  Totals totals;
  const auto begin = Clock::now();
  std::vector<std::thread> threads;
  const int thread_count = std::min(options.threads, options.games);
  std::random_device seeds;
  for (int t = 0; t < thread_count; ++t) {
    const int count = options.games / thread_count + (t < options.games % thread_count ? 1 : 0);
    threads.emplace_back(play_games, std::cref(options), count, seeds(), std::ref(totals));
  }
  for (auto& thread : threads) thread.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();

  std::printf("games: %d concurrent (%s, %d pieces), %lld finished, %lld errors\n", options.games,
              options.level.c_str(), options.pieces, totals.games_finished, totals.errors);
  std::printf("requests: %lld in %.1f s (%.0f per second), computer moves: %lld\n", totals.requests,
              seconds, static_cast<double>(totals.requests) / seconds, totals.computer_moves);
  print_latency("request round trip (client)", totals.client_millis);
  print_latency("answers with a computer move (server time)", totals.computer_millis);
  if (totals.errors > 0) std::printf("first error: %s\n", totals.first_error.c_str());
  return totals.errors == 0 && totals.games_finished == options.games ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{
      "Bounded load test of ur serve on 127.0.0.1: N concurrent games, computer "
      "against computer through the API"};
  LoadOptions options;
  app.add_option("--port", options.port, "Port of the ur serve on 127.0.0.1")
      ->required()
      ->check(CLI::Range(1, 65535));
  app.add_option("--games", options.games, "Concurrent games")->check(CLI::Range(1, 2000));
  app.add_option("--threads", options.threads, "Client threads")->check(CLI::Range(1, 64));
  app.add_option("--level", options.level, "The server's computer level (dark)")
      ->check(CLI::IsMember({"easy", "medium", "hard", "expert", "perfect"}));
  app.add_option("--pieces", options.pieces, "Pieces per side")->check(CLI::IsMember({7, 5, 3}));
  app.add_option("--max-seconds", options.max_seconds, "Give up after this long")
      ->check(CLI::Range(1, 3600));
  CLI11_PARSE(app, argc, argv);
  return run_load(options);
}
