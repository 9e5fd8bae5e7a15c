// The hub's inside (GameHub::Impl), shared by the files that implement it: hub.cpp (routing,
// games on their strands, the computer's turns), hub_online.cpp (invites, quick match, QR,
// presence), hub_sync.cpp (what other servers on a shared database changed) and
// hub_records.cpp (records, reviews, table builds). Private to src/server.
#pragma once

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <chrono>
#include <condition_variable>
#include <future>
#include <iostream>
#include <mutex>
#include <thread>
#include <unordered_map>
#include "core/notation.h"
#include "protocol/game_update.h"
#include "protocol/json.h"
#include "protocol/record_json.h"
#include "records/record.h"
#include "records/rgn.h"
#include "server/game_storage.h"
#include "server/geometry_json.h"
#include "server/hints.h"
#include "server/hub.h"
#include "server/os_random.h"
#include "server/qr_svg.h"
#include "server/quick_match.h"
#include "server/seating.h"
#include "server/table_job.h"
#include "server/web_game.h"
#include "server/web_settings.h"
#include "storage/sqlite_store.h"
#include "tables/review_request.h"
#include "tables/table.h"
#include "tables/table_store.h"

namespace ur::server {

namespace asio = boost::asio;
using nlohmann::json;

namespace hub_detail {

constexpr std::string_view kReviewPath = "/api/review";
constexpr std::string_view kRuleSetsPath = "/api/rule-sets";
constexpr std::string_view kRecordsPath = "/api/records";
constexpr std::string_view kJoinPath = "/api/join";
constexpr std::string_view kQueuePath = "/api/queue";
constexpr std::string_view kQrPath = "/api/qr";
constexpr std::string_view kPerfectOpponent = "perfect";
constexpr std::size_t kGameIdHexDigits = 16;
// Games kept in memory; beyond this, idle ones are dropped (they stay in the store).
constexpr std::size_t kMaxCachedGames = 4096;
// A computer turn never needs this many steps; the bound only guards against a faulty agent.
constexpr int kMaxComputerSteps = 10000;
// An action that lost the race for a game's version to another server is run again on the
// winner's state; this many losses in a row answer "try again".
constexpr int kMaxVersionRetries = 8;

// Thrown by commit() when another server saved the game first; nothing was written.
struct VersionConflict {};

inline bool is_game_id(std::string_view text) {
  if (text.size() != 2 + kGameIdHexDigits || !text.starts_with("g-")) return false;
  return std::all_of(text.begin() + 2, text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

inline ApiError unknown_game(std::string_view id) {
  return ApiError(404, "unknown_game",
                  "No game has the id " + protocol::quote_json(std::string(id)) +
                      "; start a new game with POST /api/games.");
}

// `allowed` as a sentence ("GET, POST or DELETE"); the answer's "allow" member lists them as
// the Allow header does ("GET, POST, DELETE"), and the server sends that header with it.
inline ApiError bad_method(std::string_view method, std::string_view allowed) {
  std::string allow(allowed);
  if (const auto last = allow.rfind(" or "); last != std::string::npos) {
    allow.replace(last, 4, ", ");
  }
  return ApiError(405, "bad_method",
                  "Method " + std::string(method) + " is not allowed here; use " +
                      std::string(allowed) + ".")
      .with_detail("allow", allow);
}

inline ApiError not_found(std::string_view path) {
  return ApiError(404, "not_found",
                  "There is no API endpoint " + protocol::quote_json(std::string(path)) +
                      "; see docs/web-api.md.");
}

inline session::Time now_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

// The computer players of the drive loop, built by the hub's AgentMaker.
class HubAgents final : public session::AgentSource {
 public:
  explicit HubAgents(const AgentMaker& maker) : maker_(maker) {}
  std::variant<std::unique_ptr<Agent>, AgentSpecError> make(Side, std::string_view spec,
                                                            std::uint64_t seed) override {
    return maker_(spec, seed);
  }

 private:
  const AgentMaker& maker_;
};

// A record the server sent carries its board's "geometry" and its "start" position (for
// drawing); a record sent back (Play from here, a review) is read without them.
inline json without_geometry(json record) {
  if (record.is_object()) {
    record.erase("geometry");
    record.erase("start");
  }
  return record;
}

// The game `from` asks to continue: {"record": R, "ply": k} with R a JSON record.
inline records::GameRecord continued_record(const json& from, std::size_t& plies) {
  if (!from.is_object()) {
    throw bad_request(R"("from" must be {"record": R, "ply": k}, got )" +
                      protocol::quote_json(from));
  }
  require_only_members(from, {"record", "ply"}, "\"from\"");
  const auto record = from.find("record");
  const auto ply = from.find("ply");
  if (record == from.end() || ply == from.end()) {
    throw bad_request(
        R"("from" needs "record" (a JSON record) and "ply" (plies played, 0 or more).)");
  }
  if (!ply->is_number_unsigned()) {
    throw bad_request("\"ply\" must be the number of plies played (0 or more), got " +
                      protocol::quote_json(*ply));
  }
  plies = ply->get<std::size_t>();
  try {
    return protocol::record_from_json(without_geometry(*record));
  } catch (const protocol::RequestError& error) {
    throw bad_record(std::string("the record cannot be read: ") + error.what());
  }
}

// The game a stored row holds; the row's version is the one its saves are guarded by.
inline WebGame read_stored(const storage::StoredGame& stored) {
  WebGame game = game_from_stored(json::parse(stored.record));
  game.version = static_cast<std::uint64_t>(stored.version);
  return game;
}

// How many events of `game`, read from `stored`, the store holds as they are (GameSlot).
inline std::size_t stored_events(const storage::StoredGame& stored, const WebGame& game) {
  return stored.format == kStoredFormat ? game.session.history().size() : 0;
}

inline storage::SeatPresence sum(const std::vector<storage::SeatPresence>& servers) {
  storage::SeatPresence total;
  for (const storage::SeatPresence& server : servers) {
    for (int side = 0; side < 2; ++side) {
      total.sockets[side] += server.sockets[side];
      total.left_at[side] = std::max(total.left_at[side], server.left_at[side]);
      total.seen[side] = total.seen[side] || server.seen[side];
    }
  }
  return total;
}

// Who is connected to the game on any server. A seat gone everywhere left at the latest of
// its leavings (so a claim never comes early).
inline Presence merged(const Presence& here, const storage::SeatPresence& elsewhere) {
  Presence all = here;
  for (int side = 0; side < 2; ++side) {
    all.sockets[side] += elsewhere.sockets[side];
    all.left_at[side] = std::max(all.left_at[side], elsewhere.left_at[side]);
    all.seen[side] = all.seen[side] || elsewhere.seen[side];
  }
  return all;
}

inline storage::SeatPresence stored_presence(const Presence& presence) {
  storage::SeatPresence row;
  for (int side = 0; side < 2; ++side) {
    row.sockets[side] = presence.sockets[side];
    row.left_at[side] = presence.left_at[side];
    row.seen[side] = presence.seen[side];
  }
  return row;
}

inline ApiError database_unavailable() {
  return ApiError(503, "database_unavailable",
                  "The game database cannot be reached just now; try again in a moment. The game "
                  "is unchanged.");
}

}  // namespace hub_detail

using namespace hub_detail;

struct GameHub::Impl {
  struct GameSlot {
    GameSlot(asio::thread_pool& pool, WebGame first)
        : strand(asio::make_strand(pool)), game(std::move(first)), here(game.presence) {}
    asio::strand<asio::thread_pool::executor_type> strand;
    WebGame game;                                        // touched only on `strand`
    std::vector<std::weak_ptr<GameListener>> listeners;  // touched only on `strand`
    // This server's sockets on the seats; game.presence adds the other servers' to them.
    Presence here;                    // touched only on `strand`
    storage::SeatPresence elsewhere;  // the other servers' sockets, summed
    // How many of the first events of game's history the store holds as they are, so the next
    // save writes only the others (on `strand`). 0 for a record of format 1, whose history
    // was made up from a snapshot, and for a game not saved yet.
    std::size_t stored_events = 0;
    // What the sockets were last sent; updates carry only what changed since (on `strand`).
    protocol::UpdateBase sent;
  };
  using SlotPtr = std::shared_ptr<GameSlot>;

  explicit Impl(HubOptions hub_options)
      : options(std::move(hub_options)),
        agents(options.make_agent),
        store(options.store
                  ? options.store
                  : std::make_shared<storage::SqliteStore>(options.data_dir / "games.sqlite3")),
        match_queue(*store),
        pool(static_cast<std::size_t>(
            options.worker_threads > 0 ? options.worker_threads : default_worker_threads(*store))) {
    // Everything the server writes lives under its data directory, built tables included.
    tables::set_table_directory(options.data_dir);
    // Other servers' changes of games this one has in memory, pushed to its sockets.
    store->listen([this](const storage::Notice& notice) { on_notice(notice); },
                  [this] { on_resumed(); });
    if (store->shared()) sweeper = std::thread([this] { sweep_stale_games(); });
  }

  ~Impl() {
    stop_sweeping();
    store->stop_listening();
  }

  // The UTC clock of every stamp the hub makes (tests move it on).
  session::Time now() const { return options.clock ? options.clock() : now_ms(); }

  HubOptions options;
  HubAgents agents;
  std::shared_ptr<storage::GameStore> store;
  QuickMatch match_queue;
  asio::thread_pool pool;
  TableBuildJob table_job;
  std::atomic<bool> draining{false};

  std::mutex cache_mutex;
  std::unordered_map<std::string, SlotPtr> cache;

  std::mutex drain_mutex;
  std::condition_variable drained;
  int in_flight = 0;

  // The stale-game sweep of a shared store (HubOptions::stale_sweep_every), on its own thread.
  std::thread sweeper;
  std::mutex sweep_mutex;
  std::condition_variable sweep_stop;
  bool sweep_stopping = false;  // guarded by sweep_mutex
  // Every stale_sweep_every, compares the games in memory with their stored versions and
  // takes up the newer ones on their strands, until stop_sweeping().
  void sweep_stale_games();
  // Ends the sweep and waits for it (idempotent); before the pool is joined, so that no sweep
  // posts work to a pool that has stopped.
  void stop_sweeping();

  // Ids and seeds come from the OS source, so that no id or dice seed can be worked out
  // from ones a client has seen.
  std::uint64_t random_value() { return os_random_u64(); }

  // A fresh id that no stored game uses.
  std::string new_game_id();

  // Adds `slot` under `id` unless the game is there already; returns the cached slot.
  // Call with cache_mutex held.
  SlotPtr cache_slot(const std::string& id, const SlotPtr& slot) {
    if (cache.size() >= kMaxCachedGames) {
      // A slot only the cache holds has no request, task or listener using it.
      std::erase_if(cache, [](const auto& entry) { return entry.second.use_count() == 1; });
    }
    return cache.emplace(id, slot).first->second;
  }

  // The game's slot, loading it from the store when needed; null when no such game exists.
  SlotPtr find_or_load(const std::string& id);

  // The computer player for `spec`, one per worker thread and spec, to ask whether it can
  // play the rules (the session builds the agents that play).
  Agent& agent_for(const std::string& spec);

  // Refuses settings whose computer opponent cannot be built (e.g. perfect without tables).
  void check_opponent(const session::Settings& settings);

  // The "update" of the slot's game for all its sockets, with only what changed since the
  // last one (protocol::shorten_update). `began`: when the intent that caused it was taken up,
  // for its "server_ms".
  std::shared_ptr<const std::string> update_message(
      GameSlot& slot, json events, std::optional<std::chrono::steady_clock::time_point> began);
  // The whole state for a socket that starts following the slot's game.
  std::shared_ptr<const std::string> first_update(GameSlot& slot);

  // Hands `message` to every live listener of `slot`, forgetting the dead ones.
  static void tell_listeners(GameSlot& slot, const std::shared_ptr<const std::string>& message,
                             bool computer_step);

  // Makes `next` the game's state: stores it, then tells the listeners the events from
  // history index `first` on. On a store failure the game keeps its previous state and the
  // exception propagates.
  void commit(GameSlot& slot, WebGame next, std::size_t first, bool computer_step,
              std::optional<std::chrono::steady_clock::time_point> began = std::nullopt);

  // Tells the listeners who is connected now (presence is not part of the game's record; no
  // version change).
  void tell_presence(GameSlot& slot);

  // Plays the computer's turn to its end (also one left unfinished by a restart), one
  // stored and announced step at a time.
  void play_computer_turn(GameSlot& slot);

  // Takes up the stored state of the game when another server changed it, telling the
  // listeners what happened.
  void refresh(GameSlot& slot);
  // Makes `fresh` (another server's version of the game, whose first `stored_events` events
  // the store holds as they are) the slot's, telling the listeners.
  void take_up(GameSlot& slot, WebGame fresh, std::size_t stored_events);
  // refresh() when `stored_version` is newer than the slot's; true when it was.
  bool refresh_if_behind(GameSlot& slot, std::int64_t stored_version);
  // refresh_if_behind() with the stored version asked for (one cheap query).
  bool refresh_if_stale(GameSlot& slot);

  // The slot of game `id` for a socket (subscribe, hello), or null with the reason logged:
  // an unknown game, or a database that cannot be reached now.
  SlotPtr slot_for_socket(const std::string& id);

  // The slot of a game in memory, if it is there (notices never load a game).
  SlotPtr cached_slot(const std::string& id) {
    std::lock_guard lock(cache_mutex);
    const auto found = cache.find(id);
    return found == cache.end() ? nullptr : found->second;
  }

  // Another server changed a game or its presence (called on the store's listener thread).
  void on_notice(const storage::Notice& notice);

  // The connection to the database is back: notices may have been missed meanwhile.
  void on_resumed();

  // Tells the other servers about this one's sockets on the game (a shared store only).
  void publish_presence(GameSlot& slot);

  ApiResponse game_response(const WebGame& game, std::size_t first, int status = 200);

  // When work on a game of a shared store makes sure this server has the stored version:
  // before it runs (reading the game), or once it is refused (an action, whose save is
  // guarded by the version anyway).
  enum class Freshness { CheckFirst, CheckOnRefusal };

  // Runs `work` on the game's strand, answering its errors; `work` returns the answer.
  void on_game(const std::string& id, Reply reply, std::function<ApiResponse(GameSlot&)> work,
               Freshness freshness = Freshness::CheckFirst);

  // Runs `work`, which replies itself on success; answers with the error it throws instead.
  static void guarded(const Reply& reply, const std::function<void()>& work);

  void route(const ApiRequest& request, const Reply& reply);

  // GET /api/health: the server answers, and whether its database does.
  ApiResponse health();

  // Online games keep their hints, record and review for the end of each game.
  static void refuse_while_online_game_runs(const WebGame& game, const std::string& what);

  // An old game's seats, given to the first to ask (the browser that has its id).
  ApiResponse claim_seats(GameSlot& slot);

  // POST /api/join: the free seat of an online game, for the one who has its invite.
  void join(const json& body, const Reply& reply);

  // POST /api/qr: an invite (or any short link) as a QR code in SVG.
  static ApiResponse qr(const json& body);

  // Quick match: POST joins the queue, GET /{ticket} asks, DELETE /{ticket} leaves.
  void queue_request(const std::string& method, std::string_view path, const std::string& body,
                     const Reply& reply);

  static ApiError unknown_ticket();

  static json ticket_json(const std::string& ticket, const MatchQueue::Status& status);

  void enqueue(const json& body, const Reply& reply);

  // Every game of the series as RGN (a file to download) and as JSON records.
  static ApiResponse series_record(const WebGame& game);

  // The review of a record from the solved table (docs/review.md). A missing table of 5 or
  // 7 pieces is not solved here: the answer says how to build it and carries the offer.
  ApiResponse review(json body);

  // The rules of the record a review request carries, when it can be read.
  static std::optional<Rules> record_rules(const json& body);

  // Every game of a record file's text as JSON records, so the page can replay them without
  // an RGN reader of its own.
  static ApiResponse read_records(const json& body);

  // POST starts a build of the perfect opponent's table, GET reports it, DELETE cancels it.
  ApiResponse table_build(const std::string& method, const std::string& body);

  // The first session of a new game: a fresh series, or a record's game continued. Sets
  // `online_host` to the host's seat for an online game ("opponent": "online").
  session::Session first_session(const json& body, std::uint64_t seed,
                                 std::optional<Side>& online_host);

  void create_game(const json& body, const Reply& reply);

  void finished() {
    std::lock_guard lock(drain_mutex);
    if (--in_flight == 0) drained.notify_all();
  }
};

}  // namespace ur::server
