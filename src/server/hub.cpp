#include "server/hub.h"

#include <algorithm>
#include <atomic>
#include <boost/asio/post.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/thread_pool.hpp>
#include <condition_variable>
#include <future>
#include <iostream>
#include <mutex>
#include <random>
#include <thread>
#include <unordered_map>

#include "core/notation.h"
#include "protocol/json.h"
#include "protocol/record_json.h"
#include "server/store.h"
#include "server/table_job.h"
#include "tables/review_request.h"
#include "tables/table.h"

namespace ur::server {

namespace asio = boost::asio;
using nlohmann::json;

std::size_t max_body_bytes(std::string_view target) {
  const std::string_view path = target.substr(0, target.find('?'));
  return path == "/api/records" || path == "/api/review" ? kMaxRecordBodyBytes : kMaxBodyBytes;
}

ApiResponse error_response(const ApiError& error) {
  ApiResponse response{error.status(), error.details()};
  response.body["error"] = error.what();
  response.body["code"] = error.code();
  return response;
}

namespace {

constexpr std::string_view kGamesPrefix = "/api/games";
constexpr std::string_view kTableBuildPath = "/api/tables/build";
constexpr std::string_view kReviewPath = "/api/review";
constexpr std::string_view kRecordsPath = "/api/records";
constexpr std::string_view kPerfectOpponent = "perfect";
constexpr std::size_t kGameIdHexDigits = 16;
// Games kept in memory; beyond this, idle ones are dropped (they stay in the store).
constexpr std::size_t kMaxCachedGames = 4096;
// A computer turn never needs this many steps; the bound only guards against a faulty agent.
constexpr int kMaxComputerSteps = 10000;

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

// The request body as a JSON object; an empty body counts as {}.
json parse_body(std::string_view body) {
  if (body.find_first_not_of(" \t\r\n") == std::string_view::npos) return json::object();
  if (protocol::nests_too_deeply(body)) {
    throw ApiError(400, "bad_json",
                   "The request body nests arrays or objects more than " +
                       std::to_string(protocol::kMaxJsonNesting) +
                       " levels deep; send a flat JSON object.");
  }
  json value = json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) {
    throw ApiError(400, "bad_json", "The request body is not valid JSON; send a JSON object.");
  }
  if (!value.is_object()) {
    throw ApiError(400, "bad_json",
                   "The request body must be a JSON object, got " + protocol::quote_json(value));
  }
  return value;
}

void require_only_members(const json& body, std::initializer_list<std::string_view> allowed,
                          std::string_view what) {
  for (const auto& [key, value] : body.items()) {
    if (std::find(allowed.begin(), allowed.end(), key) == allowed.end()) {
      std::string names;
      for (std::string_view name : allowed)
        names += (names.empty() ? "\"" : ", \"") + std::string(name) + "\"";
      throw bad_request("Unknown member " + protocol::quote_json(key) + " in " + std::string(what) +
                        (names.empty() ? "; it takes no members." : "; it takes " + names + "."));
    }
  }
}

enum class Action { Throw, Move, Pass, New, Settings };

struct Intent {
  Action action;
  std::optional<Side> side;
  Square from = 0;
  json settings;                         // null when absent
  std::optional<std::uint64_t> version;  // the version the sender saw, when it says
};

constexpr std::array<std::pair<std::string_view, Action>, 5> kActions = {{
    {"throw", Action::Throw},
    {"move", Action::Move},
    {"pass", Action::Pass},
    {"new", Action::New},
    {"settings", Action::Settings},
}};

std::optional<Action> action_named(std::string_view name) {
  for (const auto& [action_name, action] : kActions) {
    if (action_name == name) return action;
  }
  return std::nullopt;
}

std::optional<Side> side_member(const json& body) {
  const auto found = body.find("side");
  if (found == body.end()) return std::nullopt;
  const auto side =
      found->is_string() ? side_from_name(found->get_ref<const std::string&>()) : std::nullopt;
  if (!side) {
    throw bad_request("\"side\" must be \"light\" or \"dark\", got " +
                      protocol::quote_json(*found));
  }
  return side;
}

// The optional "version" of a throw, move or pass: the game version the sender's screen shows.
std::optional<std::uint64_t> version_member(const json& body) {
  const auto found = body.find("version");
  if (found == body.end()) return std::nullopt;
  if (!found->is_number_unsigned()) {
    throw bad_request(
        "\"version\" must be the game version the page shows (a whole number like 12), got " +
        protocol::quote_json(*found));
  }
  return found->get<std::uint64_t>();
}

Intent parse_intent(Action action, const json& body) {
  Intent intent{action, std::nullopt, 0, nullptr, std::nullopt};
  switch (action) {
    case Action::Throw:
      require_only_members(body, {"side", "version"}, "a throw");
      break;
    case Action::Pass:
      require_only_members(body, {"side", "version"}, "a pass");
      break;
    case Action::Move: {
      require_only_members(body, {"from", "side", "version"}, "a move");
      const auto from = body.find("from");
      const int home = finkel_rules().home_square();
      if (from == body.end() || !from->is_number_integer() || from->get<long long>() < 0 ||
          from->get<long long>() > home) {
        throw bad_request("A move needs \"from\": the route square of the piece to move, 0-" +
                          std::to_string(home - 1) + " (0 enters a piece from the start pile)" +
                          (from == body.end() ? "" : "; got " + protocol::quote_json(*from)) + ".");
      }
      intent.from = static_cast<Square>(from->get<long long>());
      break;
    }
    case Action::New:
      require_only_members(body, {"settings"}, "a new game");
      break;
    case Action::Settings:
      require_only_members(body, {"settings"}, "a settings change");
      if (!body.contains("settings")) {
        throw bad_request(R"(A settings change needs "settings": {"pieces":5} for example.)");
      }
      break;
  }
  intent.side = side_member(body);
  intent.version = version_member(body);
  if (const auto settings = body.find("settings"); settings != body.end()) {
    intent.settings = *settings;
    if (!intent.settings.is_object()) merge_settings(GameSettings{}, intent.settings);  // throws
  }
  return intent;
}

std::string_view path_of(std::string_view target) {
  return target.substr(0, target.find('?'));
}

// Splits "/api/games/ID/ACTION" into its parts after the prefix; empty for the bare prefix.
std::vector<std::string_view> game_path_parts(std::string_view path) {
  std::vector<std::string_view> parts;
  std::string_view rest = path.substr(kGamesPrefix.size());
  while (!rest.empty()) {
    if (rest.front() != '/') return {"", "", "", ""};  // unmatched: too many parts
    rest.remove_prefix(1);
    const std::size_t slash = rest.find('/');
    parts.push_back(rest.substr(0, slash));
    rest = slash == std::string_view::npos ? std::string_view{} : rest.substr(slash);
  }
  return parts;
}

}  // namespace

std::optional<std::string> socket_game_id(std::string_view target) {
  const std::string_view path = path_of(target);
  if (!path.starts_with(kGamesPrefix)) return std::nullopt;
  const auto parts = game_path_parts(path);
  if (parts.size() != 2 || parts[1] != "ws") return std::nullopt;
  return std::string(parts[0]);
}

ApiRequest request_from_socket_message(std::string_view game_id, std::string_view message) {
  json body = parse_body(message);
  const auto action = body.find("action");
  if (action == body.end() || !action->is_string() ||
      !action_named(action->get_ref<const std::string&>())) {
    throw bad_request(
        R"(A message needs "action": "throw", "move", "pass", "new" or "settings", got )" +
        (action == body.end() ? std::string("none") : protocol::quote_json(*action)) + ".");
  }
  const std::string name = action->get<std::string>();
  body.erase("action");
  return {"POST", std::string(kGamesPrefix) + "/" + std::string(game_id) + "/" + name, body.dump()};
}

struct GameHub::Impl {
  struct GameSlot {
    explicit GameSlot(asio::thread_pool& pool) : strand(asio::make_strand(pool)) {}
    asio::strand<asio::thread_pool::executor_type> strand;
    Game game;                                           // touched only on `strand`
    std::vector<std::weak_ptr<GameListener>> listeners;  // touched only on `strand`
  };
  using SlotPtr = std::shared_ptr<GameSlot>;

  explicit Impl(HubOptions hub_options)
      : options(std::move(hub_options)),
        store(options.data_dir),
        pool(static_cast<std::size_t>(
            options.worker_threads > 0
                ? options.worker_threads
                : std::max(4, static_cast<int>(std::thread::hardware_concurrency())))),
        id_rng(std::random_device{}()) {
    // Everything the server writes lives under its data directory, built tables included.
    tables::set_table_directory(options.data_dir);
  }

  HubOptions options;
  GameStore store;
  asio::thread_pool pool;
  TableBuildJob table_job;

  std::mutex cache_mutex;
  std::unordered_map<std::string, SlotPtr> cache;

  std::mutex id_mutex;
  std::mt19937_64 id_rng;

  std::mutex drain_mutex;
  std::condition_variable drained;
  int in_flight = 0;

  std::uint64_t random_value() {
    std::lock_guard lock(id_mutex);
    return id_rng();
  }

  // A fresh id that no stored game uses.
  std::string new_game_id() {
    static constexpr char kHex[] = "0123456789abcdef";
    for (;;) {
      std::uint64_t value = random_value();
      std::string id = "g-";
      for (std::size_t i = 0; i < kGameIdHexDigits; ++i, value >>= 4) id += kHex[value & 15];
      std::lock_guard lock(cache_mutex);
      if (!cache.contains(id) && !store.load(id)) return id;
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
    const auto record = store.load(id);
    if (!record) return nullptr;
    auto slot = std::make_shared<GameSlot>(pool);
    slot->game = game_from_record(json::parse(*record));
    std::lock_guard lock(cache_mutex);
    // Another thread may have loaded it meanwhile; keep theirs so there is one slot a game.
    return cache_slot(id, slot);
  }

  // The computer player for `spec`, one per worker thread and spec (agents keep no state
  // between choices that matters, and are not shared between threads).
  Agent& agent_for(const std::string& spec) {
    thread_local std::unordered_map<std::string, std::unique_ptr<Agent>> agents;
    auto& agent = agents[spec];
    if (!agent) {
      auto made = options.make_agent(spec, random_value());
      if (auto* error = std::get_if<AgentSpecError>(&made)) {
        agents.erase(spec);
        throw bad_settings("The opponent " + protocol::quote_json(spec) +
                           " is not available: " + error->message);
      }
      agent = std::move(std::get<std::unique_ptr<Agent>>(made));
    }
    return *agent;
  }

  // Refuses settings whose computer opponent cannot be built (e.g. perfect without tables).
  void check_opponent(const GameSettings& settings) {
    if (settings.opponent == kFriend) return;
    if (auto why = agent_for(settings.opponent).cannot_play(settings.rules())) {
      ApiError error = bad_settings("The opponent " + protocol::quote_json(settings.opponent) +
                                    " is not available: " + *why);
      // The page offers to build a missing table (POST /api/tables/build).
      if (settings.opponent == kPerfectOpponent) {
        if (auto missing = missing_table(settings.rules())) {
          throw std::move(error).with_detail("table_missing", std::move(*missing));
        }
      }
      throw error;
    }
  }

  static std::shared_ptr<const std::string> update_message(const Game& game, const Events& events) {
    return std::make_shared<const std::string>(
        json{{"type", "update"}, {"game", game_state_json(game)}, {"events", events}}.dump());
  }

  // Makes `next` the game's state: stores it, then tells the listeners. On a store failure
  // the game keeps its previous state and the exception propagates.
  void commit(GameSlot& slot, Game next, const Events& events, bool computer_step) {
    next.version = slot.game.version + 1;
    store.save(next.id, game_record_json(next).dump());
    slot.game = std::move(next);
    if (slot.listeners.empty()) return;
    const auto message = update_message(slot.game, events);
    std::erase_if(slot.listeners, [&](const std::weak_ptr<GameListener>& weak) {
      const auto listener = weak.lock();
      if (listener) listener->on_game_update(message, computer_step);
      return !listener;
    });
  }

  // Plays the computer's turn to its end (also one left unfinished by a restart), one
  // stored and announced step at a time; appends its events.
  void play_computer_turn(GameSlot& slot, Events& events) {
    for (int step = 0; step < kMaxComputerSteps && computer_to_act(slot.game); ++step) {
      Game next = slot.game;
      Events step_events;
      Agent& agent = agent_for(next.settings.opponent);
      computer_step(next, agent, step_events);
      commit(slot, std::move(next), step_events, true);
      events.insert(events.end(), step_events.begin(), step_events.end());
    }
  }

  static ApiResponse game_response(const Game& game, const Events& events, int status = 200) {
    return {status, {{"game", game_state_json(game)}, {"events", events}}};
  }

  void apply_intent(Game& game, const Intent& intent, Events& events) {
    switch (intent.action) {
      case Action::Throw:
        throw_intent(game, intent.side, events);
        return;
      case Action::Move:
        move_intent(game, intent.side, intent.from, events);
        return;
      case Action::Pass:
        pass_intent(game, intent.side, events);
        return;
      case Action::New:
        new_game_intent(game, intent.settings, events);
        check_opponent(game.settings);
        return;
      case Action::Settings:
        settings_intent(game, intent.settings, events);
        check_opponent(game.next_settings.value_or(game.settings));
        return;
    }
  }

  // Runs `work` on the game's strand, answering its errors; `work` returns the answer.
  void on_game(const std::string& id, Reply reply, std::function<ApiResponse(GameSlot&)> work) {
    SlotPtr slot = find_or_load(id);
    if (!slot) throw unknown_game(id);
    asio::post(slot->strand, [this, slot, reply = std::move(reply), work = std::move(work)] {
      guarded(reply, [&] { reply(work(*slot)); });
    });
  }

  // Runs `work`, which replies itself on success; answers with the error it throws instead.
  static void guarded(const Reply& reply, const std::function<void()>& work) {
    try {
      work();
    } catch (const ApiError& error) {
      reply(error_response(error));
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
      reply({200, {{"ok", true}}});
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
    if (!path.starts_with(kGamesPrefix)) throw not_found(path);
    const auto parts = game_path_parts(path);
    if (parts.empty()) {
      if (method != "POST") throw bad_method(method, "POST to create a game");
      create_game(parse_body(request.body), reply);
      return;
    }
    const std::string id(parts[0]);
    if (parts.size() == 1) {
      if (method != "GET") throw bad_method(method, "GET");
      on_game(id, reply, [this](GameSlot& slot) {
        Events events;
        play_computer_turn(slot, events);
        return game_response(slot.game, events);
      });
      return;
    }
    if (parts.size() == 2 && parts[1] == "ws") {
      throw bad_request("/ws is a WebSocket: open it with a WebSocket upgrade request.");
    }
    const auto action = parts.size() == 2 ? action_named(parts[1]) : std::nullopt;
    if (!action) throw not_found(path);
    if (method != "POST") throw bad_method(method, "POST");
    const Intent intent = parse_intent(*action, parse_body(request.body));
    on_game(id, reply, [this, intent](GameSlot& slot) {
      // Another window (or a lost answer) has changed the game since the sender looked.
      if (intent.version && *intent.version != slot.game.version) {
        throw conflict("moved_on",
                       "The game moved on in another window; this page now shows where it is.");
      }
      Events events;
      play_computer_turn(slot, events);  // finishes a turn a restart interrupted
      Game next = slot.game;
      Events intent_events;
      apply_intent(next, intent, intent_events);
      commit(slot, std::move(next), intent_events, false);
      events.insert(events.end(), intent_events.begin(), intent_events.end());
      play_computer_turn(slot, events);
      return game_response(slot.game, events);
    });
  }

  // The review of a record from the solved table (docs/review.md). A missing table is not
  // solved here, where it would stall the server: the answer says how to build it.
  ApiResponse review(const json& body) {
    if (!body.is_object()) throw bad_request("a review request must be a JSON object");
    require_only_members(body, {"record", "rgn"}, "a review request");
    try {
      return {200, tables::review_request(body, false)};
    } catch (const protocol::RequestError& error) {
      throw bad_request(error.what());
    }
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
    if (const auto* error = std::get_if<std::string>(&games)) {
      throw ApiError(400, "bad_record", *error);
    }
    json answer = json::array();
    for (const records::GameRecord& record : std::get<0>(games)) {
      // parse_record_text has replayed every game already, so this replay cannot fail.
      answer.push_back(
          protocol::to_json(record, std::get<records::Replay>(records::replay(record))));
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
    auto [status, state] = table_job.start(merge_settings(GameSettings{}, request).rules());
    return {status, std::move(state)};
  }

  void create_game(const json& body, const Reply& reply) {
    require_only_members(body, {"settings"}, "a new game request");
    const auto patch = body.find("settings");
    GameSettings settings =
        patch == body.end() ? GameSettings{} : merge_settings(GameSettings{}, *patch);
    check_opponent(settings);
    const std::string id = new_game_id();
    auto slot = std::make_shared<GameSlot>(pool);
    const std::uint64_t seed = random_value();
    asio::post(slot->strand, [this, slot, id, settings, seed, reply] {
      guarded(reply, [&] {
        Events events;
        Game game = new_series(id, settings, seed, events);
        commit(*slot, std::move(game), events, false);
        {
          std::lock_guard lock(cache_mutex);
          cache_slot(id, slot);
        }
        play_computer_turn(*slot, events);
        reply(game_response(slot->game, events, 201));
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
        live->on_game_update(Impl::update_message(slot->game, {}), false);
        slot->listeners.push_back(listener);
      }
      done(slot);
      Impl::guarded([](const ApiResponse&) {},
                    [&] {
                      Events events;
                      impl->play_computer_turn(*slot, events);
                    });
    });
  });
}

void GameHub::drain() {
  std::unique_lock lock(impl_->drain_mutex);
  impl_->drained.wait(lock, [this] { return impl_->in_flight == 0; });
}

}  // namespace ur::server
