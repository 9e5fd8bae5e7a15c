// The game hub: routes API requests to games, runs them on a worker pool (one game's work
// strictly in order, different games in parallel), plays the computer's turns through the
// session's drive step, keeps games in SQLite and tells WebSocket listeners about every
// change. Request parsing lives in requests.h, the page's view of a game in web_game.h. No
// networking here: the HTTP layer hands in requests and gets JSON answers back, so all of this is
// testable directly.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "agents/agent.h"
#include "server/api_error.h"
#include "server/requests.h"
#include "storage/game_store.h"

namespace ur::server {

struct ApiResponse {
  int status = 200;
  nlohmann::json body;
};

// The error body of docs/web-api.md.
ApiResponse error_response(const ApiError& error);

// Receives every change of a subscribed game as the JSON text of an "update" message.
// Called from worker threads; implementations hand the message to their own thread.
class GameListener {
 public:
  virtual ~GameListener() = default;
  // `computer_step` marks one step of the computer's turn (the WebSocket paces those).
  virtual void on_game_update(std::shared_ptr<const std::string> message, bool computer_step) = 0;
};

// Builds a computer player from a spec: make_agent in `ur serve`, a stand-in in tests.
using AgentMaker = std::function<std::variant<std::unique_ptr<Agent>, AgentSpecError>(
    std::string_view spec, std::uint64_t seed)>;

struct HubOptions {
  // Must exist; holds the solved tables (the process-wide table directory becomes this one)
  // and, without `store`, games.sqlite3.
  std::filesystem::path data_dir;
  // Where games are kept (storage::open_store); empty: games.sqlite3 under data_dir.
  std::shared_ptr<storage::GameStore> store = {};
  AgentMaker make_agent;
  int worker_threads = 0;  // 0: default_worker_threads(store)
  // UTC milliseconds; empty means the system clock (tests pass their own to skip minutes).
  std::function<std::int64_t()> clock = {};
  // On a shared store, how often the games in memory are checked against the stored versions,
  // for a change whose notice was lost (its server died between saving and notifying).
  std::chrono::milliseconds stale_sweep_every{5000};
};

// Worker threads when HubOptions::worker_threads is 0. On a local store, max(4, hardware
// threads): the work is CPU. On a shared store each action also waits for its commit to be
// flushed by the database server, so more threads wait at once (the commits flush together)
// and a notice from another server is not queued behind a few saves: 16, with a database
// connection for each (PostgresStore's pool).
int default_worker_threads(const storage::GameStore& store);

// Largest request body accepted, in bytes (the HTTP layer enforces it while reading).
inline constexpr std::size_t kMaxBodyBytes = 16 * 1024;
// Games one POST /api/records may hold (each answer carries its board's drawing).
inline constexpr std::size_t kMaxRecordsPerRequest = 1000;
// Record files are larger than intents: POST /api/records and /api/review take this much.
inline constexpr std::size_t kMaxRecordBodyBytes = 1024 * 1024;

// The body limit of a request for `target`.
std::size_t max_body_bytes(std::string_view target);

class GameHub {
 public:
  // Opens the store; throws std::runtime_error when it cannot.
  explicit GameHub(HubOptions options);
  // Finishes the work already queued, then stops the workers.
  ~GameHub();

  // Waits for the worker threads to finish their queued work; later work is never run.
  // Idempotent. Lets an owner end the workers before tearing down what they post to.
  void join_workers();
  GameHub(const GameHub&) = delete;
  GameHub& operator=(const GameHub&) = delete;

  using Reply = std::function<void(ApiResponse)>;
  // Answers a request under /api/. `reply` is called exactly once, on a worker thread.
  void submit(ApiRequest request, Reply reply);
  // The same, waiting for the answer (tests and tools).
  ApiResponse handle(ApiRequest request);

  // Subscribes `listener` to game `id`. `done` receives a handle to keep while subscribed
  // (the current state is then already the listener's first update), or null for an
  // unknown game. The subscription ends when the listener is destroyed.
  using Subscription = std::shared_ptr<void>;
  void subscribe(const std::string& id, std::weak_ptr<GameListener> listener,
                 std::function<void(Subscription)> done);

  // Marks the seat(s) `token` holds in game `id` as connected while the returned handle lives
  // (a WebSocket keeps it until it closes); the other players get a "presence" message on
  // each change. `done` receives the handle, or an error response for a token that holds no
  // seat or for none at all (a watcher sends no hello).
  void hello(const std::string& id, const std::string& token,
             std::function<void(Subscription, std::optional<ApiResponse>)> done);

  // Waits until every submitted request has been answered (tests, and a server stopping).
  void drain();
  // From now on GET /api/ready answers 503, so balancers send no new players here.
  void start_draining();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ur::server
