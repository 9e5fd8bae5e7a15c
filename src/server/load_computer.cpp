#include "server/load_computer.h"

#include <algorithm>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <random>
#include <thread>
#include <vector>

#include "server/load_pacing.h"
#include "server/load_stats.h"

namespace ur::load {

namespace {

using nlohmann::json;
using Clock = std::chrono::steady_clock;
namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;

struct Reply {
  int status = 0;
  std::string body;
  double server_millis = -1;  // Server-Timing app;dur=, when sent
};

// One blocking keep-alive connection to 127.0.0.1 that sends the game's seat token (the
// shared test client, server/http_client.h, sends no headers of its own).
class TokenConnection {
 public:
  explicit TokenConnection(std::uint16_t port) : port_(port), stream_(io_) {
    stream_.connect(asio::ip::tcp::endpoint(asio::ip::make_address_v4("127.0.0.1"), port));
  }

  std::string token;  // sent as Authorization: Bearer once known

  // Throws boost::system::system_error on network errors.
  Reply request(const std::string& method, const std::string& target, const std::string& body) {
    http::request<http::string_body> request(http::string_to_verb(method), target, 11);
    request.set(http::field::host, "127.0.0.1:" + std::to_string(port_));
    if (!token.empty()) request.set(http::field::authorization, "Bearer " + token);
    if (!body.empty()) request.set(http::field::content_type, "application/json");
    request.keep_alive(true);
    request.body() = body;
    request.prepare_payload();
    http::write(stream_, request);
    http::response_parser<http::string_body> parser;
    parser.body_limit(64 * 1024 * 1024);
    http::read(stream_, buffer_, parser);
    auto response = parser.release();
    Reply reply{static_cast<int>(response.result_int()), std::move(response.body()), -1};
    const auto timing = response.find("Server-Timing");
    if (timing != response.end()) {
      const std::string value(timing->value());
      const auto duration = value.find("dur=");
      if (duration != std::string::npos) {
        reply.server_millis = std::strtod(value.c_str() + duration + 4, nullptr);
      }
    }
    return reply;
  }

 private:
  std::uint16_t port_;
  asio::io_context io_;
  beast::tcp_stream stream_;
  beast::flat_buffer buffer_;
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
  std::unique_ptr<TokenConnection> connection;
  std::string id;
  json game;
  bool done = false;
  ActionPacer pacer;  // a 429 would be an error
};

// Plays every game of one thread in turns, one request per game per round, until all end.
void play_games(const ComputerOptions& options, int count, std::uint64_t seed, Totals& totals) {
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
    run.pacer.sent(begin);
    Reply reply;
    try {
      reply = run.connection->request(method, target, body);
    } catch (const std::exception& error) {
      record_error(run, error.what());
      return std::nullopt;
    }
    run.pacer.arrived_by(Clock::now());
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
      run.connection = std::make_unique<TokenConnection>(options.port);
    } catch (const std::exception& error) {
      record_error(run, error.what());
      continue;
    }
    if (auto answer = exchange(run, "POST", "/api/games", json{{"settings", settings}}.dump())) {
      run.game = (*answer)["game"];
      run.id = run.game["id"];
      run.connection->token = answer->value("token", "");
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
      if (!run.pacer.may_send(Clock::now())) continue;  // this game waits for its next window
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

}  // namespace

int run_computer(const ComputerOptions& options) {
  Totals totals;
  const auto begin = Clock::now();
  std::vector<std::thread> threads;
  const int thread_count = std::min(options.threads, options.games);
  for (int t = 0; t < thread_count; ++t) {
    const int count = options.games / thread_count + (t < options.games % thread_count ? 1 : 0);
    threads.emplace_back(play_games, std::cref(options), count,
                         options.seed * 0x9E3779B97F4A7C15ULL + static_cast<std::uint64_t>(t),
                         std::ref(totals));
  }
  for (auto& thread : threads) thread.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - begin).count();

  std::printf("games: %d concurrent (%s, %d pieces), %lld finished, %lld errors\n", options.games,
              options.level.c_str(), options.pieces, totals.games_finished, totals.errors);
  std::printf("requests: %lld in %.1f s (%.0f per second), computer moves: %lld\n", totals.requests,
              seconds, static_cast<double>(totals.requests) / seconds, totals.computer_moves);
  std::printf("%s\n", latency_line("request round trip (client)", totals.client_millis).c_str());
  std::printf(
      "%s\n",
      latency_line("answers with a computer move (server time)", totals.computer_millis).c_str());
  if (totals.errors > 0) std::printf("first error: %s\n", totals.first_error.c_str());
  return totals.errors == 0 && totals.games_finished == options.games ? 0 : 1;
}

}  // namespace ur::load
