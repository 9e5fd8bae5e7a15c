#include "server/hub.h"

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
#include "protocol/json.h"
#include "protocol/record_json.h"
#include "records/record.h"
#include "records/rgn.h"
#include "server/game_storage.h"
#include "server/geometry_json.h"
#include "server/hints.h"
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

std::size_t max_body_bytes(std::string_view target) {
  const std::string_view path = path_of(target);
  return path == "/api/records" || path == "/api/review" || path == kGamesPrefix
             ? kMaxRecordBodyBytes
             : kMaxBodyBytes;
}

ApiResponse error_response(const ApiError& error) {
  ApiResponse response{error.status(), error.details()};
  response.body["error"] = error.what();
  response.body["code"] = error.code();
  return response;
}

namespace {

constexpr std::string_view kTableBuildPath = "/api/tables/build";
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

bool is_game_id(std::string_view text) {
  if (text.size() != 2 + kGameIdHexDigits || !text.starts_with("g-")) return false;
  return std::all_of(text.begin() + 2, text.end(),
                     [](char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'); });
}

ApiError unknown_game(std::string_view id) {
  return ApiError(404, "unknown_game",
                  "No game has the id " + protocol::quote_json(std::string(id)) +
                      "; start a new game with POST /api/games.");
}

ApiError bad_method(std::string_view method, std::string_view allowed) {
  return ApiError(
      405, "bad_method",
      "Method " + std::string(method) + " is not allowed here; use " + std::string(allowed) + ".");
}

ApiError not_found(std::string_view path) {
  return ApiError(404, "not_found",
                  "There is no API endpoint " + protocol::quote_json(std::string(path)) +
                      "; see docs/web-api.md.");
}

session::Time now_ms() {
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

// A record the server sent carries its board's "geometry" (for drawing); a record sent back
// (Play from here, a review) is read without it.
json without_geometry(json record) {
  if (record.is_object()) record.erase("geometry");
  return record;
}

// The game `from` asks to continue: {"record": R, "ply": k} with R a JSON record.
records::GameRecord continued_record(const json& from, std::size_t& plies) {
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
WebGame read_stored(const storage::StoredGame& stored) {
  WebGame game = game_from_stored(json::parse(stored.record));
  game.version = static_cast<std::uint64_t>(stored.version);
  return game;
}

storage::SeatPresence sum(const std::vector<storage::SeatPresence>& servers) {
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
Presence merged(const Presence& here, const storage::SeatPresence& elsewhere) {
  Presence all = here;
  for (int side = 0; side < 2; ++side) {
    all.sockets[side] += elsewhere.sockets[side];
    all.left_at[side] = std::max(all.left_at[side], elsewhere.left_at[side]);
    all.seen[side] = all.seen[side] || elsewhere.seen[side];
  }
  return all;
}

storage::SeatPresence stored_presence(const Presence& presence) {
  storage::SeatPresence row;
  for (int side = 0; side < 2; ++side) {
    row.sockets[side] = presence.sockets[side];
    row.left_at[side] = presence.left_at[side];
    row.seen[side] = presence.seen[side];
  }
  return row;
}

ApiError database_unavailable() {
  return ApiError(503, "database_unavailable",
                  "The game database cannot be reached just now; try again in a moment. The game "
                  "is unchanged.");
}

}  // namespace

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
            options.worker_threads > 0
                ? options.worker_threads
                : std::max(4, static_cast<int>(std::thread::hardware_concurrency())))) {
    // Everything the server writes lives under its data directory, built tables included.
    tables::set_table_directory(options.data_dir);
    // Other servers' changes of games this one has in memory, pushed to its sockets.
    store->listen([this](const storage::Notice& notice) { on_notice(notice); },
                  [this] { on_resumed(); });
  }

  ~Impl() { store->stop_listening(); }

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

  // Ids and seeds come from the OS source, so that no id or dice seed can be worked out
  // from ones a client has seen.
  std::uint64_t random_value() { return os_random_u64(); }

  // A fresh id that no stored game uses.
  std::string new_game_id() {
    static constexpr char kHex[] = "0123456789abcdef";
    for (;;) {
      std::uint64_t value = random_value();
      std::string id = "g-";
      for (std::size_t i = 0; i < kGameIdHexDigits; ++i, value >>= 4) id += kHex[value & 15];
      std::lock_guard lock(cache_mutex);
      if (!cache.contains(id) && store->version_of(id) == 0) return id;
    }
  }

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
  SlotPtr find_or_load(const std::string& id) {
    if (!is_game_id(id)) return nullptr;
    {
      std::lock_guard lock(cache_mutex);
      if (auto found = cache.find(id); found != cache.end()) return found->second;
    }
    const auto stored = store->load(id);
    if (!stored) return nullptr;
    auto slot = std::make_shared<GameSlot>(pool, read_stored(*stored));
    slot->here = Presence::since(now());
    if (store->shared()) slot->elsewhere = sum(store->others_presence(id));
    slot->game.presence = merged(slot->here, slot->elsewhere);
    std::lock_guard lock(cache_mutex);
    // Another thread may have loaded it meanwhile; keep theirs so there is one slot a game.
    return cache_slot(id, slot);
  }

  // The computer player for `spec`, one per worker thread and spec, to ask whether it can
  // play the rules (the session builds the agents that play).
  Agent& agent_for(const std::string& spec) {
    thread_local std::unordered_map<std::string, std::unique_ptr<Agent>> cached;
    auto& agent = cached[spec];
    if (!agent) {
      auto made = options.make_agent(spec, random_value());
      if (auto* error = std::get_if<AgentSpecError>(&made)) {
        cached.erase(spec);
        throw bad_settings("The opponent " + protocol::quote_json(spec) +
                           " is not available: " + error->message);
      }
      agent = std::move(std::get<std::unique_ptr<Agent>>(made));
    }
    return *agent;
  }

  // Refuses settings whose computer opponent cannot be built (e.g. perfect without tables).
  void check_opponent(const session::Settings& settings) {
    const std::string opponent = opponent_of(settings);
    if (opponent == kFriend) return;
    if (opponent == kPerfectOpponent) {
      if (auto unavailable = perfect_play_unavailable(settings.rules)) {
        throw bad_settings(*unavailable + " Choose another computer level.")
            .with_detail("perfect_play", *unavailable);
      }
    }
    if (auto why = agent_for(opponent).cannot_play(settings.rules)) {
      ApiError error = bad_settings("The opponent " + protocol::quote_json(opponent) +
                                    " is not available: " + *why);
      // The page offers to build a missing table (POST /api/tables/build).
      if (opponent == kPerfectOpponent) {
        if (auto missing = missing_table(settings.rules)) {
          throw std::move(error).with_detail("table_missing", std::move(*missing));
        }
      }
      throw error;
    }
  }

  // `began`: when the intent that caused the update was taken up, for its "server_ms".
  std::shared_ptr<const std::string> update_message(
      const WebGame& game, json events,
      std::optional<std::chrono::steady_clock::time_point> began) {
    json message = {
        {"type", "update"}, {"game", game_state_json(game, now())}, {"events", std::move(events)}};
    if (began) {
      message["server_ms"] =
          std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - *began)
              .count();
    }
    return std::make_shared<const std::string>(message.dump());
  }

  // Hands `message` to every live listener of `slot`, forgetting the dead ones.
  static void tell_listeners(GameSlot& slot, const std::shared_ptr<const std::string>& message,
                             bool computer_step) {
    std::erase_if(slot.listeners, [&](const std::weak_ptr<GameListener>& weak) {
      const auto listener = weak.lock();
      if (listener) listener->on_game_update(message, computer_step);
      return !listener;
    });
  }

  // Makes `next` the game's state: stores it, then tells the listeners the events from
  // history index `first` on. On a store failure the game keeps its previous state and the
  // exception propagates.
  void commit(GameSlot& slot, WebGame next, std::size_t first, bool computer_step,
              std::optional<std::chrono::steady_clock::time_point> began = std::nullopt) {
    next.version = slot.game.version + 1;
    next.presence = slot.game.presence;  // sockets come and go while the intent is applied
    if (!store->save(next.id, kStoredFormat, stored_json(next).dump(),
                     static_cast<std::int64_t>(next.version),
                     static_cast<std::int64_t>(slot.game.version))) {
      throw VersionConflict{};
    }
    slot.game = std::move(next);
    if (slot.listeners.empty()) return;
    tell_listeners(slot, update_message(slot.game, web_events(slot.game.session, first), began),
                   computer_step);
  }

  // Tells the listeners who is connected now (presence is not part of the game's record; no
  // version change).
  void tell_presence(GameSlot& slot) {
    slot.game.presence = merged(slot.here, slot.elsewhere);
    json state = seats_json(slot.game.seating, slot.game.presence, slot.game.session, now());
    json message = {{"type", "presence"},
                    {"game_id", slot.game.id},
                    {"seats", std::move(state["seats"])},
                    {"claim_win_after", std::move(state["claim_win_after"])},
                    {"server_time", std::move(state["server_time"])}};
    tell_listeners(slot, std::make_shared<const std::string>(message.dump()), false);
  }

  // Plays the computer's turn to its end (also one left unfinished by a restart), one
  // stored and announced step at a time.
  void play_computer_turn(GameSlot& slot) {
    for (int step = 0; step < kMaxComputerSteps && slot.game.session.computer_to_act(); ++step) {
      WebGame next = slot.game;
      const std::size_t first = next.session.history().size();
      const session::Outcome outcome = next.session.computer_step(agents, now());
      if (!outcome.accepted()) {
        throw bad_settings("The computer cannot play: " + outcome.refusal->message);
      }
      try {
        commit(slot, std::move(next), first, true);
      } catch (const VersionConflict&) {
        refresh(slot);  // another server moved first: go on from its state
      }
    }
  }

  // Takes up the stored state of the game when another server changed it, telling the
  // listeners what happened.
  void refresh(GameSlot& slot) {
    const auto stored = store->load(slot.game.id);
    if (!stored || static_cast<std::uint64_t>(stored->version) <= slot.game.version) return;
    WebGame fresh = read_stored(*stored);
    fresh.presence = slot.game.presence;
    const std::size_t known = slot.game.session.history().size();
    const std::size_t first = std::min(known, fresh.session.history().size());
    slot.game = std::move(fresh);
    if (slot.listeners.empty()) return;
    tell_listeners(slot, update_message(slot.game, web_events(slot.game.session, first), {}),
                   false);
  }

  // The slot of a game in memory, if it is there (notices never load a game).
  SlotPtr cached_slot(const std::string& id) {
    std::lock_guard lock(cache_mutex);
    const auto found = cache.find(id);
    return found == cache.end() ? nullptr : found->second;
  }

  // Another server changed a game or its presence (called on the store's listener thread).
  void on_notice(const storage::Notice& notice) {
    SlotPtr slot = cached_slot(notice.game_id);
    if (!slot) return;
    asio::post(slot->strand, [this, slot, notice] {
      guarded([](const ApiResponse&) {},
              [&] {
                if (notice.kind == storage::Notice::Kind::Game) {
                  if (static_cast<std::uint64_t>(notice.version) > slot->game.version)
                    refresh(*slot);
                  return;
                }
                slot->elsewhere = sum(store->others_presence(slot->game.id));
                tell_presence(*slot);
              });
    });
  }

  // The connection to the database is back: notices may have been missed meanwhile.
  void on_resumed() {
    std::vector<SlotPtr> slots;
    {
      std::lock_guard lock(cache_mutex);
      for (const auto& [id, slot] : cache) slots.push_back(slot);
    }
    for (const SlotPtr& slot : slots) {
      asio::post(slot->strand, [this, slot] {
        guarded([](const ApiResponse&) {},
                [&] {
                  refresh(*slot);
                  slot->elsewhere = sum(store->others_presence(slot->game.id));
                  tell_presence(*slot);
                });
      });
    }
  }

  // Tells the other servers about this one's sockets on the game (a shared store only).
  void publish_presence(GameSlot& slot) {
    if (store->shared()) store->publish_presence(slot.game.id, stored_presence(slot.here));
  }

  ApiResponse game_response(const WebGame& game, std::size_t first, int status = 200) {
    return {status,
            {{"game", game_state_json(game, now())}, {"events", web_events(game.session, first)}}};
  }

  // Runs `work` on the game's strand, answering its errors; `work` returns the answer.
  void on_game(const std::string& id, Reply reply, std::function<ApiResponse(GameSlot&)> work) {
    SlotPtr slot = find_or_load(id);
    if (!slot) throw unknown_game(id);
    asio::post(slot->strand, [this, slot, reply = std::move(reply), work = std::move(work)] {
      guarded(reply, [&] {
        // Another server may have changed the game since this one last heard of it.
        if (store->shared() &&
            store->version_of(slot->game.id) > static_cast<std::int64_t>(slot->game.version)) {
          refresh(*slot);
        }
        for (int attempt = 0;; ++attempt) {
          try {
            reply(work(*slot));
            return;
          } catch (const VersionConflict&) {
            // Lost the race: the action is judged again on the winner's state, as a second
            // tab's would be.
            if (attempt == kMaxVersionRetries) {
              throw ApiError(503, "busy", "The game changed too often to act on; try again.");
            }
            refresh(*slot);
          }
        }
      });
    });
  }

  // Runs `work`, which replies itself on success; answers with the error it throws instead.
  static void guarded(const Reply& reply, const std::function<void()>& work) {
    try {
      work();
    } catch (const ApiError& error) {
      reply(error_response(error));
    } catch (const storage::Unavailable& error) {
      std::cerr << "ur serve: " << error.what() << "\n";
      reply(error_response(database_unavailable()));
    } catch (const VersionConflict&) {
      reply(error_response(ApiError(503, "busy", "The game changed meanwhile; try again.")));
    } catch (const std::exception& error) {
      std::cerr << "ur serve: internal error: " << error.what() << "\n";
      reply(error_response(
          ApiError(500, "internal", "The server failed to answer; the game is unchanged.")));
    }
  }

  void route(const ApiRequest& request, const Reply& reply) {
    const std::string_view path = path_of(request.target);
    const std::string& method = request.method;
    if (path == "/api/health") {
      if (method != "GET") throw bad_method(method, "GET");
      reply(health());
      return;
    }
    if (path == "/api/ready") {
      if (method != "GET") throw bad_method(method, "GET");
      if (draining) {
        reply({503, {{"ready", false}, {"draining", true}}});
      } else {
        reply({200, {{"ready", true}}});
      }
      return;
    }
    if (path == kRuleSetsPath) {
      if (method != "GET") throw bad_method(method, "GET");
      reply({200, rule_sets_json()});
      return;
    }
    if (path == kTableBuildPath) {
      reply(table_build(method, request.body));
      return;
    }
    if (path == kReviewPath) {
      if (method != "POST") throw bad_method(method, "POST");
      reply(review(parse_body(request.body)));
      return;
    }
    if (path == kRecordsPath) {
      if (method != "POST") throw bad_method(method, "POST");
      reply(read_records(parse_body(request.body)));
      return;
    }
    if (path == kJoinPath) {
      if (method != "POST") throw bad_method(method, "POST");
      join(parse_body(request.body), reply);
      return;
    }
    if (path == kQrPath) {
      if (method != "POST") throw bad_method(method, "POST");
      reply(qr(parse_body(request.body)));
      return;
    }
    if (path == kQueuePath || path.starts_with(std::string(kQueuePath) + "/")) {
      queue_request(method, path, request.body, reply);
      return;
    }
    if (!path.starts_with(kGamesPrefix)) throw not_found(path);
    const auto parts = game_path_parts(path);
    if (parts.empty()) {
      if (method != "POST") throw bad_method(method, "POST to create a game");
      create_game(parse_body(request.body), reply);
      return;
    }
    const std::string id(parts[0]);
    const std::string token = request.seat_token;
    if (parts.size() == 1) {
      if (method != "GET") throw bad_method(method, "GET");
      on_game(id, reply, [this](GameSlot& slot) {
        const std::size_t first = slot.game.session.history().size();
        play_computer_turn(slot);
        return game_response(slot.game, first);
      });
      return;
    }
    if (parts.size() == 2 && parts[1] == "ws") {
      throw bad_request("/ws is a WebSocket: open it with a WebSocket upgrade request.");
    }
    if (parts.size() == 2 && parts[1] == kHelloAction) {
      throw bad_request(
          R"("hello" is a WebSocket message: send {"action":"hello","token":T} on /ws.)");
    }
    if (parts.size() == 2 && parts[1] == "hints" && method == "GET") {
      on_game(id, reply, [](GameSlot& slot) {
        refuse_while_online_game_runs(slot.game, "Hints are off");
        return ApiResponse{200, hints_json(slot.game.session)};
      });
      return;
    }
    if (parts.size() == 2 && parts[1] == "record") {
      if (method != "GET") throw bad_method(method, "GET");
      on_game(id, reply, [](GameSlot& slot) {
        refuse_while_online_game_runs(slot.game, "The record and its review are offered");
        return series_record(slot.game);
      });
      return;
    }
    if (parts.size() == 2 && parts[1] == "invite") {
      if (method != "GET") throw bad_method(method, "GET");
      on_game(id, reply, [token](GameSlot& slot) {
        const Seating& seating = slot.game.seating;
        const auto held = require_seat(seating, token);
        if (!seating.online) {
          throw conflict("not_online", "This game is played on one device; it has no invite.");
        }
        // The seat the token holds, so that a page opened from a seat link knows its side.
        return ApiResponse{200,
                           {{"invite", seating.invite},
                            {"used", seating.invite_used},
                            {"side", side_name(held[0] ? Side::Light : Side::Dark)}}};
      });
      return;
    }
    if (parts.size() == 2 && parts[1] == "claim") {
      if (method != "POST") throw bad_method(method, "POST");
      require_only_members(parse_body(request.body), {}, "a claim");
      on_game(id, reply, [this](GameSlot& slot) { return claim_seats(slot); });
      return;
    }
    const auto action = parts.size() == 2 ? action_named(parts[1]) : std::nullopt;
    if (!action) throw not_found(path);
    if (method != "POST") throw bad_method(method, "POST");
    WebIntent intent = parse_intent(*action, parse_body(request.body));
    const bool from_socket = request.from_socket;
    on_game(id, reply, [this, intent, token, from_socket](GameSlot& slot) mutable {
      const auto began = std::chrono::steady_clock::now();
      // Only the holder of a seat's token acts for that seat.
      const Side seat = authorize(slot.game.seating, slot.game.session, intent, token);
      const auto held = held_sides(slot.game.seating, token);
      if (held[0] != held[1]) intent.side = seat;
      // Another window (or a lost answer) has changed the game since the sender looked.
      if (intent.version && *intent.version != slot.game.version) {
        throw conflict("moved_on",
                       "The game moved on in another window; this page now shows where it is.");
      }
      const std::size_t first = slot.game.session.history().size();
      play_computer_turn(slot);  // finishes a turn a restart interrupted
      WebGame next = slot.game;
      const std::size_t intent_first = apply_intent(next, intent, now());
      if (intent.action == Action::New || intent.action == Action::Settings) {
        check_opponent(next.session.pending_settings().value_or(next.session.settings()));
        // A friend instead of the computer, or the other seat: the same person holds them.
        follow_settings(next.seating, next.session, token);
      }
      commit(slot, std::move(next), intent_first, false, began);
      play_computer_turn(slot);
      // A socket's intent is answered by the updates it caused.
      if (from_socket) return ApiResponse{200, json::object()};
      return game_response(slot.game, first);
    });
  }

  // GET /api/health: the server answers, and whether its database does.
  ApiResponse health() {
    json database = {{"backend", store->backend()}};
    try {
      store->ping();
      database["reachable"] = true;
      return {200, {{"ok", true}, {"database", std::move(database)}}};
    } catch (const std::exception& error) {
      database["reachable"] = false;
      database["error"] = error.what();
      return {503, {{"ok", false}, {"database", std::move(database)}}};
    }
  }

  // Online games keep their hints, record and review for the end of each game.
  static void refuse_while_online_game_runs(const WebGame& game, const std::string& what) {
    if (game.seating.online && game.session.phase() != session::Phase::Over) {
      throw conflict("online_fairness",
                     what + " in online games while the game runs; they are there when it ends.");
    }
  }

  // An old game's seats, given to the first to ask (the browser that has its id).
  ApiResponse claim_seats(GameSlot& slot) {
    if (!slot.game.seating.claimable) {
      throw conflict("already_claimed",
                     "This game's seats are held already; open it from the browser that holds "
                     "its seat token, or watch it.");
    }
    WebGame next = slot.game;
    next.seating = new_seating(next.session.settings(), std::nullopt);
    const std::string token = next.seating.tokens[index_of(person_side(next.session.settings()))];
    commit(slot, std::move(next), slot.game.session.history().size(), false);
    ApiResponse response = game_response(slot.game, slot.game.session.history().size());
    response.body["token"] = token;
    return response;
  }

  // POST /api/join: the free seat of an online game, for the one who has its invite.
  void join(const json& body, const Reply& reply) {
    require_only_members(body, {"invite", "name"}, "a join request");
    const auto invite = body.find("invite");
    if (invite == body.end() || !invite->is_string() ||
        !is_hex_text(invite->get_ref<const std::string&>(), kInviteHexDigits)) {
      throw bad_request(
          R"(A join request needs "invite": the 32 hexadecimal digits after #join= in the invite link.)");
    }
    std::string name;
    if (const auto given = body.find("name"); given != body.end())
      name = player_name(*given, "name");
    const auto id = store->find_invite(invite->get<std::string>());
    if (!id) {
      throw ApiError(404, "unknown_invite",
                     "No game has this invite; ask your friend for a new link.");
    }
    const std::string code = invite->get<std::string>();
    const std::uint64_t seed = random_value();
    on_game(*id, reply, [this, code, name, seed](GameSlot& slot) {
      const auto seat = free_seat(slot.game.seating);
      if (!seat || !same_secret(slot.game.seating.invite, code)) {
        throw conflict("invite_used",
                       "This invite has been used: both seats are taken. You can watch the game.")
            .with_detail("game_id", slot.game.id);
      }
      WebGame next = slot.game;
      const std::string token = random_hex(kTokenHexDigits);
      const std::size_t first = seat_friend(next, *seat, name, token, seed, now());
      commit(slot, std::move(next), first, false);
      ApiResponse response = game_response(slot.game, first);
      response.body["token"] = token;
      response.body["side"] = side_name(*seat);
      return response;
    });
  }

  // POST /api/qr: an invite (or any short link) as a QR code in SVG.
  static ApiResponse qr(const json& body) {
    require_only_members(body, {"text"}, "a QR request");
    const auto text = body.find("text");
    if (text == body.end() || !text->is_string() || text->get_ref<const std::string&>().empty() ||
        text->get_ref<const std::string&>().size() > kMaxQrTextBytes) {
      throw bad_request(R"(A QR request needs "text": the link to encode, 1 to )" +
                        std::to_string(kMaxQrTextBytes) + " bytes.");
    }
    auto svg = qr_svg(text->get<std::string>());
    if (!svg) throw bad_request("This text cannot be drawn as a QR code.");
    return {200, {{"svg", std::move(*svg)}}};
  }

  // Quick match: POST joins the queue, GET /{ticket} asks, DELETE /{ticket} leaves.
  void queue_request(const std::string& method, std::string_view path, const std::string& body,
                     const Reply& reply) {
    if (path == kQueuePath) {
      if (method != "POST") throw bad_method(method, "POST to join the queue");
      enqueue(parse_body(body), reply);
      return;
    }
    const std::string ticket(path.substr(kQueuePath.size() + 1));
    if (!ticket.starts_with("q-") ||
        !is_hex_text(std::string_view(ticket).substr(2), kTicketHexDigits)) {
      throw bad_request(
          "A ticket is \"q-\" and 32 hexadecimal digits, as POST /api/queue gave it.");
    }
    if (method == "DELETE") {
      if (!match_queue.cancel(ticket)) throw unknown_ticket();
      reply({200, {{"ticket", ticket}, {"cancelled", true}}});
      return;
    }
    if (method != "GET") throw bad_method(method, "GET or DELETE");
    const auto status = match_queue.poll(ticket, now());
    if (!status) throw unknown_ticket();
    reply({200, ticket_json(ticket, *status)});
  }

  static ApiError unknown_ticket() {
    return ApiError(404, "unknown_ticket",
                    "This ticket is not in the queue (it was cancelled, or not asked about for "
                    "15 seconds); join again with POST /api/queue.");
  }

  static json ticket_json(const std::string& ticket, const MatchQueue::Status& status) {
    json answer = {{"ticket", ticket}, {"waiting_ms", status.waiting_ms}};
    if (status.pairing) {
      answer["game_id"] = status.pairing->game_id;
      answer["token"] = status.pairing->token;
      answer["side"] = side_name(status.pairing->side);
    }
    return answer;
  }

  void enqueue(const json& body, const Reply& reply) {
    require_only_members(body, {"rules", "name"}, "a quick match request");
    session::Settings settings =
        merge_web_settings(default_web_settings(), json{{"opponent", kFriend}});
    if (const auto rules = body.find("rules"); rules != body.end()) {
      settings = merge_web_settings(settings, json{{"rules", *rules}});
    }
    std::string name;
    if (const auto given = body.find("name"); given != body.end())
      name = player_name(*given, "name");
    const std::string key = protocol::to_json(settings.rules).dump();
    const auto joined = match_queue.join(key, name, now());
    if (!joined.partner) {
      reply({200, {{"ticket", joined.ticket}, {"waiting_ms", 0}}});
      return;
    }
    // The one who waited longer plays light and opens the first game.
    settings.starts = session::StartRule::Alternate;
    settings.seats[index_of(Side::Light)].name = joined.partner->name;
    settings.seats[index_of(Side::Dark)].name = name;
    Seating seating = new_seating(settings, Side::Light);
    seating.tokens[index_of(Side::Dark)] = random_hex(kTokenHexDigits);
    seating.invite_used = true;
    WebGame game{new_game_id(), 0, session::Session::start(settings, random_value(), now()),
                 seating};
    game.presence = Presence::since(now());
    const std::string id = game.id;
    const Pairing theirs{id, seating.token(Side::Light), Side::Light};
    const Pairing mine{id, seating.token(Side::Dark), Side::Dark};
    auto slot = std::make_shared<GameSlot>(pool, std::move(game));
    asio::post(slot->strand, [this, slot, id, joined, theirs, mine, reply] {
      guarded(reply, [&] {
        commit(*slot, slot->game, 0, false);
        {
          std::lock_guard lock(cache_mutex);
          cache_slot(id, slot);
        }
        // Only a stored game is handed out: the partner's next poll finds it.
        match_queue.pair(joined.partner->ticket, theirs, now());
        match_queue.pair(joined.ticket, mine, now());
        reply({200, ticket_json(joined.ticket, MatchQueue::Status{0, mine})});
      });
    });
  }

  // Every game of the series as RGN (a file to download) and as JSON records.
  static ApiResponse series_record(const WebGame& game) {
    const std::vector<records::GameRecord> games = records::records_of_series(game.session);
    json as_json = json::array();
    for (const records::GameRecord& record : games) {
      // A record of the session replays by construction.
      json one = protocol::to_json(record, std::get<records::Replay>(records::replay(record)));
      one["geometry"] = geometry_json(record.rules);
      as_json.push_back(std::move(one));
    }
    return {200,
            {{"file_name", "ur-" + game.id + ".rgn"},
             {"rgn", records::write_rgn(games)},
             {"records", std::move(as_json)}}};
  }

  // The review of a record from the solved table (docs/review.md). A missing table of 5 or
  // 7 pieces is not solved here: the answer says how to build it and carries the offer.
  ApiResponse review(json body) {
    require_only_members(body, {"record", "rgn", "estimate"}, "a review request");
    if (body.contains("record")) body["record"] = without_geometry(body["record"]);
    // A set the solver cannot solve yet has no exact review; the search may estimate one.
    const auto estimate = body.find("estimate");
    const bool estimated =
        estimate != body.end() && estimate->is_boolean() && estimate->get<bool>();
    if (const auto rules = record_rules(body); rules && !estimated) {
      if (auto unavailable = perfect_play_unavailable(*rules)) {
        throw bad_request(*unavailable + R"( Ask with "estimate": true for the search's review.)")
            .with_detail("perfect_play", *unavailable);
      }
    }
    try {
      // Small tables solve in about a second, as for hints and Perfect; bigger ones never
      // on the spot, where they would stall the server.
      json answer = tables::review_request(body, true);
      if (const auto rules = record_rules(body)) answer["geometry"] = geometry_json(*rules);
      return {200, std::move(answer)};
    } catch (const protocol::RequestError& error) {
      ApiError refusal = bad_request(error.what());
      // No table for the record's rules: the page offers to build it, as for Perfect.
      if (const auto rules = record_rules(body)) {
        std::string problem;
        if (!tables::find_table(*rules, &problem)) {
          if (auto missing = missing_table(*rules)) {
            throw std::move(refusal).with_detail("table_missing", std::move(*missing));
          }
        }
      }
      throw refusal;
    }
  }

  // The rules of the record a review request carries, when it can be read.
  static std::optional<Rules> record_rules(const json& body) {
    try {
      if (const auto record = body.find("record"); record != body.end()) {
        return protocol::record_from_json(*record).rules;
      }
      if (const auto rgn = body.find("rgn"); rgn != body.end() && rgn->is_string()) {
        auto games = records::read_rgn(rgn->get_ref<const std::string&>());
        if (auto* read = std::get_if<std::vector<records::GameRecord>>(&games)) {
          if (!read->empty()) return read->front().rules;
        }
      }
    } catch (const protocol::RequestError&) {
    }
    return std::nullopt;
  }

  // Every game of a record file's text as JSON records, so the page can replay them without
  // an RGN reader of its own.
  static ApiResponse read_records(const json& body) {
    require_only_members(body, {"text"}, "a records request");
    const auto text = body.find("text");
    if (text == body.end()) {
      throw bad_request(
          R"(A records request needs "text": the text of an RGN or JSON record file.)");
    }
    if (!text->is_string()) {
      throw bad_request("\"text\" must be the record file's text as a string, got " +
                        protocol::quote_json(*text) + ".");
    }
    auto games = protocol::parse_record_text(text->get<std::string>());
    if (const auto* error = std::get_if<std::string>(&games)) throw bad_record(*error);
    json answer = json::array();
    for (const records::GameRecord& record : std::get<0>(games)) {
      // parse_record_text has replayed every game already, so this replay cannot fail.
      json game = protocol::to_json(record, std::get<records::Replay>(records::replay(record)));
      game["geometry"] = geometry_json(record.rules);  // the page draws the record's board
      answer.push_back(std::move(game));
    }
    return {200, {{"games", answer}}};
  }

  // POST starts a build of the perfect opponent's table, GET reports it, DELETE cancels it.
  ApiResponse table_build(const std::string& method, const std::string& body) {
    if (method == "GET") return {200, table_job.state()};
    if (method == "DELETE") return {200, table_job.cancel()};
    if (method != "POST") throw bad_method(method, "GET, POST or DELETE");
    const json request = parse_body(body);
    require_only_members(request, {"pieces", "bear_off"}, "a table build");
    if (!request.contains("pieces") || !request.contains("bear_off")) {
      throw bad_request(
          R"(A table build needs "pieces" and "bear_off": {"pieces":5,"bear_off":"exact"} for example.)");
    }
    auto [status, state] =
        table_job.start(merge_web_settings(default_web_settings(), request).rules);
    return {status, std::move(state)};
  }

  // The first session of a new game: a fresh series, or a record's game continued. Sets
  // `online_host` to the host's seat for an online game ("opponent": "online").
  session::Session first_session(const json& body, std::uint64_t seed,
                                 std::optional<Side>& online_host) {
    auto patch = body.find("settings");
    json online_patch;
    if (patch != body.end() && patch->is_object()) {
      const auto opponent = patch->find("opponent");
      if (opponent != patch->end() && *opponent == kOnlineOpponent) {
        if (body.contains("from")) {
          throw bad_settings(
              "An online game starts from the beginning; play on from a record "
              "against the computer or a friend on this device.");
        }
        online_patch = *patch;
        online_patch["opponent"] = kFriend;
        online_patch.erase("seat");
        online_patch.erase("name");
        online_patch["starts"] = "alternate";  // a rematch is opened by the other player
        online_host = Side::Light;
        if (const auto seat = patch->find("seat"); seat != patch->end()) {
          const auto side =
              seat->is_string() ? side_from_name(seat->get<std::string>()) : std::nullopt;
          if (!side) {
            throw bad_request("setting \"seat\" must be \"light\" or \"dark\", got " +
                              protocol::quote_json(*seat));
          }
          online_host = *side;
        }
      }
    }
    session::Settings settings = default_web_settings();
    const auto from = body.find("from");
    records::GameRecord record;
    std::size_t plies = 0;
    if (from != body.end()) {
      record = continued_record(*from, plies);
      settings.rules = record.rules;  // the record's rules, whatever the settings say
    }
    if (patch != body.end()) {
      json members = online_host ? online_patch : *patch;
      if (from != body.end() && members.is_object()) {
        members.erase("pieces");
        members.erase("bear_off");
      }
      settings = merge_web_settings(settings, members);
    }
    if (online_host) {
      for (auto& seat : settings.seats) seat.name.clear();
      if (const auto name = patch->find("name"); name != patch->end()) {
        settings.seats[index_of(*online_host)].name = player_name(*name, "name");
      }
    }
    check_opponent(settings);
    if (from == body.end()) return session::Session::start(settings, seed, now());
    auto continued = records::continue_from(record, plies, settings, seed, now());
    if (auto* error = std::get_if<std::string>(&continued)) {
      throw bad_record("Cannot play on from ply " + std::to_string(plies) + ": " + *error + ".");
    }
    return std::get<session::Session>(std::move(continued));
  }

  void create_game(const json& body, const Reply& reply) {
    require_only_members(body, {"settings", "from"}, "a new game request");
    std::optional<Side> online_host;
    session::Session session = first_session(body, random_value(), online_host);
    Seating seating = new_seating(session.settings(), online_host);
    WebGame game{new_game_id(), 0, std::move(session), seating};
    game.presence = Presence::since(now());
    const std::string id = game.id;
    if (online_host) store->save_invite(seating.invite, id);
    // The creator's seat token (both seats between friends on one device).
    const std::string token =
        seating.token(online_host.value_or(person_side(game.session.settings())));
    // A continued game's earlier plies are not news to the page: its events start after them.
    const std::size_t first = body.contains("from") ? game.session.history().size() : 0;
    auto slot = std::make_shared<GameSlot>(pool, std::move(game));
    asio::post(slot->strand, [this, slot, id, first, reply, token, seating] {
      guarded(reply, [&] {
        commit(*slot, slot->game, first, false);
        {
          std::lock_guard lock(cache_mutex);
          cache_slot(id, slot);
        }
        play_computer_turn(*slot);
        ApiResponse response = game_response(slot->game, first, 201);
        response.body["token"] = token;
        if (!seating.invite.empty()) response.body["invite"] = seating.invite;
        reply(std::move(response));
      });
    });
  }

  void finished() {
    std::lock_guard lock(drain_mutex);
    if (--in_flight == 0) drained.notify_all();
  }
};

GameHub::GameHub(HubOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

GameHub::~GameHub() {
  join_workers();
}

void GameHub::join_workers() {
  impl_->pool.join();
}

void GameHub::submit(ApiRequest request, Reply reply) {
  {
    std::lock_guard lock(impl_->drain_mutex);
    ++impl_->in_flight;
  }
  Impl* impl = impl_.get();
  auto once = [impl, reply = std::move(reply)](ApiResponse response) {
    reply(std::move(response));
    impl->finished();
  };
  // route() either answers at once (health, errors) or hands `once` on to a game's strand.
  asio::post(impl->pool, [impl, request = std::move(request), once = std::move(once)] {
    Impl::guarded(once, [&] { impl->route(request, once); });
  });
}

ApiResponse GameHub::handle(ApiRequest request) {
  std::promise<ApiResponse> answer;
  auto future = answer.get_future();
  submit(std::move(request),
         [&answer](ApiResponse response) { answer.set_value(std::move(response)); });
  return future.get();
}

void GameHub::subscribe(const std::string& id, std::weak_ptr<GameListener> listener,
                        std::function<void(Subscription)> done) {
  Impl* impl = impl_.get();
  asio::post(impl->pool, [impl, id, listener = std::move(listener), done = std::move(done)] {
    Impl::SlotPtr slot;
    try {
      slot = impl->find_or_load(id);
    } catch (const std::exception& error) {
      std::cerr << "ur serve: internal error: " << error.what() << "\n";
    }
    if (!slot) {
      done(nullptr);
      return;
    }
    asio::post(slot->strand, [impl, slot, listener, done] {
      if (const auto live = listener.lock()) {
        live->on_game_update(impl->update_message(slot->game, json::array(), std::nullopt), false);
        slot->listeners.push_back(listener);
      }
      done(slot);
      Impl::guarded([](const ApiResponse&) {}, [&] { impl->play_computer_turn(*slot); });
    });
  });
}

namespace {

// Keeps the seats a socket said hello for connected; its end marks them gone. Lives as long
// as the socket, which may outlast requests: it holds the slot, not the game.
template <typename Slot, typename Left>
class PresenceHandle {
 public:
  PresenceHandle(std::shared_ptr<Slot> slot, std::array<bool, 2> held, Left left)
      : slot_(std::move(slot)), held_(held), left_(std::move(left)) {}
  ~PresenceHandle() { left_(slot_, held_); }
  PresenceHandle(const PresenceHandle&) = delete;
  PresenceHandle& operator=(const PresenceHandle&) = delete;

 private:
  std::shared_ptr<Slot> slot_;
  std::array<bool, 2> held_;
  Left left_;
};

}  // namespace

void GameHub::hello(const std::string& id, const std::string& token,
                    std::function<void(Subscription, std::optional<ApiResponse>)> done) {
  Impl* impl = impl_.get();
  asio::post(impl->pool, [impl, id, token, done = std::move(done)] {
    Impl::SlotPtr slot;
    try {
      slot = impl->find_or_load(id);
    } catch (const std::exception& error) {
      std::cerr << "ur serve: internal error: " << error.what() << "\n";
    }
    if (!slot) {
      done(nullptr, error_response(unknown_game(id)));
      return;
    }
    asio::post(slot->strand, [impl, slot, token, done] {
      if (token.empty()) {
        done(nullptr, std::nullopt);  // a watcher: nothing to mark
        return;
      }
      std::array<bool, 2> held{};
      try {
        held = require_seat(slot->game.seating, token);
      } catch (const ApiError& error) {
        done(nullptr, error_response(error));
        return;
      }
      Presence& presence = slot->here;
      for (Side side : {Side::Light, Side::Dark}) {
        if (!held[index_of(side)]) continue;
        ++presence.sockets[index_of(side)];
        presence.seen[index_of(side)] = true;
      }
      Impl::guarded([](const ApiResponse&) {}, [&] { impl->publish_presence(*slot); });
      impl->tell_presence(*slot);
      auto left = [impl](const Impl::SlotPtr& gone, std::array<bool, 2> sides) {
        asio::post(gone->strand, [impl, gone, sides] {
          Presence& seats = gone->here;
          for (Side side : {Side::Light, Side::Dark}) {
            if (!sides[index_of(side)]) continue;
            if (--seats.sockets[index_of(side)] == 0) seats.left_at[index_of(side)] = impl->now();
          }
          Impl::guarded([](const ApiResponse&) {}, [&] { impl->publish_presence(*gone); });
          impl->tell_presence(*gone);
        });
      };
      done(std::make_shared<PresenceHandle<Impl::GameSlot, decltype(left)>>(slot, held, left),
           std::nullopt);
    });
  });
}

void GameHub::start_draining() {
  impl_->draining = true;
}

void GameHub::drain() {
  std::unique_lock lock(impl_->drain_mutex);
  impl_->drained.wait(lock, [this] { return impl_->in_flight == 0; });
}

}  // namespace ur::server
